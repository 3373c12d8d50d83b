import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { endpoints } from '@shared/contract'

/** Electron is replaced at the edge only: everything behind ipcMain is the real app. */
const electron = await vi.hoisted(async () => {
  const { fakeElectron } = await import('../support/fakeElectron')
  return fakeElectron({ locale: 'zh-CN' })
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
