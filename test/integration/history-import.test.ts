import { createReadStream, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PERCENTAGES } from '@shared/contextConfig'
import type { Message, ThreadListItem } from '@shared/domain'
import { ContextConfigService } from '../../src/main/services/contextBuilds/contextConfigService'
import { importHistory } from '../../src/main/workers/import/importHistory'
import { openDatabase } from '../../src/main/store/database'
import { LATEST_VERSION } from '../../src/main/store/migrations'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { SearchRepository } from '../../src/main/store/search/searchRepository'
import { SettingsRepository } from '../../src/main/store/settingsRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const FIXTURES = resolve(import.meta.dirname, '../fixtures/history')
export const CHATGPT_FIXTURE = join(FIXTURES, 'chatgpt-conversations.json')
export const CLAUDE_FIXTURE = join(FIXTURES, 'claude-conversations.json')

const T = 1714550400_000

function store(): Database.Database {
  return openDatabase(join(tempDir(), 'store.sqlite'))
}

const importFile = (db: Database.Database, path: string, withBranches = false) =>
  importHistory(db, createReadStream(path, { highWaterMark: 64 }), { withBranches })

function threadsOf(db: Database.Database): (ThreadListItem & { messages: Message[] })[] {
  const messages = new MessageRepository(db)
  return new ThreadRepository(db)
    .list()
    .map((thread) => ({ ...thread, messages: messages.listByThread(thread.id) }))
    .sort((a, b) => a.createdAt - b.createdAt || a.title.localeCompare(b.title))
}

const lineage = (db: Database.Database, id: string) =>
  db
    .prepare(
      'SELECT forked_from_thread_id AS thread, forked_from_seq AS seq FROM threads WHERE id = ?'
    )
    .get(id) as { thread: string | null; seq: number | null }

describe('importing a ChatGPT export', () => {
  it('follows the active branch, keeps titles, times and roles, and counts what it skipped', async () => {
    const db = store()
    const summary = await importFile(db, CHATGPT_FIXTURE)
    expect(summary).toMatchObject({
      format: 'chatgpt',
      threads: 2,
      messages: 6,
      forks: 0,
      placeholders: 2,
      error: null,
      cancelled: false
    })
    // Empty root nodes and the empty reply; the system prompt and custom instructions; hidden
    // reasoning; the code-interpreter call and its output; the abandoned edit and regeneration.
    expect(summary.skipped).toEqual({ empty: 3, system: 2, hidden: 1, tool: 2, branch: 3 })

    const [kyoto, python] = threadsOf(db)
    expect(kyoto?.title).toBe('京都旅行 Kyoto trip')
    expect(kyoto?.createdAt).toBe(T)
    expect(kyoto?.updatedAt).toBe(T + 600_000)
    expect(kyoto?.messages.map((m) => [m.seq, m.role, m.content, m.createdAt])).toEqual([
      [1, 'user', '帮我规划京都三日游 🏯', T + 10_000],
      [
        2,
        'assistant',
        '第一天：伏见稻荷大社，清晨人少。\n第二天：岚山竹林。\n第三天：金阁寺。',
        T + 20_000
      ],
      [3, 'user', 'What about Nara? 🦌', T + 50_000],
      [
        4,
        'assistant',
        'Nara is 45 minutes from Kyoto on the Kintetsu line. 奈良的鹿很可爱。',
        T + 60_000
      ]
    ])
    expect(kyoto?.messages.every((m) => m.tokenCount > 0)).toBe(true)
    expect(python?.title).toBe('Sorting a dict in Python')
    expect(python?.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(python?.messages[0]?.content).toBe(
      "How do I sort a dict by value? Here is my code:\n\n```python\nd = {'b': 2, 'a': 1}\n```\n\n[image: screenshot.png]\n\n[attachment: data.csv]"
    )
    expect(python?.messages[1]?.content).toContain('```python\nsorted(d.items()')
  })

  it('brings abandoned branches in as forks of the conversation when asked, never flattened', async () => {
    const db = store()
    const summary = await importFile(db, CHATGPT_FIXTURE, true)
    expect(summary).toMatchObject({ threads: 4, forks: 2, messages: 14, error: null })
    expect(summary.skipped.branch).toBeUndefined()
    const threads = threadsOf(db)
    const main = threads.find((t) => t.title === '京都旅行 Kyoto trip')!
    expect(main.messages).toHaveLength(4)
    const forks = threads.filter((t) => t.title.startsWith('京都旅行 Kyoto trip · '))
    expect(forks).toHaveLength(2)
    const osaka = forks.find((f) => f.messages.some((m) => m.content.includes('Osaka')))!
    // The fork holds its own copy of the history up to where it diverged, then its branch.
    expect(osaka.messages.map((m) => m.content.slice(0, 12))).toEqual([
      '帮我规划京都三日游 🏯',
      '第一天：伏见稻荷大社，清',
      'What about O',
      'Osaka is 15 '
    ])
    expect(lineage(db, osaka.id)).toEqual({ thread: main.id, seq: 2 })
    const regenerated = forks.find((f) => f.messages.some((m) => m.content.includes('JR Nara')))!
    expect(regenerated.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant'
    ])
    expect(lineage(db, regenerated.id)).toEqual({ thread: main.id, seq: 3 })
    expect(threads.find((t) => t.title === 'Sorting a dict in Python')!.messages).toHaveLength(2)
  })

  it('is idempotent: the same file twice adds nothing, branches included', async () => {
    const db = store()
    await importFile(db, CHATGPT_FIXTURE, true)
    const before = threadsOf(db)
    const again = await importFile(db, CHATGPT_FIXTURE, true)
    expect(again).toMatchObject({ threads: 0, messages: 0, forks: 0, error: null })
    expect(again.skipped.already_imported).toBe(4)
    expect(threadsOf(db)).toEqual(before)
    // Without branches after with them: still nothing new.
    expect(await importFile(db, CHATGPT_FIXTURE)).toMatchObject({ threads: 0, messages: 0 })
  })

  it('indexes imported messages for full-text search at once, in Chinese and in English, and queues them for embedding', async () => {
    const db = store()
    await importFile(db, CHATGPT_FIXTURE)
    const search = new SearchRepository(db)
    expect(search.search('伏见稻荷', 10).map((h) => h.snippet)).toEqual([
      expect.stringContaining('伏见稻荷大社')
    ])
    expect(search.search('Kintetsu', 10)).toHaveLength(1)
    const queued = db
      .prepare("SELECT count(*) FROM embedding_queue WHERE kind = 'message'")
      .pluck()
      .get()
    expect(queued).toBe(6)
  })
})

