import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { DatabaseOpenError, openDatabase } from '../../src/main/store/database'
import { LATEST_VERSION, migrate, schemaVersion } from '../../src/main/store/migrations'
import { discardDamagedDatabase } from '../../src/main/store/recovery'
import { INDEXED_CHARS } from '../../src/main/store/schema/searchIndexBounds'
import { OUTLINE_FLAGS_SQL } from '../../src/main/store/schema/messageOutlineIndex'
import { MessageOutlines } from '../../src/main/store/messageOutline'
import { SearchRepository } from '../../src/main/store/search/searchRepository'
import { resolveContextConfig } from '@shared/contextConfig'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/** A store file at an old schema version, filled by `fill` (SQL of that version). */
function storeWith(version: number, fill: (old: Database.Database) => void): string {
  const path = join(tempDir(), 'store.sqlite')
  const old = new Database(path)
  migrate(old, version)
  fill(old)
  old.close()
  return path
}

/** A thread row with these settings, in a store of any version that has `threads.settings`. */
function insertThread(db: Database.Database, id: string, settings: object): void {
  db.prepare(
    'INSERT INTO threads (id, title, created_at, updated_at, settings) VALUES (?, ?, 1, 1, ?)'
  ).run(id, id, JSON.stringify(settings))
}

/** A store file at an old schema version holding one thread with these messages. */
function storeAt(version: number, title: string, contents: readonly string[]): string {
  return storeWith(version, (old) => {
    old
      .prepare("INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', ?, 1, 1)")
      .run(title)
    const insert = old.prepare(
      "INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES ('t1', ?, 'user', ?, 6, 1)"
    )
    contents.forEach((content, i) => insert.run(i + 1, content))
  })
}

describe('opening the store', () => {
  it('creates every table from an empty file, in WAL mode with foreign keys and sqlite-vec', () => {
    const path = join(tempDir(), 'nested', 'store.sqlite')
    const db = openDatabase(path)
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all() as string[]
    expect(tables).toEqual(
      expect.arrayContaining(['threads', 'messages', 'settings', 'messages_fts', 'threads_fts'])
    )
    expect(db.prepare('SELECT vec_version()').pluck().get()).toMatch(/^v0\.1\./)
    db.close()
  })

  it('upgrades a database from the previous version and indexes what it already held', () => {
    const path = storeAt(7, '旅行计划', ['Book the ferry to Okinawa'])

    const db = openDatabase(path)
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    const hits = new SearchRepository(db).search('ferry', 10)
    expect(hits.map((h) => h.snippet)).toEqual(['Book the ferry to Okinawa'])
    expect(new SearchRepository(db).search('旅行计划', 10)[0]?.threadId).toBe('t1')
    db.close()
  })

  it('indexes a long message by its first 32,000 characters, before and after the upgrade', () => {
    const long = (head: string, tail: string) => `${head} ${'x'.repeat(INDEXED_CHARS)} ${tail}`
    const path = storeAt(18, 'Logs', [long('headbefore', 'tailbefore')])

    const db = openDatabase(path)
    const search = new SearchRepository(db)
    const found = (word: string) => search.search(word, 10).length
    expect([found('headbefore'), found('tailbefore')]).toEqual([1, 0])
    const { lastInsertRowid } = db
      .prepare(
        "INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES ('t1', 2, 'user', ?, 9, 1)"
      )
      .run(long('headafter', 'tailafter'))
    expect([found('headafter'), found('tailafter')]).toEqual([1, 0])
    // Each trigger un-indexes what it indexed: an edit and a deletion leave nothing behind.
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run(
      long('edited', 'x'),
      lastInsertRowid
    )
    expect([found('headafter'), found('edited')]).toEqual([0, 1])
    db.prepare('DELETE FROM messages').run()
    expect([found('edited'), found('headbefore')]).toEqual([0, 0])
    expect(
      db.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')").run()
    ).toBeTruthy()
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })

  it('rolls a failing migration back entirely', () => {
    const db = new Database(join(tempDir(), 'store.sqlite'))
    migrate(db, 1)
    db.exec('CREATE TABLE messages_fts (x)') // makes migration 2 fail halfway through
    expect(() => migrate(db)).toThrow()
    expect(schemaVersion(db)).toBe(1)
    expect(
      db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'threads_fts'").pluck().get()
    ).toBe(0)
    db.close()
  })

  it('refuses a database written by a newer app instead of touching it', () => {
    const path = join(tempDir(), 'store.sqlite')
    const future = new Database(path)
    future.pragma(`user_version = ${LATEST_VERSION + 1}`)
    future.close()
    const error = captureOpenError(path)
    expect(error.kind).toBe('too_new')
    expect(error.message).toMatch(/newer version of the app/)
  })
})

