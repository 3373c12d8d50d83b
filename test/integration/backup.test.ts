/**
 * Backup and restore on real SQLite files: the online backup while the chat keeps writing,
 * the pre-migration copy of an old-schema file, and restores that are refused or that swap.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { BackupProgress } from '@shared/domain'
import { BackupService, type BackupServiceDeps } from '../../src/main/services/backup/backupService'
import { swapDatabaseFile } from '../../src/main/services/backup/backupFiles'
import { backupBeforeMigration } from '../../src/main/services/backup/preMigrationBackup'
import { openDatabase } from '../../src/main/store/database'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { LATEST_VERSION, migrate } from '../../src/main/store/migrations'
import { servicesIn, steppingClock, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

function count(path: string, table = 'messages'): number {
  const db = new Database(path, { readonly: true })
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  } finally {
    db.close()
  }
}

function integrity(path: string): string {
  const db = new Database(path, { readonly: true })
  try {
    return db.pragma('integrity_check', { simple: true }) as string
  } finally {
    db.close()
  }
}

interface Setup extends TestServices {
  dir: string
  path: string
  backups: BackupService
  progress: BackupProgress[]
  reopened: Database.Database[]
  /** Messages in the live store when the backup reported its last step. */
  committedAtEnd: number
}

function setup(overrides: Partial<BackupServiceDeps> = {}): Setup {
  const dir = tempDir()
  const path = join(dir, 'store.sqlite')
  const clock = steppingClock()
  const test = servicesIn(dir, clock)
  const progress: BackupProgress[] = []
  const reopened: Database.Database[] = []
  let backupsTaken = 0
  const backups = new BackupService({
    db: test.db,
    databasePath: path,
    dir: join(dir, 'backups'),
    // A minute apart, so every backup has its own name.
    now: () => 1_700_000_000_000 + ++backupsTaken * 60_000,
    publish: (event, payload) => {
      if (event !== 'backup:progress') return
      progress.push(payload as BackupProgress)
      if ((payload as BackupProgress).remainingPages === 0) {
        result.committedAtEnd = (
          test.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }
        ).n
      }
    },
    reopen: async (swap) => {
      test.db.close()
      swap()
      reopened.push(openDatabase(path))
    },
    ...overrides
  })
  const result: Setup = { ...test, dir, path, backups, progress, reopened, committedAtEnd: -1 }
  return result
}

/** Messages written through the store's own repository (a send also builds a request). */
function chat(s: Setup, n: number, prefix = 'message') {
  const thread = s.services.threads.create('Backed up')
  const messages = new MessageRepository(s.db)
  for (let i = 0; i < n; i++) write(messages, thread.id, `${prefix} ${i} ${'x'.repeat(400)}`)
  return thread
}

function write(messages: MessageRepository, threadId: string, content: string) {
  messages.append({ threadId, role: 'user', content, tokenCount: 100, createdAt: Date.now() })
}

