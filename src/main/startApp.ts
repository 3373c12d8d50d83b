import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session } from 'electron'
import type { AppInfo, Language, SalvageReport } from '@shared/domain'
import { electronEmbeddings } from './electronEmbeddings'
import { createHandlers } from './ipc/handlers'
import { registerIpc } from './ipc/electronIpc'
import { createRegistry } from './ipc/registry'
import { isTrustedSenderUrl } from './ipc/senderPolicy'
import { createMainWindow } from './mainWindow'
import { isPermissionGranted } from './startup/permissionPolicy'
import { windowIconPath } from './windowIcon'
import { createServices } from './services/createServices'
import type { ServiceOptions } from './services/serviceTypes'
import { workerImportRunner } from './workers/import/workerImportRunner'
import { readLoginShellPath } from './services/tools/loginShellPath'
import type { Publish } from './services/events'
import type { OpenOptions } from './store/database'
import { QUICK_CHECK_AT_OPEN_MAX_BYTES } from './store/integrity'
import { DIALOG_TEXT } from './startup/dialogText'
import {
  CorruptionWatch,
  describeSalvage,
  openStoreInteractively,
  salvageInPlace,
  salvageInProcess,
  saveSalvageNotice,
  takeSalvageNotice,
  type RecoveryDialogs,
  type Salvager
} from './storeRecovery'
import { backupsDirFor } from './services/backup/backupFiles'
import { backupBeforeMigration } from './services/backup/preMigrationBackup'
import type { RestoreCheck } from './store/restoreCheck'
import type { Cipher } from './services/providers/secretStore'
import { closeSearchWorkers, startSearchWorkers } from './workers/search/searchWorkerClient'

/** How long after the window opens the provider SDK's request code is warmed (providerWarmUp.ts). */
const PROVIDER_WARM_UP_DELAY_MS = 3_000

/**
 * Everything after the bootstrap (index.ts): open the store, wire the services and IPC, open
 * the window. Loaded by index.ts only once Electron is ready, so that any error here, even a
 * module that fails to load, reaches the start-up guard's dialog.
 */

/** Tests and power users can point the app at another database file. */
const databasePath =
  process.env.CONTEXT_LENS_DB_PATH ?? join(app.getPath('userData'), 'context-lens.sqlite')

const appUrl =
  !app.isPackaged && process.env.ELECTRON_RENDERER_URL
    ? process.env.ELECTRON_RENDERER_URL
    : pathToFileURL(join(__dirname, '../renderer/index.html')).toString()

/**
 * In development node_modules holds better-sqlite3 built for Node (the tests need it), so
 * scripts/electron-native.mjs keeps an Electron build aside. Packaged apps are rebuilt in place.
 */
function electronNativeBinding(): string | undefined {
  if (app.isPackaged) return undefined
  const path = join(
    app.getAppPath(),
    '.cache/electron-native',
    `${process.versions.electron}-${process.platform}-${process.arch}`,
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node'
  )
  return existsSync(path) ? path : undefined
}

/**
 * API keys are encrypted with the OS keychain (Keychain, DPAPI, libsecret/kwallet). On Linux
 * without a keyring Electron falls back to `basic_text`, a hard-coded password: that is not
 * encryption, so it counts as unavailable and keys are refused.
 */
const safeStorageCipher: Cipher = {
  isAvailable() {
    if (!safeStorage.isEncryptionAvailable()) return false
    return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'
  },
  encrypt: (plaintext) => safeStorage.encryptString(plaintext),
  decrypt: (ciphertext) => safeStorage.decryptString(ciphertext)
}

const recoveryDialogs = (language: Language): RecoveryDialogs => ({
  language,
  ask: ({ type, message, detail, buttons }) =>
    dialog.showMessageBoxSync({
      type,
      title: 'Context Lens',
      message,
      detail,
      buttons,
      defaultId: 0,
      cancelId: buttons.length - 1
    })
})

/** Salvage in a worker thread, so the main process keeps answering while it runs. */
/**
 * Import and export choose their files with the system dialogs, here in main: the page never
 * names a path. Imports run in a worker thread on their own connection.
 */
function historyOptions(storeOptions: OpenOptions): ServiceOptions['history'] {
  const focused = () => BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
  const workerPath = join(__dirname, 'importWorker.js')
  return {
    pickImportFile: async () => {
      const window = focused()
      const options: Electron.OpenDialogOptions = {
        properties: ['openFile'],
        filters: [{ name: 'JSON', extensions: ['json'] }]
      }
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options)
      return result.canceled ? null : (result.filePaths[0] ?? null)
    },
    pickExportFile: async (suggestedName) => {
      const window = focused()
      const options: Electron.SaveDialogOptions = {
        defaultPath: join(app.getPath('documents'), suggestedName)
      }
      const result = window
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
    ...(existsSync(workerPath) && {
      runImport: workerImportRunner({
        workerPath,
        databasePath,
        ...(storeOptions.nativeBinding && { nativeBinding: storeOptions.nativeBinding })
      })
    })
  }
}