describe('migration 7: empty model replies', () => {
  it("marks empty replies stored as 'complete' as 'empty', keeps every other reply as it was", () => {
    const path = storeWith(6, (old) =>
      old.exec(`
      INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', 'Replies', 1, 1);
      INSERT INTO messages (id, thread_id, seq, role, content, token_count, created_at) VALUES
        (1, 't1', 1, 'user', 'Question', 2, 1),
        (2, 't1', 2, 'assistant', '', 0, 2),
        (3, 't1', 3, 'assistant', 'An answer', 2, 3),
        (4, 't1', 4, 'assistant', 'Half an', 2, 4);
      INSERT INTO message_usage (message_id, model_id, status, finish_reason, prompt_tokens,
        completion_tokens, cost, superseded_by) VALUES
        (2, 'gpt-4o-mini', 'complete', 'stop', 40, 0, 0.5, 3),
        (3, 'gpt-4o-mini', 'complete', 'stop', 40, 2, 0.25, NULL),
        (4, 'gpt-4o-mini', 'stopped', NULL, NULL, NULL, NULL, NULL);
    `)
    )

    const db = openDatabase(path)
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    const rows = db
      .prepare('SELECT message_id, status, prompt_tokens, cost, superseded_by FROM message_usage')
      .all()
    expect(rows).toEqual([
      { message_id: 2, status: 'empty', prompt_tokens: 40, cost: 0.5, superseded_by: 3 },
      { message_id: 3, status: 'complete', prompt_tokens: 40, cost: 0.25, superseded_by: null },
      { message_id: 4, status: 'stopped', prompt_tokens: null, cost: null, superseded_by: null }
    ])
    // The new status is accepted, and deleting a message still removes its usage row.
    db.prepare("UPDATE message_usage SET status = 'empty' WHERE message_id = 3").run()
    db.prepare('DELETE FROM messages WHERE id = 4').run()
    expect(db.prepare('SELECT count(*) FROM message_usage').pluck().get()).toBe(2)
    db.close()
  })
  it('keeps budgets saved before attachments and tools valid, giving the new sections what is left', () => {
    const path = join(tempDir(), 'store.sqlite')
    const old = new Database(path)
    migrate(old, 9)
    const thread = (id: string, settings: object) => insertThread(old, id, settings)
    old
      .prepare("INSERT INTO settings (key, value) VALUES ('context', ?)")
      .run(JSON.stringify({ totalBudget: 8000, percentages: { recent: 50 } }))
    thread('over', { context: { percentages: { recent: 55, system: 15 } } })
    thread('fits', { context: { percentages: { summary: 5 } } })
    thread('plain', { taskState: { goals: [] } })
    old.close()

    const db = openDatabase(path)
    const global = JSON.parse(
      db.prepare("SELECT value FROM settings WHERE key = 'context'").pluck().get() as string
    )
    expect(global).toEqual({
      totalBudget: 8000,
      // retrieved: migration 21's, for a layer that sets the recent share.
      percentages: { recent: 50, attachments: 10, tools: 0, retrieved: 10 }
    })
    const settings = (id: string) =>
      JSON.parse(db.prepare('SELECT settings FROM threads WHERE id = ?').pluck().get(id) as string)
    expect(settings('over').context.percentages).toEqual({
      recent: 55,
      system: 15,
      attachments: 5,
      tools: 0
    })
    expect(settings('fits').context.percentages).toEqual({ summary: 5 })
    expect(settings('plain')).toEqual({ taskState: { goals: [] } })
    for (const id of ['over', 'fits']) {
      const resolved = resolveContextConfig(global, settings(id).context)
      expect(resolved.ok).toBe(true)
    }
    db.close()
  })
})

describe('a damaged database', () => {
  it('is backed up byte for byte and reported clearly, never reset silently', () => {
    const dir = tempDir()
    const path = join(dir, 'store.sqlite')
    const garbage = Buffer.from(
      'this is not a database, just bytes that used to be one'.repeat(100)
    )
    writeFileSync(path, garbage)

    const error = captureOpenError(path)
    expect(error.kind).toBe('corrupt')
    expect(error.message).toMatch(/damaged/)
    expect(error.message).toContain(error.backupPath)
    expect(readFileSync(error.backupPath as string)).toEqual(garbage)
    expect(readFileSync(path)).toEqual(garbage) // the original is left alone until the user decides

    discardDamagedDatabase(path, error.backupPath as string)
    const fresh = openDatabase(path)
    expect(schemaVersion(fresh)).toBe(LATEST_VERSION)
    fresh.close()
    expect(readFileSync(error.backupPath as string)).toEqual(garbage)
  })

  it('reports a path that cannot be opened as unreadable, without a backup', () => {
    const dir = tempDir()
    const path = join(dir, 'a-directory')
    mkdirSync(path)
    const error = captureOpenError(path)
    expect(error.kind).toBe('unreadable')
    expect(error.backupPath).toBeNull()
    expect(error.message).toMatch(/cannot be opened/)
  })

  it('will not discard a database whose backup is missing', () => {
    const path = join(tempDir(), 'store.sqlite')
    writeFileSync(path, 'x')
    expect(() => discardDamagedDatabase(path, path + '.nope')).toThrow(/backup/)
    expect(readFileSync(path, 'utf8')).toBe('x')
  })
})

