import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { DatabaseOpenError, openDatabase } from '../../src/main/store/database'
import type { Language } from '@shared/domain'
import { LATEST_VERSION } from '../../src/main/store/migrations'
import { DIALOG_TEXT, type DialogText } from '../../src/main/startup/dialogText'
import { CHOICES, openStoreInteractively, type RecoveryDialogs } from '../../src/main/storeRecovery'
import { bundleStoreChild, childEnv } from '../support/bundleStoreChild'
import { servicesIn } from '../support/services'
import {
  leafPages,
  overwrite,
  populatedStore,
  registryOver,
  storedMessages,
  unwrap,
  zeroPage,
  type PopulatedStore
} from '../support/storeFiles'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

type Choice = keyof DialogText['choices']

/**
 * Plays the user on a system in `language`: records every dialog and answers each with the
 * button of the next choice in `answers` (Quit when none is left).
 */
function scriptedDialogs(answers: Choice[], language: Language = 'en') {
  const asked: { message: string; detail: string; buttons: string[] }[] = []
  const labels = DIALOG_TEXT[language].choices
  const dialogs: RecoveryDialogs = {
    language,
    ask: ({ message, detail, buttons }) => {
      asked.push({ message, detail, buttons })
      const answer = labels[answers.shift() ?? 'quit']
      const index = buttons.indexOf(answer)
      if (index < 0) throw new Error(`"${answer}" was not offered: ${buttons.join(', ')}`)
      return index
    }
  }
  return { asked, dialogs }
}

function openError(path: string): DatabaseOpenError {
  try {
    openDatabase(path).close()
  } catch (error) {
    if (error instanceof DatabaseOpenError) return error
    throw error
  }
  throw new Error('the damaged file opened without complaint')
}

/**
 * The user's path through a damaged file: the dialog offers recovery, salvage runs, the app
 * opens the new file. Asserts what must always hold: nothing salvaged differs from what was
 * written, and every message not salvaged is accounted for in the report.
 */
async function recoverAndCheck(store: PopulatedStore) {
  const damaged = readFileSync(store.path)
  const { asked, dialogs } = scriptedDialogs(['recover', 'continue'])
  const opened = await openStoreInteractively(store.path, {}, dialogs)
  expect(opened).not.toBeNull()
  opened?.db.close()
  expect(asked[0]).toMatchObject({
    message: 'Your conversations file is damaged.',
    buttons: [CHOICES.recover, CHOICES.quit]
  })
  const backupPath = opened?.recoveredFrom as string
  expect(readFileSync(backupPath)).toEqual(damaged) // the original stays, byte for byte
  expect(asked[0]?.detail).toContain(backupPath)
  const report = opened?.salvage
  if (!report) throw new Error('no salvage report')

  const salvaged = storedMessages(store.path)
  for (const [id, content] of salvaged) expect(store.messages.get(id)).toBe(content)
  const messages = report.tables.find((t) => t.table === 'messages')
  const lost = store.messages.size - salvaged.size
  if (!report.schemaReadable) {
    // Part of the table list itself is gone: SQLite cannot read any table, and the user is told.
    expect(salvaged.size).toBe(0)
    expect(asked[1]?.detail).toMatch(/Nothing could be read from the damaged file/)
  } else if (lost > 0) {
    expect(messages?.copied).toBe(salvaged.size)
    expect(
      (messages?.unreadable ?? 0) + (messages?.invalid ?? 0) >= lost || messages?.unknownLoss
    ).toBe(true)
    expect(asked[1]?.detail).toMatch(/Could not be read: .*message/)
  }
  expect(asked[1]?.detail).toContain(`kept unchanged at ${backupPath}`)

  const db = new Database(store.path)
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
  expect(db.pragma('foreign_key_check')).toEqual([])
  // Search and embeddings are rebuilt from the salvaged rows, not copied.
  for (const [id, content] of [...salvaged].slice(0, 5)) {
    const hits = db
      .prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?')
      .pluck()
      .all(`"${content.slice(0, 14)}"`) as number[]
    expect(hits).toContain(id)
  }
  expect(
    db.prepare("SELECT count(*) FROM embedding_queue WHERE kind = 'message'").pluck().get()
  ).toBe(salvaged.size)
  db.close()
  return { report, salvaged, asked }
}

