import { BrowserWindow, shell } from 'electron'
import { revealWindow } from './startup/revealWindow'

/** Links the user clicks in messages open in their browser; nothing else leaves the app. */
function isExternalLink(url: string): boolean {
  return /^(https?|mailto):/i.test(url)
}

/**
 * How long the window waits for `ready-to-show`. Some set-ups never send it (Wayland
 * compositors, VMs without a GPU): the window then shows anyway, rather than staying hidden
 * with the app running.
 */
const SHOW_TIMEOUT_MS = 5_000

/** `preload` is passed in: this module may be bundled into a chunk with another __dirname. */
export function createMainWindow(appUrl: string, preload: string, icon?: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 760,
    minHeight: 480,
    show: false,
    title: 'Context Lens',
    icon,
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false
    }
  })

  const reveal = () => {
    clearTimeout(timer)
    if (!window.isDestroyed() && !window.isVisible()) revealWindow(window)
  }
  const timer = setTimeout(reveal, SHOW_TIMEOUT_MS)
  window.once('ready-to-show', reveal)
  window.once('closed', () => clearTimeout(timer))
  // A page that failed to load shows Chromium's error page, which is better than no window.
  window.webContents.once('did-fail-load', (_event, code, description, url) => {
    console.error(`[window] ${url} failed to load: ${description} (${code})`)
    reveal()
  })
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (url === window.webContents.getURL()) return
    event.preventDefault()
    if (isExternalLink(url)) void shell.openExternal(url)
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())

  void window.loadURL(appUrl)
  return window
}
