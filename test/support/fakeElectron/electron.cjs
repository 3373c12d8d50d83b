// A stand-in for the `electron` module, for running the BUILT main bundle under plain Node.
// It does what the app asks as Electron would, at the level the app sees it, and reports each
// step to the test over the fork IPC channel; the test can call IPC handlers and the
// permission handler through it. Settings come from FAKE_ELECTRON_* variables (the system
// locale from FAKE_ELECTRON_LOCALE).
const { fork } = require('node:child_process')
const { EventEmitter } = require('node:events')
const { join } = require('node:path')

const report = (message) => process.send?.(message)
const env = process.env
const paths = { userData: env.FAKE_ELECTRON_USER_DATA }
const handlers = new Map()
const windows = []
let permissionHandler = null
let exiting = false

function exit(code) {
  if (exiting) return
  exiting = true
  // Let the report reach the test before the process ends.
  if (process.send) process.send({ type: 'exit', code }, () => process.exit(code))
  else process.exit(code)
}

class WebContents extends EventEmitter {
  url = ''
  setWindowOpenHandler() {}
  send(channel, payload) {
    report({ type: 'event', channel, payload })
  }
  getURL() {
    return this.url
  }
}

class BrowserWindow extends EventEmitter {
  static getAllWindows = () => windows.filter((w) => !w.destroyed)
  static getFocusedWindow = () => windows.find((w) => !w.destroyed) ?? null
  visible = false
  destroyed = false
  webContents = new WebContents()
  constructor(options) {
    super()
    windows.push(this)
    report({ type: 'window', show: options.show, webPreferences: options.webPreferences })
  }
  loadURL(url) {
    this.webContents.url = url
    report({ type: 'load', url })
    // How the page behaves: 'ready' (ready-to-show), 'fail' (did-fail-load), 'silent' (neither,
    // as on some Wayland compositors and GPU-less VMs).
    const page = env.FAKE_ELECTRON_PAGE ?? 'ready'
    setImmediate(() => {
      if (page === 'ready') this.emit('ready-to-show')
      if (page === 'fail') this.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', url)
    })
    return Promise.resolve()
  }
  show() {
    this.visible = true
    report({ type: 'show' })
  }
  isVisible = () => this.visible
  isDestroyed = () => this.destroyed
  isMinimized = () => false
  restore() {}
  focus() {
    report({ type: 'focus' })
  }
}

const app = new (class extends EventEmitter {
  isPackaged = env.FAKE_ELECTRON_PACKAGED === '1'
  commandLine = { appendSwitch: (name, value) => report({ type: 'switch', name, value }) }
  getPath = (name) => paths[name] ?? paths.userData
  setPath(name, path) {
    paths[name] = path
    report({ type: 'setPath', name, path })
  }
  getAppPath = () => env.FAKE_ELECTRON_APP_PATH ?? process.cwd()
  getVersion = () => '0.0.0-boot'
  getLocale = () => env.FAKE_ELECTRON_LOCALE ?? 'en-US'
  getPreferredSystemLanguages = () => [this.getLocale()]
  requestSingleInstanceLock = () => true
  releaseSingleInstanceLock = () => report({ type: 'lock-released' })
  whenReady = () => new Promise((resolve) => setImmediate(resolve))
  relaunch = () => report({ type: 'relaunch' })
  exit = exit
  quit() {
    let prevented = false
    this.emit('will-quit', { preventDefault: () => (prevented = true) })
    if (!prevented) exit(0)
  }
})()

const dialog = {
  showErrorBox: (title, content) => report({ type: 'error-box', title, content }),
  showMessageBoxSync: (options) => {
    report({
      type: 'message-box',
      message: options.message,
      detail: options.detail,
      buttons: options.buttons
    })
    return options.buttons.length - 1
  },
  showMessageBox: async (options) => ({ response: dialog.showMessageBoxSync(options) }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true })
}

// Commands from the test: call an IPC handler as the app's page, or ask the permission handler.
process.on('message', async (message) => {
  if (message.type === 'invoke') {
    const handler = handlers.get(message.channel)
    const window = windows[0]
    const sender = { senderFrame: { url: message.senderUrl ?? window?.webContents.url } }
    const result = handler ? await handler(sender, message.input) : { missing: true }
    report({ type: 'reply', id: message.id, result })
  } else if (message.type === 'permission') {
    const granted = await new Promise((resolve) =>
      permissionHandler?.(null, message.permission, resolve, { requestingUrl: message.url })
    )
    report({ type: 'reply', id: message.id, result: granted })
  } else if (message.type === 'quit') {
    app.quit()
  }
})

module.exports = {
  app,
  BrowserWindow,
  dialog,
  ipcMain: {
    handle(channel, handler) {
      handlers.set(channel, handler)
      report({ type: 'handle', channel })
    }
  },
  net: {
    fetch(url, init) {
      report({ type: 'net-fetch', url })
      return fetch(url, init)
    }
  },
  safeStorage: {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text'
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (handler) => (permissionHandler = handler),
      setPermissionCheckHandler: () => {}
    }
  },
  shell: { openExternal: async () => {} },
  // A Node child process with `process.parentPort` (utilityHook.cjs), reported to the test.
  utilityProcess: {
    fork(modulePath, args, options) {
      const child = fork(modulePath, args, {
        serialization: 'advanced',
        execArgv: ['--require', join(__dirname, 'utilityHook.cjs')],
        env: options.env,
        stdio: 'inherit'
      })
      report({
        type: 'utility-fork',
        pid: child.pid,
        serviceName: options.serviceName,
        envKeys: Object.keys(options.env ?? {})
      })
      const utility = new EventEmitter()
      utility.pid = child.pid
      utility.postMessage = (message) => child.connected && child.send(message)
      utility.kill = () => child.kill()
      child.on('message', (message) => utility.emit('message', message))
      // Electron reports an exit code only; a signal reads as a failure.
      child.on('exit', (code, signal) => utility.emit('exit', code ?? (signal ? 1 : 0)))
      return utility
    }
  }
}
