import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { endpoints } from '@shared/contract'
import type { IpcResult } from '@shared/result'

/** Electron is replaced at the edge only: everything behind ipcMain is the real app. */
const electron = vi.hoisted(() => {
  type Handler = (event: unknown, input: unknown) => Promise<IpcResult<unknown>>
  const handlers = new Map<string, Handler>()
  const windows: { url: string; icon?: string; webPreferences: Record<string, unknown> }[] = []
  let ready!: () => void
  const readyPromise = new Promise<void>((resolve) => (ready = resolve))
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
        getLocale: () => 'zh-CN',
        requestSingleInstanceLock: () => true,
        on: () => {},
        quit: vi.fn(),
        exit: vi.fn(),
        whenReady: () => readyPromise
      },
      BrowserWindow,
      ipcMain: { handle: (channel: string, fn: Handler) => handlers.set(channel, fn) },
      dialog: { showMessageBoxSync: vi.fn(() => 0), showErrorBox: vi.fn() },
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
})
vi.mock('electron', () => electron.module)

const dir = mkdtempSync(join(tmpdir(), 'context-lens-entry-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the Electron entry', () => {
  it('opens the store, wires every contract channel to the real registry and opens a locked-down window', async () => {
    process.env.CONTEXT_LENS_DB_PATH = join(dir, 'app.sqlite')
    await import('../../src/main/index')
    electron.ready()
    await vi.waitFor(() => {
      expect(electron.module.dialog.showErrorBox).not.toHaveBeenCalled()
      expect(electron.windows).toHaveLength(1)
      // The bootstrap loads the rest of the app once Electron is ready: that takes a moment.
    }, 20_000)

    expect([...electron.handlers.keys()].sort()).toEqual(
      endpoints()
        .map((e) => e.channel)
        .sort()
    )
    const [window] = electron.windows
    expect(window?.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true
    })
    // The app folder's icon (tmpdir() is the mocked app path); macOS uses the bundle's.
    expect(window?.icon).toBe(
      process.platform === 'darwin' ? undefined : join(tmpdir(), 'resources/icons/256x256.png')
    )

    const trusted = { senderFrame: { url: window?.url } }
    const create = electron.handlers.get('threads:create')
    const created = await create?.(trusted, { title: 'From Electron' })
    expect(created).toMatchObject({ ok: true, data: { title: 'From Electron' } })
    const info = await electron.handlers.get('app:info')?.(trusted, undefined)
    expect(info).toMatchObject({
      ok: true,
      data: { databasePath: join(dir, 'app.sqlite'), systemLocale: 'zh-CN' }
    })

    const foreign = { senderFrame: { url: 'https://evil.example/' } }
    expect(await electron.handlers.get('threads:list')?.(foreign, undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' }
    })
    expect(
      await electron.handlers.get('threads:list')?.({ senderFrame: null }, undefined)
    ).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' }
    })
  })
})
