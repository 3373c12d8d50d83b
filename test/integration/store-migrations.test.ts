import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { DatabaseOpenError, openDatabase } from '../../src/main/store/database'
import { LATEST_VERSION, migrate, schemaVersion } from '../../src/main/store/migrations'
import { discardDamagedDatabase } from '../../src/main/store/recovery'
import { SearchRepository } from '../../src/main/store/searchRepository'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

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
    const path = join(tempDir(), 'store.sqlite')
    const old = new Database(path)
    migrate(old, LATEST_VERSION - 1)
    old
      .prepare(
        "INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', '旅行计划', 1, 1)"
      )
      .run()
    old
      .prepare(
        "INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES ('t1', 1, 'user', 'Book the ferry to Okinawa', 6, 1)"
      )
      .run()
    old.close()

    const db = openDatabase(path)
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    const hits = new SearchRepository(db).search('ferry', 10)
    expect(hits.map((h) => h.snippet)).toEqual(['Book the ferry to Okinawa'])
    expect(new SearchRepository(db).search('旅行计划', 10)[0]?.threadId).toBe('t1')
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
