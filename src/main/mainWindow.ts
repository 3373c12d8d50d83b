import { join } from 'node:path'
import { BrowserWindow, shell } from 'electron'

/** Links the user clicks in messages open in their browser; nothing else leaves the app. */
export function isExternalLink(url: string): boolean {
  return /^(https?|mailto):/i.test(url)
}

export function createMainWindow(appUrl: string, icon?: string): BrowserWindow {
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
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false
    }
  })

  window.once('ready-to-show', () => window.show())
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