describe('corruption matrix: what the user sees and what is saved', () => {
  it('finds zeroed pages in the middle of the messages at open and salvages every other message', async () => {
    const store = await populatedStore(tempDir())
    const { pages, pageSize } = leafPages(store.path, 'messages')
    expect(pages.length).toBeGreaterThan(10)
    zeroPage(store.path, pages[Math.floor(pages.length / 2)] as number, pageSize)
    zeroPage(store.path, pages[Math.floor(pages.length / 3)] as number, pageSize)

    expect(openError(store.path).kind).toBe('corrupt')
    const { report, salvaged } = await recoverAndCheck(store)
    const messages = report.tables.find((t) => t.table === 'messages')
    // Exactly the rows of the two zeroed pages are missing, and the report says how many.
    expect(salvaged.size).toBeGreaterThan(store.messages.size / 2)
    expect(messages?.unreadable).toBe(store.messages.size - salvaged.size)
    expect(messages?.unreadable).toBeGreaterThan(0)
    expect(report.tables.find((t) => t.table === 'threads')?.copied).toBe(3)
    expect(report.tables.find((t) => t.table === 'memories')?.copied).toBe(3)
    expect(report.tables.find((t) => t.table === 'settings')?.copied).toBeGreaterThan(0)
  })

  it('recovers everything from a file whose header was overwritten', async () => {
    const store = await populatedStore(tempDir(), 20)
    // An MCP server the user added (migration 13) comes back with everything else.
    const server = {
      id: '7d3c1f0e-1111-4a2b-9c3d-000000000013',
      name: 'files',
      enabled: 1,
      config: JSON.stringify({
        kind: 'stdio',
        command: 'node',
        args: ['s.js'],
        env: {},
        cwd: null
      }),
      created_at: 1
    }
    const writer = new Database(store.path)
    writer
      .prepare('INSERT INTO mcp_servers VALUES (@id, @name, @enabled, @config, @created_at)')
      .run(server)
    writer.close()
    overwrite(store.path, 0, Buffer.from('garbage garbage!'))
    expect(openError(store.path).kind).toBe('corrupt')
    const { report, salvaged } = await recoverAndCheck(store)
    expect(report.headerRepaired).toBe(true)
    expect(salvaged.size).toBe(store.messages.size)
    expect(report.tables.find((t) => t.table === 'mcp_servers')?.copied).toBe(1)
    const reader = new Database(store.path, { readonly: true })
    expect(reader.prepare('SELECT * FROM mcp_servers').all()).toEqual([server])
    reader.close()
    // The sidebar's per-thread bars come back with the builds they are derived from.
    const db = new Database(store.path, { readonly: true })
    const stats = db
      .prepare(
        `SELECT s.build_id, s.stats, json_extract(b.built, '$.tokenStats') AS built
           FROM thread_build_stats s JOIN context_builds b ON b.id = s.build_id`
      )
      .all() as { build_id: number; stats: string; built: string }[]
    db.close()
    expect(stats).toHaveLength(store.threadIds.length)
    for (const row of stats) expect(JSON.parse(row.stats)).toEqual(JSON.parse(row.built))
  })

  it.each([0.3, 0.6, 0.95])(
    'accounts for every message of a file truncated at %s of its length',
    async (fraction) => {
      const store = await populatedStore(tempDir(), 40)
      const size = statSync(store.path).size
      truncateSync(store.path, Math.floor(size * fraction) - 100) // not on a page boundary
      expect(openError(store.path).kind).toBe('corrupt')
      await recoverAndCheck(store)
    }
  )

  it('says plainly when nothing could be read, and still never discards the original', async () => {
    const dir = tempDir()
    const path = join(dir, 'store.sqlite')
    const garbage = Buffer.from('not a database at all '.repeat(500))
    writeFileSync(path, garbage)
    const { asked, dialogs } = scriptedDialogs(['recover', 'continue'])
    const opened = await openStoreInteractively(path, {}, dialogs)
    opened?.db.close()
    expect(opened?.salvage?.schemaReadable).toBe(false)
    expect(asked[1]?.detail).toMatch(/Nothing could be read/)
    expect(readFileSync(opened?.recoveredFrom as string)).toEqual(garbage)
  })

  it('treats a 0-byte file as lost data, not as a new store, and replaces it only when asked', async () => {
    const dir = tempDir()
    const path = join(dir, 'store.sqlite')
    writeFileSync(path, '')
    const error = openError(path)
    expect(error.kind).toBe('empty')
    expect(error.message).toMatch(/empty file \(0 bytes\)/)

    const quit = scriptedDialogs(['quit'])
    expect(await openStoreInteractively(path, {}, quit.dialogs)).toBeNull()
    expect(quit.asked[0]?.buttons).toEqual([CHOICES.startEmpty, CHOICES.retry, CHOICES.quit])
    expect(statSync(path).size).toBe(0) // untouched

    const fresh = scriptedDialogs(['startEmpty'])
    const opened = await openStoreInteractively(path, {}, fresh.dialogs)
    expect(opened?.db.prepare('SELECT count(*) FROM threads').pluck().get()).toBe(0)
    opened?.db.close()
  })

  it('a file that cannot be opened and one from a newer app: each says why and offers Quit', async () => {
    const dir = tempDir()
    const folder = join(dir, 'a-directory') // SQLite cannot open a folder: SQLITE_CANTOPEN
    mkdirSync(folder)
    const future = join(dir, 'future.sqlite')
    const db = new Database(future)
    db.pragma(`user_version = ${LATEST_VERSION + 1}`)
    db.close()

    const unreadable = scriptedDialogs(['quit'])
    expect(await openStoreInteractively(folder, {}, unreadable.dialogs)).toBeNull()
    expect(unreadable.asked[0]).toMatchObject({
      message: 'Your conversations could not be opened.',
      buttons: [CHOICES.retry, CHOICES.quit]
    })
    expect(unreadable.asked[0]?.detail).toMatch(
      /cannot be opened \(.+\)\. Check that the file exists/
    )
    const tooNew = scriptedDialogs(['quit'])
    expect(await openStoreInteractively(future, {}, tooNew.dialogs)).toBeNull()
    expect(tooNew.asked[0]).toEqual({
      message: 'Your conversations were saved by a newer version of Context Lens.',
      detail: `This database was written by a newer version of the app (schema ${LATEST_VERSION + 1}, this app knows ${LATEST_VERSION}). Update the app to open it.`,
      buttons: [CHOICES.quit]
    })
  })

  it('speaks Chinese on a Chinese system, with the same facts: damaged, recovered, empty, unreadable, too new', async () => {
    const zh = DIALOG_TEXT['zh-CN'].choices
    const store = await populatedStore(tempDir(), 20)
    overwrite(store.path, 0, Buffer.from('garbage garbage!'))
    const damaged = scriptedDialogs(['recover', 'continue'], 'zh-CN')
    const opened = await openStoreInteractively(store.path, {}, damaged.dialogs)
    opened?.db.close()
    const backupPath = opened?.recoveredFrom as string
    expect(damaged.asked[0]).toMatchObject({
      message: '你的对话文件已损坏。',
      buttons: ['恢复仍可读取的内容', '退出']
    })
    // SQLite's own words stay as they are; the sentence around them is Chinese.
    expect(damaged.asked[0]?.detail).toBe(
      `位于 ${store.path} 的对话数据库已损坏，无法读取（file is not a database）。已将它的副本保存到 ${backupPath}。`
    )
    expect(damaged.asked[1]).toMatchObject({ message: '恢复完成。', buttons: [zh.continue] })
    expect(damaged.asked[1]?.detail.split('\n')).toEqual([
      expect.stringMatching(/^已恢复：3 个对话、\d+ 条消息、.*3 条记忆/),
      '所有内容都已读取。',
      '搜索和记忆召回会在后台重建。',
      `损坏的文件原样保留在 ${backupPath}。`
    ])

    const empty = join(tempDir(), 'empty.sqlite')
    writeFileSync(empty, '')
    const emptyAsked = scriptedDialogs(['quit'], 'zh-CN')
    expect(await openStoreInteractively(empty, {}, emptyAsked.dialogs)).toBeNull()
    expect(emptyAsked.asked[0]).toMatchObject({
      message: '你的对话文件是空的。',
      buttons: ['使用空数据库开始', '重试', '退出']
    })
    expect(emptyAsked.asked[0]?.detail).toMatch(
      new RegExp(`^位于 ${empty} 的对话数据库是一个空文件（0 字节）`)
    )

    const folder = join(tempDir(), 'a-directory')
    mkdirSync(folder)
    const unreadable = scriptedDialogs(['quit'], 'zh-CN')
    expect(await openStoreInteractively(folder, {}, unreadable.dialogs)).toBeNull()
    expect(unreadable.asked[0]).toMatchObject({
      message: '无法打开你的对话。',
      buttons: [zh.retry, zh.quit]
    })
    expect(unreadable.asked[0]?.detail).toMatch(
      new RegExp(`^无法打开位于 ${folder} 的对话数据库（.+）。请确认这个文件存在`)
    )

    const future = join(tempDir(), 'future.sqlite')
    const db = new Database(future)
    db.pragma(`user_version = ${LATEST_VERSION + 1}`)
    db.close()
    const tooNew = scriptedDialogs(['quit'], 'zh-CN')
    expect(await openStoreInteractively(future, {}, tooNew.dialogs)).toBeNull()
    expect(tooNew.asked[0]).toEqual({
      message: '你的对话是由更新版本的 Context Lens 保存的。',
      detail: `这个数据库是由更新版本的应用写入的（数据库版本 ${LATEST_VERSION + 1}，本应用最高支持 ${LATEST_VERSION}）。请更新应用后再打开。`,
      buttons: [zh.quit]
    })
  })

  it('refuses a write on a full disk with "the disk is full", keeping everything written before', async () => {
    const test = servicesIn(tempDir())
    const registry = registryOver(test)
    const thread = unwrap<{ id: string }>(
      await registry.invoke('threads:create', { title: 'Full' })
    )
    // The file may not grow past its current size: SQLite answers SQLITE_FULL, as on a full disk.
    const pages = test.db.pragma('page_count', { simple: true }) as number
    test.db.pragma(`max_page_count = ${pages + 2}`)
    const written: string[] = []
    let failure: unknown = null
    for (let i = 0; i < 200 && !failure; i++) {
      const content = `note ${i} ` + 'x'.repeat(2000)
      const result = await registry.invoke('messages:send', { threadId: thread.id, content })
      if (result.ok) written.push(content)
      else failure = result.error
    }
    expect(failure).toMatchObject({
      code: 'storage_full',
      message: expect.stringMatching(/^The disk is full/)
    })
    expect(written.length).toBeGreaterThan(0)
    const listed = unwrap<{ messages: { content: string }[] }>(
      await registry.invoke('messages:list', { threadId: thread.id, limit: 500 })
    )
    expect(listed.messages.map((m) => m.content)).toEqual(written)
    expect(test.db.pragma('integrity_check', { simple: true })).toBe('ok')
    test.db.close()
  })

  it('answers a call that meets a damaged page at run time with storage_corrupt, not "nothing was lost"', async () => {
    const dir = tempDir()
    const store = await populatedStore(dir)
    const { pages, pageSize } = leafPages(store.path, 'messages')
    zeroPage(store.path, pages[Math.floor(pages.length / 2)] as number, pageSize)
    // As if the file were too large to check at open: the damage is met by a call instead.
    const test = servicesIn(dir, Date.now, undefined, { open: { quickCheckMaxBytes: 0 } })
    const faults: unknown[] = []
    const registry = registryOver(test, (_channel, error) => faults.push(error))
    const results = await Promise.all(
      store.threadIds.map((threadId) => registry.invoke('messages:list', { threadId }))
    )
    const failed = results.find((r) => !r.ok)
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'storage_corrupt', message: expect.stringMatching(/damaged/) }
    })
    expect(JSON.stringify(failed)).not.toMatch(/Nothing you wrote/)
    expect(faults.some((e) => (e as { code?: string }).code?.startsWith('SQLITE_CORRUPT'))).toBe(
      true
    )
    test.db.close()
  })
})