function salvager(storeOptions: OpenOptions): Salvager {
  const workerPath = join(__dirname, 'salvageWorker.js')
  if (!existsSync(workerPath)) return salvageInProcess(storeOptions)
  return (backupPath, targetPath) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(workerPath, {
        workerData: { backupPath, targetPath, options: storeOptions }
      })
      worker.once('message', (answer: { report?: SalvageReport; error?: string }) =>
        answer.report ? resolve(answer.report) : reject(new Error(answer.error))
      )
      worker.once('error', reject)
    })
}

/** A restore candidate's integrity_check in a worker thread, when the worker is built. */
function restoreChecker(
  storeOptions: OpenOptions
): ((path: string) => Promise<RestoreCheck>) | undefined {
  const workerPath = join(__dirname, 'restoreCheckWorker.js')
  if (!existsSync(workerPath)) return undefined
  return (path) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(workerPath, {
        workerData: { path, nativeBinding: storeOptions.nativeBinding }
      })
      worker.once('message', resolve)
      worker.once('error', reject)
    })
}

/** `language`: the system's (index.ts), for the dialogs shown before the store is open. */
export async function start(language: Language): Promise<void> {
  const storeOptions: OpenOptions = { nativeBinding: electronNativeBinding() }
  const store = await openStoreInteractively(
    databasePath,
    // Kept out of storeOptions: the salvage worker receives those, and a function cannot cross.
    { ...storeOptions, beforeMigrate: backupBeforeMigration(backupsDirFor(databasePath)) },
    recoveryDialogs(language),
    salvager(storeOptions)
  )
  if (!store) {
    app.quit()
    return
  }
  // Which keyring holds API keys: `basic_text` means none (keys are refused; see index.ts).
  if (process.platform === 'linux') {
    console.info(`[keys] safeStorage backend: ${safeStorage.getSelectedStorageBackend()}`)
  }
  // A salvage done while the app last ran is reported once more, in the window.
  const earlier = store.salvage ? null : takeSalvageNotice(databasePath)
  session.defaultSession.setPermissionRequestHandler((_contents, permission, grant, details) =>
    grant(isPermissionGranted(permission, details.requestingUrl, appUrl))
  )
  session.defaultSession.setPermissionCheckHandler((contents, permission, _origin, details) =>
    isPermissionGranted(permission, details.requestingUrl ?? contents?.getURL(), appUrl)
  )

  const info: AppInfo = {
    version: app.getVersion(),
    systemLocale: app.getLocale(),
    databasePath,
    recoveredFromBackup: store.recoveredFrom ?? earlier?.backupPath ?? null,
    salvage: store.salvage ?? earlier?.report ?? null
  }
  const publish: Publish = (event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(event, payload)
  }
  // Memory search's nearest messages and full-text lists, each on its own thread and connection.
  const searchWorkersPath = join(__dirname, 'searchWorker.js')
  const searchWorkers = existsSync(searchWorkersPath)
    ? startSearchWorkers(searchWorkersPath, {
        databasePath,
        ...(storeOptions.nativeBinding && { nativeBinding: storeOptions.nativeBinding })
      })
    : null
  // Set below; a corrupt page met by any call or background job starts the recovery.
  let corruption: CorruptionWatch | null = null
  const logService = (message: string, error: unknown) => {
    console.error(`[services] ${message}`, error)
    corruption?.report(error)
  }
  const services = createServices({
    db: store.db,
    info,
    publish,
    embeddings: electronEmbeddings(join(__dirname, 'embeddingWorker.js')),
    cipher: safeStorageCipher,
    fileWorkerPath: existsSync(join(__dirname, 'fileWorker.js'))
      ? join(__dirname, 'fileWorker.js')
      : null,
    ...(searchWorkers && { searchWorkers }),
    pickFiles: async () => {
      const window = BrowserWindow.getFocusedWindow()
      const options: Electron.OpenDialogOptions = {
        properties: ['openFile', 'multiSelections']
      }
      const picked = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options)
      return picked.canceled ? null : picked.filePaths
    },
    history: historyOptions(storeOptions),
    // Read once, in the background: the first MCP server to start waits for it (5 s at most).
    loginShellPath: readLoginShellPath(),
    backup: {
      nativeBinding: storeOptions.nativeBinding,
      check: restoreChecker(storeOptions),
      pickFile: async () => {
        const locale = services.settings.get().locale
        const zh = (locale === 'system' ? app.getLocale() : locale).startsWith('zh')
        const picked = await dialog.showOpenDialog({
          title: zh ? '从备份恢复对话' : 'Restore conversations from a backup',
          properties: ['openFile'],
          filters: [
            {
              name: zh ? 'Context Lens 数据库' : 'Context Lens database',
              extensions: ['sqlite', 'db']
            }
          ]
        })
        return picked.canceled ? null : (picked.filePaths[0] ?? null)
      },
      // The checked file goes in with the store closed; the app then starts again on it. The
      // relaunch waits a moment so the renderer receives the answer first.
      reopen: async (swap) => {
        await shutDown()
        try {
          swap()
        } finally {
          // On the restored file, or, if the swap failed, on the current one, which was put back.
          setTimeout(() => {
            app.relaunch()
            app.exit(0)
          }, 300)
        }
      }
    },
    log: logService
  })
  services.memoryModel.start()
  void services.tools.startEnabled()
  // MCP servers are children of this process: none may outlive it, however it ends.
  process.once('exit', () => services.tools.killAll())
  const registry = createRegistry(createHandlers(services), (channel, error) => {
    console.error(`[ipc] ${channel} failed`, error)
    corruption?.report(error)
  })
  registerIpc(ipcMain, registry, (event) => isTrustedSenderUrl(event.senderFrame?.url, appUrl))

  const icon = windowIconPath(app.getAppPath(), process.platform)
  const preload = join(__dirname, '../preload/index.js')
  createMainWindow(appUrl, preload, icon)
  // Once the page has made its first calls: the first kind's warm-up compiles for 70-100 ms in
  // one piece on this thread, which the window's first IPC should not wait behind.
  setTimeout(() => void services.providers.warmUp(logService), PROVIDER_WARM_UP_DELAY_MS).unref()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow(appUrl, preload, icon)
  })
  let closing = false
  // The indexer may be writing a batch: stop it and the worker before closing the store.
  const shutDown = async (): Promise<void> => {
    closing = true
    try {
      for (const thread of services.threads.list()) services.chat.stop(thread.id)
    } catch (error) {
      console.error('[store] listing threads at quit failed', error) // a damaged store
    }
    await services.tools.stopAll().catch((error: unknown) => console.error('[tools]', error))
    await services.history
      .stop()
      .then(() => services.chat.settled())
      .then(() => services.summaries.settled())
      .then(() => services.memoryExtraction.settled())
      .then(() => services.memoryModel.stop())
      .then(() => searchWorkers && closeSearchWorkers(searchWorkers))
      .catch((error: unknown) => console.error('[memory] stopping failed', error))
    store.db.close()
  }
  app.on('will-quit', (event) => {
    if (closing) return
    event.preventDefault()
    void shutDown().finally(() => app.quit())
  })
  corruption = new CorruptionWatch(databasePath, (backupPath) => {
    void recoverWhileRunning(backupPath, storeOptions, shutDown, language)
  })
  checkIntegrityAfterShow(corruption, storeOptions)
}

