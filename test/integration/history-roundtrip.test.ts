import { createReadStream, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { exportHistory } from '../../src/main/services/history/exportHistory'
import { importHistory } from '../../src/main/workers/import/importHistory'
import { openDatabase } from '../../src/main/store/database'
import { contentHash, MemoryRepository } from '../../src/main/store/memoryRepository'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { SummaryRepository } from '../../src/main/store/summaryRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

const text = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom('你好，世界 🌏', '```ts\nconst a = "]"\n```', 'line\nbreak \\ "quote"', '😀🦀')
)

const threadArb = fc.record({
  title: text,
  messages: fc.array(
    fc.record({
      role: fc.constantFrom('user', 'assistant', 'system', 'tool'),
      content: text,
      pinned: fc.boolean(),
      excluded: fc.boolean(),
      withReply: fc.boolean()
    }),
    { maxLength: 6 }
  ),
  summary: fc.option(fc.record({ content: text, versions: fc.integer({ min: 1, max: 3 }) }), {
    nil: null
  }),
  forkOfPrevious: fc.boolean()
})

const memoryArb = fc.record({
  content: fc.string({ minLength: 3, maxLength: 30 }).filter((s) => s.trim().length > 2),
  category: fc.constantFrom('user_preference', 'fact', 'task', 'other'),
  edited: fc.option(
    fc.string({ minLength: 3, maxLength: 30 }).filter((s) => s.trim().length > 2),
    {
      nil: null
    }
  ),
  fromThread: fc.boolean()
})

type ThreadSpec = typeof threadArb extends fc.Arbitrary<infer T> ? T : never
type MemorySpec = typeof memoryArb extends fc.Arbitrary<infer T> ? T : never

/** Fills a database the way the app does: through the repositories. */
function fill(db: Database.Database, threads: ThreadSpec[], memories: MemorySpec[]): void {
  const threadRepo = new ThreadRepository(db)
  const messages = new MessageRepository(db)
  const summaries = new SummaryRepository(db)
  const memoryRepo = new MemoryRepository(db)
  let clock = 1_700_000_000_000
  const ids: string[] = []
  const sources: { threadId: string; messageId: number }[] = []
  threads.forEach((spec, i) => {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    threadRepo.create({ id, title: spec.title, now: ++clock, settings: { autoTitle: i % 2 === 0 } })
    const origin = ids[ids.length - 1]
    if (spec.forkOfPrevious && origin) {
      db.prepare(
        'UPDATE threads SET forked_from_thread_id = ?, forked_from_seq = 1 WHERE id = ?'
      ).run(origin, id)
    }
    ids.push(id)
    let previousReply: number | null = null
    for (const m of spec.messages) {
      const base = {
        threadId: id,
        role: m.role,
        content: m.content,
        tokenCount: m.content.length,
        createdAt: ++clock
      }
      const stored =
        m.withReply && m.role === 'assistant'
          ? messages.appendReply(base, {
              providerId: 'p',
              modelId: 'gpt-4o',
              status: 'complete',
              usage: {
                promptTokens: 10,
                completionTokens: 2,
                cacheReadTokens: 0,
                cacheWriteTokens: 0
              },
              cost: 0.001,
              estimatedPromptTokens: 9,
              finishReason: 'stop',
              supersededBy: null
            })
          : messages.append(base)
      if (stored.role === 'assistant' && m.withReply && previousReply !== null)
        messages.supersede(previousReply, stored.id)
      if (stored.role === 'assistant' && m.withReply) previousReply = stored.id
      messages.setFlags(stored.id, { pinned: m.pinned, ...(m.excluded && { excluded: true }) })
      sources.push({ threadId: id, messageId: stored.id })
    }
    if (spec.summary) {
      for (let v = 0; v < spec.summary.versions; v++)
        summaries.put(
          id,
          { content: `${spec.summary.content} v${v}`, lastMessageSeq: v, source: 'model' },
          ++clock
        )
    }
  })
  const seen = new Set<string>()
  memories.forEach((spec, i) => {
    const source = spec.fromThread ? sources[i % Math.max(1, sources.length)] : undefined
    const key = contentHash(spec.content)
    if (seen.has(key)) return
    seen.add(key)
    const memory = memoryRepo.insert({
      content: spec.content,
      category: spec.category,
      sourceThreadId: source?.threadId ?? null,
      sourceMessageId: source?.messageId ?? null,
      now: ++clock,
      reason: 'user'
    })
    const editKey = spec.edited === null ? null : contentHash(spec.edited)
    if (spec.edited && editKey && !seen.has(editKey)) {
      seen.add(editKey)
      memoryRepo.update(memory.id, { content: spec.edited }, ++clock, 'user_edit')
    }
  })
}