describe('online backup', () => {
  it('gives a sound database with every committed row while writes continue', async () => {
    const s = setup()
    const thread = chat(s, 3000)
    const messages = new MessageRepository(s.db)
    let writing = true
    let written = 0
    const writer = (async () => {
      while (writing) {
        write(messages, thread.id, `written during the backup ${written}`)
        written++
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const info = await s.backups.backupNow('manual')
    writing = false
    await writer
    // The step that copied the last pages: what was committed at that moment.
    const committed = s.committedAtEnd

    const file = join(s.dir, 'backups', info.name)
    expect(info).toMatchObject({ reason: 'manual', bytes: expect.any(Number) })
    expect(integrity(file)).toBe('ok')
    expect(written).toBeGreaterThan(0)
    // Everything committed before the backup finished is in it (the same connection's writes
    // are carried into the copy).
    expect(count(file)).toBe(committed)
    expect(committed).toBeGreaterThan(3000)
    expect(s.progress.length).toBeGreaterThan(1)
    expect(s.progress.at(-1)?.remainingPages).toBe(0)
    expect(s.backups.list().map((b) => b.name)).toEqual([info.name])
    expect(readdirSync(join(s.dir, 'backups')).some((name) => name.endsWith('.partial'))).toBe(
      false
    )
  })

  it('keeps only the newest backups', async () => {
    const s = setup({ keep: 2 })
    chat(s, 3)
    const first = await s.backups.backupNow('manual')
    const second = await s.backups.backupNow('pre-import')
    const third = await s.backups.backupNow('manual')
    expect(s.backups.list().map((b) => b.name)).toEqual([third.name, second.name])
    expect(existsSync(join(s.dir, 'backups', first.name))).toBe(false)
    expect(second.name).toMatch(/^context-lens-.*-pre-import\.sqlite$/)
  })
})

describe('pre-migration backup', () => {
  it('copies an old-schema file before migrating it, and only then', () => {
    const dir = tempDir()
    const path = join(dir, 'old.sqlite')
    const old = new Database(path)
    migrate(old, 5)
    old
      .prepare(
        `INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', 'Old times', 1, 1)`
      )
      .run()
    old.close()

    const backupsDir = join(dir, 'backups')
    const db = openDatabase(path, { beforeMigrate: backupBeforeMigration(backupsDir) })
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION)
    db.close()
    const [copy] = readdirSync(backupsDir)
    expect(copy).toMatch(/-pre-migration\.sqlite$/)
    const backup = new Database(join(backupsDir, copy!), { readonly: true })
    expect(backup.pragma('user_version', { simple: true })).toBe(5)
    expect(backup.prepare('SELECT title FROM threads').all()).toEqual([{ title: 'Old times' }])
    backup.close()

    // Opening it again (now current), or a new file, takes no backup.
    openDatabase(path, { beforeMigrate: backupBeforeMigration(backupsDir) }).close()
    openDatabase(join(dir, 'new.sqlite'), {
      beforeMigrate: backupBeforeMigration(backupsDir)
    }).close()
    expect(readdirSync(backupsDir)).toHaveLength(1)
  })
})

describe('restore', () => {
  it('swaps in a listed backup and keeps the current database aside', async () => {
    const s = setup()
    chat(s, 2, 'before the backup')
    const backup = await s.backups.backupNow('manual')
    chat(s, 3, 'after the backup')
    expect(count(s.path)).toBe(5)

    const outcome = await s.backups.restore(backup.name)
    expect(outcome).toMatchObject({ threads: 1, messages: 2 })
    const [db] = s.reopened
    const texts = db!.prepare('SELECT content FROM messages').all() as { content: string }[]
    expect(texts.every((row) => row.content.startsWith('before the backup'))).toBe(true)
    expect(texts).toHaveLength(2)
    db!.close()
    // The database as it was, with the later messages, is kept beside it.
    expect(outcome.keptAt).toMatch(/store\.sqlite\.before-restore-/)
    expect(count(outcome.keptAt)).toBe(5)
    expect(existsSync(`${s.path}.restore-candidate`)).toBe(false)
  })

  async function refuses(s: Setup, file: string, reason: RegExp) {
    const threads = s.services.threads.list().length
    const before = digest(s.path)
    const chosen = digest(file)
    const restoring = new BackupService({
      db: s.db,
      databasePath: s.path,
      dir: join(s.dir, 'backups'),
      now: Date.now,
      publish: () => {},
      pickFile: async () => file,
      reopen: async () => {
        throw new Error('a refused restore must not reopen anything')
      }
    })
    await expect(restoring.restoreFile()).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(reason)
    })
    expect(digest(s.path)).toBe(before)
    expect(digest(file)).toBe(chosen)
    expect(existsSync(`${s.path}.restore-candidate`)).toBe(false)
    expect(readdirSync(s.dir).filter((name) => name.includes('before-restore'))).toEqual([])
    // The live store still answers.
    expect(s.services.threads.list()).toHaveLength(threads)
  }

  it('refuses a damaged file and changes nothing', async () => {
    const s = setup()
    chat(s, 200)
    const backup = await s.backups.backupNow('manual')
    const file = join(s.dir, 'backups', backup.name)
    const bytes = readFileSync(file)
    // Pages in the middle overwritten: the header still says SQLite, the b-trees do not hold.
    bytes.fill(0x5a, 8192, 8192 + 4096 * 4)
    const damaged = join(s.dir, 'damaged.sqlite')
    writeFileSync(damaged, bytes)
    await refuses(s, damaged, /damaged|cannot be read/)
  })

  it('refuses a file from a newer version of the app', async () => {
    const s = setup()
    chat(s, 2)
    const newer = join(s.dir, 'newer.sqlite')
    const db = new Database(newer)
    migrate(db)
    db.pragma(`user_version = ${LATEST_VERSION + 1}`)
    db.close()
    await refuses(s, newer, /newer version/)
  })

  it('refuses a file that is not a Context Lens database, or not a database at all', async () => {
    const s = setup()
    chat(s, 2)
    const other = join(s.dir, 'other.sqlite')
    const db = new Database(other)
    db.exec('CREATE TABLE recipes (name TEXT)')
    db.close()
    await refuses(s, other, /not a Context Lens one/)
    const text = join(s.dir, 'notes.sqlite')
    writeFileSync(text, 'just some notes, not a database at all '.repeat(200))
    await refuses(s, text, /cannot be read as a database/)
  })

  it('puts the current database back when the checked file cannot be moved in', () => {
    const dir = tempDir()
    const path = join(dir, 'store.sqlite')
    writeFileSync(path, 'current')
    writeFileSync(`${path}-wal`, 'current wal')
    expect(() => swapDatabaseFile(path, join(dir, 'gone.sqlite'), 1)).toThrow()
    expect(readFileSync(path, 'utf8')).toBe('current')
    expect(readFileSync(`${path}-wal`, 'utf8')).toBe('current wal')
    expect(readdirSync(dir).sort()).toEqual(['store.sqlite', 'store.sqlite-wal'])
  })
})
