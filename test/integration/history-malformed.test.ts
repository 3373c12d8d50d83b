import { createReadStream, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { importHistory } from '../../src/main/workers/import/importHistory'
import { openDatabase } from '../../src/main/store/database'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const FIXTURES = resolve(import.meta.dirname, '../fixtures/history')

/** Each imported thread by its import key: title, lineage and every message. */
function contents(db: Database.Database): Map<string, unknown> {
  const rows = db
    .prepare(
      `SELECT k.key, t.title, t.forked_from_seq AS forkSeq,
              (SELECT json_group_array(json_array(m.seq, m.role, m.content, m.created_at))
                 FROM (SELECT * FROM messages WHERE thread_id = t.id ORDER BY seq) m) AS messages
         FROM import_keys k JOIN threads t ON t.id = k.thread_id`
    )
    .all() as { key: string }[]
  return new Map(rows.map((row) => [row.key, row]))
}

const ERROR_NAMING_THE_PLACE =
  /^(conversation \d+|This is not an export file|The file ends|Unexpected text after)/

async function importBytes(dir: string, name: string, bytes: Buffer) {
  const file = join(dir, name)
  writeFileSync(file, bytes)
  const db = openDatabase(join(dir, `${name}.sqlite`))
  // Batched as the worker and the CLI commit: every conversation in its own savepoint.
  const summary = await importHistory(db, createReadStream(file, { highWaterMark: 256 }), {
    withBranches: true,
    batchMs: name.startsWith('bad') ? 60_000 : 0
  })
  return { db, summary }
}

describe.each(['chatgpt-conversations.json', 'claude-conversations.json'])(
  'a damaged %s',
  (fixture) => {
    const original = readFileSync(join(FIXTURES, fixture))

    it('cut short at many points: a clear error, and every thread stored is whole', async () => {
      const dir = tempDir()
      const complete = await importBytes(dir, 'complete.json', original)
      expect(complete.summary.error).toBeNull()
      const reference = contents(complete.db)
      let cuts = 0
      for (let at = 1; at < original.length - 1; at += Math.ceil(original.length / 60)) {
        const { db, summary } = await importBytes(dir, `cut-${at}.json`, original.subarray(0, at))
        expect(summary.error, `cut at byte ${at}`).toMatch(ERROR_NAMING_THE_PLACE)
        for (const [key, thread] of contents(db)) expect(thread).toEqual(reference.get(key))
        expect(contents(db).size).toBeLessThan(reference.size)
        db.close()
        cuts++
      }
      expect(cuts).toBeGreaterThanOrEqual(50)
    })

    it('corrupted at many points: a clear error naming the conversation, nothing half-written', async () => {
      const dir = tempDir()
      const complete = await importBytes(dir, 'complete.json', original)
      const reference = contents(complete.db)
      for (let at = 0; at < original.length; at += Math.ceil(original.length / 60)) {
        const bytes = Buffer.from(original)
        bytes[at] = 0x01 // a control character is invalid anywhere in JSON text
        const { db, summary } = await importBytes(dir, `bad-${at}.json`, bytes)
        expect(summary.error, `byte ${at} corrupted`).toMatch(ERROR_NAMING_THE_PLACE)
        for (const [key, thread] of contents(db)) expect(thread).toEqual(reference.get(key))
        db.close()
      }
    })
  }
)