function captureOpenError(path: string): DatabaseOpenError {
  try {
    openDatabase(path).close()
  } catch (error) {
    if (error instanceof DatabaseOpenError) return error
    throw error
  }
  throw new Error('expected openDatabase to fail')
}

describe('migration 20: the outline index', () => {
  it('upgrades a version 19 store, whatever its messages hold, and reads their outline', () => {
    const path = storeWith(19, (old) =>
      old.exec(`
      INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', 'Parser', 1, 1);
      INSERT INTO messages (thread_id, seq, role, content, tool_calls, token_count, created_at, pinned)
        VALUES ('t1', 1, 'user', 'Refactor the parser', NULL, 4, 1, 1),
               ('t1', 2, 'assistant', '', '[{"id":"c1","name":"read","arguments":"{}"}]', 9, 2, 0),
               ('t1', 3, 'tool', 'file text', NULL, 3, 3, 0),
               ('t1', 4, 'assistant', char(12288, 10), NULL, 1, 4, 0),
               ('t1', 5, 'assistant', 'Done', '{}', 1, 5, 0);
    `)
    )

    const db = openDatabase(path)
    const outline = new MessageOutlines(db).after('t1', 0, 10)
    expect(
      outline.map((m) => [
        m.seq,
        m.role,
        m.tokenCount,
        m.pinned,
        m.content,
        m.toolCalls?.length ?? 0
      ])
    ).toEqual([
      [1, 'user', 4, true, '…', 0],
      [2, 'assistant', 9, false, '', 1],
      [3, 'tool', 3, false, '…', 0],
      [4, 'assistant', 1, false, '', 0], // an ideographic space and a newline: no visible text
      [5, 'assistant', 1, false, '…', 0] // tool calls that are not a list count as none
    ])
    // Read from the index alone: an expression that drifted from the index's would read rows.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT seq, id, token_count, ${OUTLINE_FLAGS_SQL} FROM messages
          WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?`
      )
      .all('t1', 0, 10) as { detail: string }[]
    expect(plan.map((row) => row.detail).join('; ')).toMatch(/COVERING INDEX messages_outline/)
    db.close()
  })
})

describe('migration 21: the retrieved share a saved budget was checked against', () => {
  it('keeps budgets that set the recent share valid and as they resolved, and leaves the rest to the new defaults', () => {
    const path = storeWith(20, (old) => {
      const thread = (id: string, settings: object) => insertThread(old, id, settings)
      // 45 % recent added up to exactly 100 % beside retrieved's old 10 %.
      old
        .prepare("INSERT INTO settings (key, value) VALUES ('context', ?)")
        .run(JSON.stringify({ totalBudget: 8000, percentages: { recent: 45, summary: 10 } }))
      thread('recent', { context: { percentages: { recent: 45 } } })
      thread('both', { context: { percentages: { recent: 30, retrieved: 25 } } })
      thread('summary', { context: { percentages: { summary: 5 } } })
      thread('plain', { taskState: { goals: [] } })
    })

    const db = openDatabase(path)
    const global = JSON.parse(
      db.prepare("SELECT value FROM settings WHERE key = 'context'").pluck().get() as string
    )
    expect(global.percentages).toEqual({ recent: 45, summary: 10, retrieved: 10 })
    const settings = (id: string) =>
      JSON.parse(db.prepare('SELECT settings FROM threads WHERE id = ?').pluck().get(id) as string)
    // Resolved over the global layer, which now holds retrieved's 10 %: nothing to add.
    expect(settings('recent').context.percentages).toEqual({ recent: 45 })
    expect(settings('both').context.percentages).toEqual({ recent: 30, retrieved: 25 })
    expect(settings('summary').context.percentages).toEqual({ summary: 5 })
    expect(settings('plain')).toEqual({ taskState: { goals: [] } })
    for (const id of ['recent', 'both', 'summary']) {
      const resolved = resolveContextConfig(global, settings(id).context)
      expect(resolved.ok).toBe(true)
    }
    db.close()
  })

  it('gives a thread that sets the recent share its old retrieved share when no global layer does', () => {
    const path = storeWith(20, (old) =>
      insertThread(old, 't', { context: { percentages: { recent: 45 } } })
    )
    const db = openDatabase(path)
    const context = JSON.parse(
      db.prepare("SELECT settings FROM threads WHERE id = 't'").pluck().get() as string
    ).context
    expect(context.percentages).toEqual({ recent: 45, retrieved: 10 })
    const resolved = resolveContextConfig({}, context)
    expect(resolved.ok && resolved.config.percentages.retrieved).toBe(10)
    db.close()
  })
})