/** Everything a user would notice, with row ids replaced by where they point. */
function snapshot(db: Database.Database) {
  const where = (id: number | null) =>
    id === null
      ? null
      : (db.prepare('SELECT thread_id, seq FROM messages WHERE id = ?').get(id) ?? 'gone')
  const threads = db.prepare('SELECT * FROM threads ORDER BY id').all()
  const messages = (
    db.prepare('SELECT * FROM messages ORDER BY thread_id, seq').all() as { id: number }[]
  ).map(({ id, ...m }) => ({ ...m, at: where(id) }))
  const usage = (
    db.prepare('SELECT * FROM message_usage').all() as {
      message_id: number
      superseded_by: number | null
    }[]
  )
    .map(({ message_id, superseded_by, ...u }) => ({
      ...u,
      message: where(message_id),
      supersededBy: where(superseded_by)
    }))
    .sort((a, b) => JSON.stringify(a.message).localeCompare(JSON.stringify(b.message)))
  const summaries = db.prepare('SELECT * FROM thread_summaries ORDER BY thread_id').all()
  const memories = (
    db.prepare('SELECT * FROM memories ORDER BY content_hash').all() as {
      id: number
      source_message_id: number | null
    }[]
  ).map(({ id, source_message_id, ...m }) => ({
    ...m,
    source: where(source_message_id),
    history: (
      db.prepare('SELECT * FROM memory_history WHERE memory_id = ? ORDER BY id').all(id) as {
        id: number
        memory_id: number
        source_message_id: number | null
      }[]
    ).map(({ id: _id, memory_id: _m, source_message_id: s, ...h }) => ({ ...h, source: where(s) }))
  }))
  return { threads, messages, usage, summaries, memories }
}

async function roundTrip(source: Database.Database, dir: string): Promise<Database.Database> {
  const file = join(dir, 'export.json')
  await exportHistory(source, file, { format: 'json' })
  const target = openDatabase(join(dir, 'fresh.sqlite'))
  const summary = await importHistory(target, createReadStream(file, { highWaterMark: 97 }))
  expect(summary.error).toBeNull()
  return target
}

describe('JSON export, then import into a fresh database', () => {
  it('gives back the same threads, messages, flags, replies, summaries, memories and lineage (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(threadArb, { maxLength: 4 }),
        fc.array(memoryArb, { maxLength: 4 }),
        async (threads, memories) => {
          const dir = tempDir()
          const source = openDatabase(join(dir, 'source.sqlite'))
          fill(source, threads, memories)
          const target = await roundTrip(source, dir)
          expect(snapshot(target)).toEqual(snapshot(source))
          // And again into the same database: nothing is added.
          const again = await importHistory(target, createReadStream(join(dir, 'export.json')))
          expect(again).toMatchObject({ threads: 0, messages: 0, memories: 0, error: null })
          expect(snapshot(target)).toEqual(snapshot(source))
          source.close()
          target.close()
        }
      ),
      { numRuns: 25 }
    )
  })

  it('writes readable Markdown with dates, roles, flags and, when asked, the request that was sent', async () => {
    const dir = tempDir()
    const db = openDatabase(join(dir, 'source.sqlite'))
    fill(
      db,
      [
        {
          title: 'Trip 旅行',
          messages: [
            {
              role: 'user',
              content: '去哪里玩？',
              pinned: true,
              excluded: false,
              withReply: false
            },
            {
              role: 'assistant',
              content: 'Try Kyoto.',
              pinned: false,
              excluded: true,
              withReply: true
            }
          ],
          summary: null,
          forkOfPrevious: false
        }
      ],
      []
    )
    const threadId = (db.prepare('SELECT id FROM threads').pluck().get() as string) ?? ''
    const userId = db.prepare("SELECT id FROM messages WHERE role = 'user'").pluck().get() as number
    db.prepare(
      'INSERT INTO context_builds (thread_id, message_id, created_at, built) VALUES (?, ?, ?, ?)'
    ).run(
      threadId,
      userId,
      1,
      JSON.stringify({ messages: [{ role: 'user', content: 'SENT: 去哪里玩？' }] })
    )
    const file = join(dir, 'out.md')
    await exportHistory(db, file, { format: 'md', withRequests: true })
    const markdown = readFileSync(file, 'utf8')
    expect(markdown).toContain('# Trip 旅行')
    expect(markdown).toContain('*Created 2023-11-14 22:13 UTC*')
    expect(markdown).toMatch(/## User · 2023-11-14 22:13 UTC \(pinned\)\n\n去哪里玩？/)
    expect(markdown).toMatch(/## Assistant · .* \(excluded from requests\)\n\nTry Kyoto\./)
    expect(markdown).toContain('"content": "SENT: 去哪里玩？"')
    const plain = join(dir, 'plain.md')
    await exportHistory(db, plain, { format: 'md', locale: 'zh-CN' })
    const chinese = readFileSync(plain, 'utf8')
    expect(chinese).toContain('## 用户 · ')
    expect(chinese).not.toContain('SENT:')
  })
})
