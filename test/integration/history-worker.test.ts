import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { writeSyntheticExport } from '../../scripts/bench/syntheticExport'
import { workerImportRunner } from '../../src/main/workers/import/workerImportRunner'
import { openDatabase } from '../../src/main/store/database'
import { prepareImportWorker } from '../support/embeddings'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
let workerPath = ''

// The worker entry bundled the way electron-vite emits out/main/importWorker.js.
beforeAll(async () => {
  workerPath = await prepareImportWorker()
}, 120_000)

describe('the import worker', () => {
  it('imports on its own connection while main keeps writing on its own, with progress', async () => {
    const dir = tempDir()
    const file = join(dir, 'conversations.json')
    writeSyntheticExport(file, { conversations: 200, messagesPerConversation: 10 })
    const databasePath = join(dir, 'store.sqlite')
    const db = openDatabase(databasePath)
    db.prepare(
      "INSERT INTO threads (id, title, created_at, updated_at) VALUES ('chat', 'chat', 1, 1)"
    ).run()
    const progress: number[] = []
    let written = 0
    const writer = setInterval(() => {
      db.prepare(
        "INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES ('chat', ?, 'user', 'hi', 1, 1)"
      ).run(++written)
    }, 20)
    const summary = await workerImportRunner({ workerPath, databasePath })(
      { path: file, withBranches: true },
      { progress: (counts) => progress.push(counts.conversations), cancelled: () => false }
    )
    clearInterval(writer)
    expect(summary).toMatchObject({ format: 'chatgpt', threads: 240, forks: 40, error: null })
    expect(progress.at(-1)).toBe(200)
    const count = (sql: string) => db.prepare(sql).pluck().get() as number
    expect(count("SELECT count(*) FROM messages WHERE thread_id <> 'chat'")).toBe(summary.messages)
    expect(count("SELECT count(*) FROM messages WHERE thread_id = 'chat'")).toBe(written)
    db.close()
  })

  it('stops between conversations when cancelled; every thread it wrote is whole', async () => {
    const dir = tempDir()
    const file = join(dir, 'conversations.json')
    writeSyntheticExport(file, { conversations: 3000, messagesPerConversation: 10 })
    const databasePath = join(dir, 'store.sqlite')
    const db = openDatabase(databasePath)
    let cancel = false
    const summary = await workerImportRunner({ workerPath, databasePath })(
      { path: file, withBranches: false },
      {
        progress: (counts) => {
          if (counts.conversations >= 100) cancel = true
        },
        cancelled: () => cancel
      }
    )
    expect(summary.cancelled).toBe(true)
    expect(summary.threads).toBeGreaterThanOrEqual(100)
    expect(summary.threads).toBeLessThan(3000)
    const sizes = db
      .prepare('SELECT count(*) AS n FROM messages GROUP BY thread_id')
      .pluck()
      .all() as number[]
    expect(sizes).toHaveLength(summary.threads)
    expect(new Set(sizes)).toEqual(new Set([10]))
    db.close()
  })
})
