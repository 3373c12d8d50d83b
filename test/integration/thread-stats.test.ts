import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import {
  withEverySection,
  type BuiltContext,
  type StoredBuild,
  type TokenStats
} from '@shared/context'
import { BuildRepository } from '../../src/main/store/buildRepository'
import { openDatabase } from '../../src/main/store/database'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { migrate } from '../../src/main/store/migrations'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { servicesIn, steppingClock } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

const reply = (cost: number | null, usage = true) => ({
  providerId: 'p',
  modelId: 'gpt-4o',
  status: 'complete' as const,
  usage: usage
    ? { promptTokens: 100, completionTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 }
    : null,
  cost,
  estimatedPromptTokens: 100,
  finishReason: 'stop' as const,
  supersededBy: null
})

describe('the thread list carries each thread’s stats (one batched query)', () => {
  it('gives every thread its newest stored build’s tokenStats, its replies’ cost and its summary time', async () => {
    const { services, db, published } = servicesIn(tempDir(), steppingClock())
    const busy = services.threads.create('Busy')
    const quiet = services.threads.create('Quiet')
    const fresh = services.threads.create('Fresh')
    await services.chat.send(busy.id, 'first question about the CSV import')
    await services.chat.send(busy.id, 'a second, much longer question '.repeat(40))
    await services.chat.send(quiet.id, '你好')
    const builds = published
      .filter((p) => p.event === 'context:built')
      .map((p) => p.payload as StoredBuild)
    const newestBusy = builds.filter((b) => b.threadId === busy.id).at(-1)!
    const quietBuild = builds.find((b) => b.threadId === quiet.id)!

    const messages = new MessageRepository(db)
    const at = { role: 'assistant' as const, tokenCount: 5, createdAt: 1 }
    messages.appendReply({ threadId: busy.id, content: 'a', ...at }, reply(0.0125))
    messages.appendReply({ threadId: busy.id, content: 'b', ...at }, reply(0.5))
    messages.appendReply({ threadId: busy.id, content: 'c', ...at }, reply(null))
    messages.appendReply({ threadId: quiet.id, content: 'd', ...at }, reply(null, false))
    services.summaries.update(busy.id, 'The user imports a CSV.')

    const byId = new Map(services.threads.list().map((t) => [t.id, t.stats]))
    expect(byId.get(busy.id)).toEqual({
      lastBuild: {
        buildId: newestBusy.id,
        createdAt: newestBusy.createdAt,
        tokenStats: newestBusy.context.tokenStats
      },
      cost: 0.5125,
      unpricedReplies: 1,
      summaryUpdatedAt: services.summaries.get(busy.id)!.updatedAt
    })
    // The numbers are the stored build's, section by section, not a recount.
    expect(byId.get(busy.id)!.lastBuild!.tokenStats.sections.input.used).toBe(
      newestBusy.context.tokenStats.sections.input.used
    )
    expect(byId.get(quiet.id)).toEqual({
      lastBuild: {
        buildId: quietBuild.id,
        createdAt: quietBuild.createdAt,
        tokenStats: quietBuild.context.tokenStats
      },
      cost: null,
      unpricedReplies: 0,
      summaryUpdatedAt: null
    })
    expect(byId.get(fresh.id)).toEqual({
      lastBuild: null,
      cost: null,
      unpricedReplies: 0,
      summaryUpdatedAt: null
    })
  })

  it('reads 1,000 threads in one statement without parsing whole builds', () => {
    const db = openDatabase(join(tempDir(), 'store.sqlite'))
    const insertThread = db.prepare(
      'INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)'
    )
    const builds = new BuildRepository(db, 20)
    // A build's JSON holds the payload and the trace; the stats are a few hundred bytes.
    const messages = [{ role: 'user', content: 'x'.repeat(20_000) }]
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) {
        const id = `t${String(i).padStart(4, '0')}`
        insertThread.run(id, id, i, i)
        for (const total of [i, i + 1]) {
          const tokenStats = { total, budget: 2000 } as TokenStats
          const context = { messages, tokenStats } as unknown as BuiltContext
          builds.add({ threadId: id, messageId: null, createdAt: total, context })
        }
      }
    })()
    const statements: string[] = []
    const traced = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'prepare') {
          return (sql: string) => {
            statements.push(sql)
            return target.prepare(sql)
          }
        }
        return Reflect.get(target, key, receiver) as unknown
      }
    })
    const list = new ThreadRepository(traced).list()
    expect(statements).toHaveLength(1)
    expect(list).toHaveLength(1000)
    // Newest build per thread: the second one, whose total is i + 1.
    expect(list.find((t) => t.id === 't0042')!.stats.lastBuild!.tokenStats.total).toBe(43)
    expect(list.every((t) => t.stats.lastBuild !== null)).toBe(true)
    db.close()
  })

  it('fills the stats of the newest build of each thread stored before the table existed', () => {
    const path = join(tempDir(), 'store.sqlite')
    const old = new Database(path)
    migrate(old, 7)
    old
      .prepare("INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', 'x', 1, 1)")
      .run()
    const insert = old.prepare(
      "INSERT INTO context_builds (thread_id, created_at, built) VALUES ('t1', ?, ?)"
    )
    insert.run(4, JSON.stringify({ messages: [], tokenStats: { total: 1 } }))
    const tokenStats = { total: 321, budget: 1000, sections: {} }
    insert.run(5, JSON.stringify({ messages: [], tokenStats }))
    old.close()

    const db = openDatabase(path)
    const [thread] = new ThreadRepository(db).list()
    // Sections added since (attachments, tools) read as empty.
    expect(thread!.stats.lastBuild).toEqual({
      buildId: 2,
      createdAt: 5,
      tokenStats: { ...tokenStats, sections: withEverySection({}) }
    })
    db.close()
  })
})
