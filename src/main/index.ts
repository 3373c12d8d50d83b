/**
 * The Electron entry: only what must happen before `ready` and the guarantee that a failed
 * start is seen. Everything else is in startApp.ts, loaded once Electron is ready so that any
 * error on the way (a native module built for another ABI, a missing sqlite-vec, an unwritable
 * data folder) ends in the start-up guard's dialog and an exit instead of a hidden, stuck
 * process holding the single-instance lock.
 */
import { app, BrowserWindow, dialog } from 'electron'
import { languageOf } from './startup/dialogText'
import { choosePasswordStore, secretServiceOnSessionBus } from './startup/linuxPasswordStore'
import { revealWindow } from './startup/revealWindow'
import { startupGuard } from './startup/startupGuard'

// A run from source keeps its own data: a dev build must never migrate the installed app's
// database to a schema the installed version cannot read.
if (!app.isPackaged) app.setPath('userData', `${app.getPath('userData')}-dev`)

const passwordStore = choosePasswordStore({
  platform: process.platform,
  env: process.env,
  argv: process.argv,
  secretServiceAvailable: secretServiceOnSessionBus
})
if (passwordStore) app.commandLine.appendSwitch('password-store', passwordStore)

/**
 * The language of the dialogs shown before the store is open (start-up failures, recovery):
 * the saved setting is in the store, so the system's. getLocale is what the renderer follows
 * for "system"; it is empty before `ready` on Linux, hence the preferred languages behind it.
 */
const systemLanguage = () => languageOf(app.getLocale() || app.getPreferredSystemLanguages()[0])

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  const guard = startupGuard({
    showError: (title, content) => dialog.showErrorBox(title, content),
    exit: (code) => {
      app.releaseSingleInstanceLock()
      app.exit(code)
    },
    log: (message, error) => console.error(message, error),
    language: systemLanguage
  })
  app.on('second-instance', () => revealWindow(BrowserWindow.getAllWindows()[0]))
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app
    .whenReady()
    .then(() => import('./startApp'))
    .then(({ start }) => start(systemLanguage()))
    .then(() => guard.windowUp())
    .catch((error: unknown) => guard.fail(error))
}