/**
 * The same recovery as at open, for damage found while the app runs: the user chooses, the
 * store is closed, salvaged from the backup just taken, and the app restarts on the new file.
 * The dialogs speak the system's language like those at open: the saved setting lives in the
 * damaged store.
 */
async function recoverWhileRunning(
  backupPath: string,
  storeOptions: OpenOptions,
  shutDown: () => Promise<void>,
  language: Language
): Promise<void> {
  const text = DIALOG_TEXT[language]
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: 'Context Lens',
    message: text.titles.corrupt,
    detail: text.damagedWhileRunning(databasePath, backupPath),
    buttons: [text.choices.recover, text.choices.quit],
    defaultId: 0,
    cancelId: 1
  })
  await shutDown()
  if (response !== 0) {
    app.quit()
    return
  }
  const report = await salvageInPlace(databasePath, backupPath, salvager(storeOptions))
  saveSalvageNotice(databasePath, backupPath, report)
  recoveryDialogs(language).ask({
    type: 'info',
    message: text.recoveryFinishedRestart,
    detail: describeSalvage(report, backupPath, language),
    buttons: [text.choices.continue]
  })
  app.relaunch()
  app.exit(0)
}

/**
 * Large stores skip the check at open (store/integrity.ts); they are checked here, on a
 * read-only connection in a worker thread, once the window is up.
 */
function checkIntegrityAfterShow(corruption: CorruptionWatch, storeOptions: OpenOptions): void {
  if (statSync(databasePath).size <= QUICK_CHECK_AT_OPEN_MAX_BYTES) return
  const workerPath = join(__dirname, 'integrityWorker.js')
  if (!existsSync(workerPath)) return
  const worker = new Worker(workerPath, {
    workerData: { path: databasePath, nativeBinding: storeOptions.nativeBinding }
  })
  worker.once('message', ({ problems }: { problems: string[] }) => {
    if (problems.length === 0) return
    console.error('[store] integrity check failed', problems)
    corruption.report(Object.assign(new Error(problems.join('; ')), { code: 'SQLITE_CORRUPT' }))
  })
  worker.once('error', (error) => console.error('[store] integrity check could not run', error))
}
