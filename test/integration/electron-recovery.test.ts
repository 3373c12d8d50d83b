import { existsSync, readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { describe, expect, it, vi } from 'vitest'
import type { AppInfo } from '@shared/domain'
import type { IpcResult } from '@shared/result'
import { leafPages, populatedStore, storedMessages, zeroPage } from '../support/storeFiles'
import { useTempDir } from '../support/tempDir'

/** Electron is replaced at the edge only: the dialogs answer as a user would. */
// The first button is the recovery (or Continue) in every dialog these tests meet.
const electron = await vi.hoisted(async () => {
  const { fakeElectron } = await import('../support/fakeElectron')
  return fakeElectron({ locale: 'en-US' })
})
vi.mock('electron', () => electron.module)

const tempDir = useTempDir()

describe('the Electron entry with a damaged store', () => {
  it('salvages at open, then again when a call meets damage at run time, and restarts', async () => {
    const store = await populatedStore(tempDir())
    const { pages, pageSize } = leafPages(store.path, 'messages')
    zeroPage(store.path, pages[Math.floor(pages.length / 2)] as number, pageSize)
    process.env.CONTEXT_LENS_DB_PATH = store.path
    await import('../../src/main/index')
    electron.ready()
    // The bootstrap loads the rest of the app once Electron is ready: that takes a moment.
    await vi.waitFor(() => expect(electron.windows).toHaveLength(1), 20_000)

    // At open: the user was asked, chose recovery, and was told what was saved.
    expect(electron.asked[0]?.buttons).toEqual(['Recover what can be read', 'Quit'])
    expect(electron.asked[1]?.message).toBe('Recovery finished.')
    expect(electron.asked[1]?.detail).toMatch(/Recovered: 3 conversations, \d+ messages/)
    expect(electron.asked[1]?.detail).toMatch(/Could not be read: \d+ messages/)
    const trusted = { senderFrame: { url: electron.windows[0]?.url } }
    const invoke = (channel: string, input?: unknown) =>
      electron.handlers.get(channel)?.(trusted, input) as Promise<IpcResult<unknown>>
    const info = (await invoke('app:info')) as { ok: true; data: AppInfo }
    expect(info.data.recoveredFromBackup).toMatch(/\.corrupt-/)
    const salvagedMessages = info.data.salvage?.tables.find((t) => t.table === 'messages')
    expect(salvagedMessages?.copied).toBe(storedMessages(store.path).size)
    expect(salvagedMessages?.unreadable).toBe(store.messages.size - (salvagedMessages?.copied ?? 0))

    // At run time: another page goes bad under the running app.
    const other = new Database(store.path)
    other.prepare("INSERT INTO settings (key, value) VALUES ('touch', '1')").run()
    other.pragma('wal_checkpoint(TRUNCATE)')
    other.close()
    const now = leafPages(store.path, 'messages')
    zeroPage(store.path, now.pages[1] as number, now.pageSize)
    const results = await Promise.all(
      store.threadIds.map((threadId) => invoke('messages:list', { threadId }))
    )
    expect(results.find((r) => !r.ok)).toMatchObject({
      ok: false,
      error: { code: 'storage_corrupt' }
    })
    await vi.waitFor(() => expect(electron.module.app.relaunch).toHaveBeenCalled())
    expect(electron.module.app.exit).toHaveBeenCalledWith(0)
    const runtime = electron.asked.find((a) => a.message === 'Your conversations file is damaged.')
    expect(runtime?.buttons).toEqual(['Recover what can be read', 'Quit'])
    expect(electron.asked.at(-1)?.message).toBe('Recovery finished. Context Lens will restart.')

    // The restarted app will show the report; the new file is sound.
    const notice = JSON.parse(readFileSync(`${store.path}.salvage.json`, 'utf8')) as {
      backupPath: string
    }
    expect(existsSync(notice.backupPath)).toBe(true)
    const db = new Database(store.path)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })
})
