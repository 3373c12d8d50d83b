import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session } from 'electron'
import type Database from 'better-sqlite3'
import type { AppInfo } from '@shared/domain'
import { createHandlers } from './ipc/handlers'
import { registerIpc } from './ipc/electronIpc'
import { createRegistry } from './ipc/registry'
import { isTrustedSenderUrl } from './ipc/senderPolicy'
import { createMainWindow } from './mainWindow'
import { windowIconPath } from './windowIcon'
import { createServices } from './services/createServices'
import type { Publish } from './services/events'
import { DatabaseOpenError, openDatabase, type OpenOptions } from './store/database'
import { discardDamagedDatabase } from './store/recovery'
import type { EmbedderFactory } from './services/memoryModels'
import type { Cipher } from './services/providers/secretStore'
import { EmbeddingClient } from './workers/embeddingClient'
import { locateModel } from './workers/modelLocation'

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
 * The embedding model runs in a worker thread (out/main/embeddingWorker.js). Where the model
 * is read from: see workers/modelLocation.ts. Without one, memory recall uses full text only.
 */
const embeddings: EmbedderFactory = (settings) => {
  const userModels = join(app.getPath('userData'), 'models')
  const located = locateModel({
    settings,
    envFolder: process.env.CONTEXT_LENS_MODELS_DIR,
    resourcesFolder: app.isPackaged ? join(process.resourcesPath, 'models') : undefined,
    userModels
  })
  if (!located) return null
  const workerPath = join(__dirname, 'embeddingWorker.js')
  if (!existsSync(workerPath)) return null
  console.info(`[memory] embedding model ${located.spec.id} from ${located.origin}`)
  const embedder = new EmbeddingClient({ workerPath, spec: located.spec, source: located.source })
  return { embedder, spec: located.spec }
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

/** Never resets silently: the user sees what happened and chooses. */
function openStore(
  storeOptions: OpenOptions
): { db: Database.Database; recoveredFrom: string | null } | null {
  try {
    return { db: openDatabase(databasePath, storeOptions), recoveredFrom: null }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const canStartFresh = error instanceof DatabaseOpenError && error.backupPath !== null
    const choice = dialog.showMessageBoxSync({
      type: 'error',
      title: 'Context Lens',
      message: 'Your conversations could not be opened.',
      detail: message,
      buttons: canStartFresh ? ['Quit', 'Start with an empty database'] : ['Quit'],
      defaultId: 0,
      cancelId: 0
    })
    if (choice !== 1 || !(error instanceof DatabaseOpenError) || !error.backupPath) return null
    discardDamagedDatabase(databasePath, error.backupPath)
    return { db: openDatabase(databasePath, storeOptions), recoveredFrom: error.backupPath }
  }
}

function start(): void {
  const store = openStore({ nativeBinding: electronNativeBinding() })
  if (!store) {
    app.quit()
    return
  }
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, grant) =>
    grant(false)
  )

  const info: AppInfo = {
    version: app.getVersion(),
    systemLocale: app.getLocale(),
    databasePath,
    recoveredFromBackup: store.recoveredFrom
  }
  const publish: Publish = (event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(event, payload)
  }
  const services = createServices({
    db: store.db,
    info,
    publish,
    embeddings,
    cipher: safeStorageCipher
  })
  services.memoryModel.start()
  const registry = createRegistry(createHandlers(services), (channel, error) =>
    console.error(`[ipc] ${channel} failed`, error)
  )
  registerIpc(ipcMain, registry, (event) => isTrustedSenderUrl(event.senderFrame?.url, appUrl))

  const icon = windowIconPath(app.getAppPath(), process.platform)
  createMainWindow(appUrl, icon)
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow(appUrl, icon)
  })
  let closing = false
  app.on('will-quit', (event) => {
    if (closing) return
    // The indexer may be writing a batch: stop it and the worker before closing the store.
    closing = true
    event.preventDefault()
    for (const thread of services.threads.list()) services.chat.stop(thread.id)
    void services.chat
      .settled()
      .then(() => services.summaries.settled())
      .then(() => services.memoryExtraction.settled())
      .then(() => services.memoryModel.stop())
      .catch((error: unknown) => console.error('[memory] stopping failed', error))
      .finally(() => {
        store.db.close()
        app.quit()
      })
  })
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus())
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  void app.whenReady().then(start)
}