/**
 * Permissions do not bind root, so the store is opened by a child process running as
 * `nobody`, exactly as the app would open it.
 */
describe.runIf(process.getuid?.() === 0)('corruption matrix: read-only files and folders', () => {
  let child = ''
  beforeAll(async () => {
    child = await bundleStoreChild()
  })

  async function readOnlyCase(lockFolder: boolean, language: Language = 'en') {
    const dir = tempDir()
    chmodSync(dir, 0o755)
    const store = await populatedStore(join(dir, 'data'))
    const folder = join(dir, 'data')
    chownSync(store.path, 65534, 65534)
    chmodSync(store.path, lockFolder ? 0o644 : 0o444)
    if (!lockFolder) chownSync(folder, 65534, 65534)
    chmodSync(folder, 0o755)
    const before = readFileSync(store.path)
    const out = execFileSync(process.execPath, [child, 'open', store.path, language], {
      uid: 65534,
      gid: 65534,
      env: childEnv
    }).toString()
    expect(readFileSync(store.path)).toEqual(before)
    return JSON.parse(out) as {
      opened: boolean
      asked: { message: string; detail: string; buttons: string[] }[]
    }
  }

  it('explains a read-only file and offers to try again or quit', async () => {
    const result = await readOnlyCase(false)
    expect(result.opened).toBe(false)
    expect(result.asked[0]).toMatchObject({
      message: 'Your conversations file cannot be written.',
      buttons: [CHOICES.retry, CHOICES.quit]
    })
    expect(result.asked[0]?.detail).toMatch(
      /is read-only .*both the file and its folder must be writable/
    )
  })

  it('explains a read-only folder the same way', async () => {
    const result = await readOnlyCase(true)
    expect(result.opened).toBe(false)
    expect(result.asked[0]?.message).toBe('Your conversations file cannot be written.')
    expect(result.asked[0]?.detail).toMatch(/read-only/)
  })

  it('explains a read-only file in Chinese on a Chinese system', async () => {
    const result = await readOnlyCase(false, 'zh-CN')
    expect(result.opened).toBe(false)
    expect(result.asked[0]).toMatchObject({
      message: '你的对话文件无法写入。',
      buttons: ['重试', '退出']
    })
    expect(result.asked[0]?.detail).toMatch(
      /的对话数据库是只读的（没有写入这个文件的权限）。.*文件和它所在的文件夹都必须可写/
    )
  })
})
