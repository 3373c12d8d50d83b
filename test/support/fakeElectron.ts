import { tmpdir } from 'node:os'
import { vi } from 'vitest'
import type { IpcResult } from '@shared/result'

/**
 * Electron replaced at the edge only, for tests that start the real main-process entry under
 * plain Node: everything behind `ipcMain` is the real app. Records the handlers it registers,
 * the windows it loads and every message box it shows; `answer` plays the user (the index of
 * the button chosen).
 */
type Handler = (event: unknown, input: unknown) => Promise<IpcResult<unknown>>
export interface AskedDialog {
  message: string
  detail: string
  buttons: string[]
}
interface LoadedWindow {
  url: string
  icon?: string
  webPreferences: Record<string, unknown>
}

export function fakeElectron(options: {
  locale: string
  answer?: (dialog: AskedDialog) => number
}) {
  const handlers = new Map<string, Handler>()
  const windows: LoadedWindow[] = []
  const asked: AskedDialog[] = []
  let ready!: () => void
  const readyPromise = new Promise<void>((resolve) => (ready = resolve))
  const answer = (dialog: AskedDialog) => {
    asked.push({ message: dialog.message, detail: dialog.detail, buttons: dialog.buttons })
    return options.answer?.(dialog) ?? 0
  }
  class BrowserWindow {
    static getAllWindows = () => []
    webPreferences: Record<string, unknown>
    icon?: string
    webContents = {
      setWindowOpenHandler: () => {},
      on: () => {},
      once: () => {},
      send: () => {},
      getURL: () => ''
    }
    constructor(options: { icon?: string; webPreferences: Record<string, unknown> }) {
      this.webPreferences = options.webPreferences
      this.icon = options.icon
    }
    once() {}
    show() {}
    isDestroyed = () => false
    isVisible = () => true
    loadURL(url: string) {
      windows.push({ url, icon: this.icon, webPreferences: this.webPreferences })
      return Promise.resolve()
    }
  }
  return {
    handlers,
    windows,
    asked,
    ready,
    module: {
      app: {
        isPackaged: false,
        getPath: () => tmpdir(),
        setPath: vi.fn(),
        commandLine: { appendSwitch: vi.fn() },
        releaseSingleInstanceLock: vi.fn(),
        getAppPath: () => tmpdir(),
        getVersion: () => '0.0.0-test',
        getLocale: () => options.locale,
        getPreferredSystemLanguages: () => [options.locale],
        requestSingleInstanceLock: () => true,
        on: () => {},
        quit: vi.fn(),
        relaunch: vi.fn(),
        exit: vi.fn(),
        whenReady: () => readyPromise
      },
      BrowserWindow,
      ipcMain: { handle: (channel: string, fn: Handler) => handlers.set(channel, fn) },
      dialog: {
        showErrorBox: vi.fn(),
        showMessageBoxSync: vi.fn(answer),
        showMessageBox: vi.fn(async (dialog: AskedDialog) => ({ response: answer(dialog) }))
      },
      session: {
        defaultSession: {
          setPermissionRequestHandler: () => {},
          setPermissionCheckHandler: () => {}
        }
      },
      shell: { openExternal: vi.fn() },
      safeStorage: {
        isEncryptionAvailable: () => false,
        getSelectedStorageBackend: () => 'basic_text'
      },
      // No model here: the first-run download must fail at once, never reach the hub.
      net: { fetch: () => Promise.reject(new Error('no network in this test')) },
      // Without utilityProcess.fork the embedding worker runs in a thread.
      utilityProcess: {}
    }
  }
}