describe('importing a Claude export', () => {
  it('keeps the conversation, names attachments as placeholders, skips empty and tool-only content', async () => {
    const db = store()
    const summary = await importFile(db, CLAUDE_FIXTURE)
    expect(summary).toMatchObject({
      format: 'claude',
      threads: 2,
      messages: 6,
      placeholders: 2,
      error: null
    })
    expect(summary.skipped).toEqual({ tool: 1, empty: 1 })
    const [rust, untitled] = threadsOf(db)
    expect(rust?.title).toBe('学习 Rust 所有权 🦀')
    expect(rust?.createdAt).toBe(Date.parse('2024-06-01T09:00:00Z'))
    expect(rust?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(rust?.messages[1]?.content).toContain('```rust\nlet s = String::from("hi");')
    expect(rust?.messages[2]?.content).toBe(
      'Thanks! Here is my borrow checker error 😅\n\n[attachment: error.txt]\n\n[attachment: diagram.png]'
    )
    expect(rust?.messages[2]?.createdAt).toBe(Date.parse('2024-06-01T09:02:00Z'))
    expect(untitled?.title).toBe('Imported conversation')
    expect(await importFile(db, CLAUDE_FIXTURE)).toMatchObject({ threads: 0, messages: 0 })
  })
})

describe('malformed input', () => {
  it('names the conversation and the field, and keeps the conversations before it whole', async () => {
    const db = store()
    const file = join(tempDir(), 'bad.json')
    const conversations = JSON.parse(readFileSync(CHATGPT_FIXTURE, 'utf8')) as Record<
      string,
      unknown
    >[]
    const broken = structuredClone(conversations[1]!) as {
      mapping: Record<string, { message: { content: { parts: unknown } } }>
    }
    broken.mapping.a3!.message.content.parts = 'not a list'
    writeFileSync(file, JSON.stringify([conversations[0], broken]))
    const summary = await importFile(db, file)
    expect(summary.error).toBe(
      'conversation 2 ("Sorting a dict in Python"): mapping.a3.message.content.parts should be a list, found "not a list"'
    )
    expect(summary.threads).toBe(1)
    expect(threadsOf(db).map((t) => [t.title, t.messages.length])).toEqual([
      ['京都旅行 Kyoto trip', 4]
    ])
  })

  it.each([
    ['its own transaction', 0],
    ['a savepoint inside a batch', 60_000]
  ])(
    'rolls a conversation back whole when the store refuses part of it (a repeated seq), in %s',
    async (_, batchMs) => {
      const db = store()
      const file = join(tempDir(), 'own.json')
      const message = (seq: number, content: string) => ({
        id: seq,
        seq,
        role: 'user',
        content,
        toolCalls: null,
        toolCallId: null,
        tokenCount: 1,
        createdAt: T,
        pinned: false,
        excluded: false
      })
      const thread = (id: string, title: string, messages: unknown[]) => ({
        type: 'thread',
        id,
        title,
        createdAt: T,
        updatedAt: T,
        settings: {},
        forkedFrom: null,
        summary: null,
        messages
      })
      writeFileSync(
        file,
        JSON.stringify([
          { format: 'context-lens', version: 1 },
          thread('00000000-0000-4000-8000-000000000001', 'Fine', [message(1, 'one')]),
          thread('00000000-0000-4000-8000-000000000002', 'Broken', [
            message(1, 'first'),
            message(1, 'same seq again')
          ])
        ])
      )
      const summary = await importHistory(db, createReadStream(file), { batchMs })
      expect(summary.error).toMatch(
        /^conversation 2 \("Broken"\): messages cannot be stored: UNIQUE/
      )
      expect(threadsOf(db).map((t) => [t.title, t.messages.length])).toEqual([['Fine', 1]])
      expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(1)
      expect(db.prepare('SELECT count(*) FROM import_keys').pluck().get()).toBe(1)
    }
  )

  it('refuses a file in no known format, naming what it expected', async () => {
    const db = store()
    const file = join(tempDir(), 'other.json')
    writeFileSync(file, JSON.stringify([{ messages: [] }]))
    const summary = await importFile(db, file)
    expect(summary.error).toMatch(/conversation 1: the format is not one this app reads/)
    expect(threadsOf(db)).toEqual([])
  })
})

describe('importing our own export', () => {
  const THREAD_ID = '00000000-0000-4000-8000-00000000000a'
  const exportFile = (header: object, percentages: Record<string, number>) => {
    const file = join(tempDir(), 'own.json')
    writeFileSync(
      file,
      JSON.stringify([
        { format: 'context-lens', version: 1, ...header },
        {
          type: 'thread',
          id: THREAD_ID,
          title: 'Budgeted',
          createdAt: T,
          updatedAt: T,
          settings: { context: { percentages } },
          forkedFrom: null,
          summary: null,
          messages: []
        }
      ])
    )
    return file
  }
  const budgetOf = (db: Database.Database) =>
    new ContextConfigService({
      threads: new ThreadRepository(db),
      settings: new SettingsRepository(db)
    }).get(THREAD_ID).effective.percentages

  it('reads a thread budget saved before the 15/40 split with the 10 % retrieved share it was checked against', async () => {
    const db = store()
    // Saved when the defaults were retrieved 10 / recent 45; under today's 15 it would add up
    // to 105 % and refuse every build of the thread.
    const summary = await importFile(db, exportFile({ schema: 20 }, { recent: 45 }))
    expect(summary).toMatchObject({ threads: 1, error: null })
    expect(budgetOf(db)).toMatchObject({ retrieved: 10, recent: 45 })
  })

  it('reads a budget from before the header named its schema as the oldest: one saved before the attachments and tools sections gives them what its shares leave', async () => {
    const db = store()
    const shares = { system: 15, summary: 10, retrieved: 10, recent: 60, input: 5 }
    await importFile(db, exportFile({}, shares))
    expect(budgetOf(db)).toEqual({ ...shares, attachments: 0, tools: 0 })
  })

  it("reads a budget saved at this app's schema as it is", async () => {
    const db = store()
    await importFile(db, exportFile({ schema: LATEST_VERSION }, { recent: 35 }))
    expect(budgetOf(db)).toMatchObject({ retrieved: DEFAULT_PERCENTAGES.retrieved, recent: 35 })
  })
})
