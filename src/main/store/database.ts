import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  rmSync,
  statSync
} from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { BACKSTOP_PAGES } from './walCheckpoints'
import { quickCheck, QUICK_CHECK_AT_OPEN_MAX_BYTES } from './integrity'
import { LATEST_VERSION, migrate, schemaVersion, SchemaTooNewError } from './migrations'
import { loadSqliteVec } from './vectors/sqliteVec'
import { sqliteCode, storageFaultOf } from './storageFaults'
import { describeOpenFailure, type OpenFailureFacts, type OpenFailureKind } from './openFailureText'

export type { OpenFailureKind }

/**
 * The store could not be opened. The user must decide what happens next; nothing is reset
 * silently. For a corrupt file a byte-for-byte backup already exists at `backupPath`. The
 * message is in English; the dialogs say the same in the user's language from `facts`.
 */
export class DatabaseOpenError extends Error {
  constructor(readonly facts: OpenFailureFacts) {
    super(describeOpenFailure(facts, 'en'))
    this.name = 'DatabaseOpenError'
  }

  get kind(): OpenFailureKind {
    return this.facts.kind
  }

  get backupPath(): string | null {
    return this.facts.backupPath
  }
}

/** Copies the database and its WAL side files next to it, stamped with the time. */
export function backupDatabaseFiles(path: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  const backup = `${path}.corrupt-${stamp}`
  try {
    copyFileSync(path, backup)
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(path + suffix)) copyFileSync(path + suffix, backup + suffix)
    }
  } catch (error) {
    // Half a copy is no backup: it would only take the room the next try needs.
    for (const suffix of ['', '-wal', '-shm']) rmSync(backup + suffix, { force: true })
    throw error
  }
  return backup
}

export interface OpenOptions {
  /** sqlite-vec is needed by memory search; tests of unrelated tables may skip it. */
  loadVectorExtension?: boolean
  /** better-sqlite3 built for Electron's ABI, when it is not the copy in node_modules. */
  nativeBinding?: string
  /** Files up to this size get quick_check at open (default QUICK_CHECK_AT_OPEN_MAX_BYTES). */
  quickCheckMaxBytes?: number
  /**
   * Runs before migrations change an existing file (schema older than the app's, not a new
   * file); the app takes its pre-migration backup here. A throw leaves the file unmigrated.
   */
  beforeMigrate?: (db: Database.Database, fromVersion: number) => void
}

/** A file that exists with 0 bytes and no WAL that could still hold its pages. */
function isEmptyDatabaseFile(path: string): boolean {
  const size = (file: string) => (existsSync(file) ? statSync(file).size : -1)
  return size(path) === 0 && size(`${path}-wal`) <= 0
}

export function openDatabase(path: string, options: OpenOptions = {}): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  if (path !== ':memory:' && isEmptyDatabaseFile(path)) {
    throw new DatabaseOpenError({ kind: 'empty', path, backupPath: null, detail: '0 bytes' })
  }
  // SQLite would quietly open a read-only file read-only, and every later write would fail.
  if (path !== ':memory:' && existsSync(path) && !writable(path)) {
    throw new DatabaseOpenError({
      kind: 'readonly',
      path,
      backupPath: null,
      detail: 'not writable (access W_OK)',
      reason: { kind: 'not_writable' }
    })
  }
  let db: Database.Database | undefined
  try {
    db = new Database(path, { nativeBinding: options.nativeBinding })
    db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`)
    // Touch the schema so a damaged file fails here rather than on the first user action.
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    // Damage past the first page is only found by walking the pages. Small files are checked
    // here; larger ones right after the window shows (deferredIntegrityCheck), because the
    // check reads the whole file (about 1.5 s for 70k messages, see docs/ARCHITECTURE.md).
    if (
      path !== ':memory:' &&
      fileSize(path) <= (options.quickCheckMaxBytes ?? QUICK_CHECK_AT_OPEN_MAX_BYTES)
    ) {
      const problems = quickCheck(db)
      if (problems.length > 0) throw new DamagedPagesError(problems)
    }
    if (options.loadVectorExtension ?? true) loadSqliteVec(db)
    const from = schemaVersion(db)
    if (options.beforeMigrate && from > 0 && from < LATEST_VERSION) options.beforeMigrate(db, from)
    migrate(db)
    return db
  } catch (error) {
    db?.close()
    throw toOpenError(path, error)
  }
}

/** quick_check found damaged pages; carries SQLite's own words, shown as the detail. */
class DamagedPagesError extends Error {
  readonly code = 'SQLITE_CORRUPT'
  constructor(problems: string[]) {
    super(`damaged pages: ${problems.slice(0, 3).join('; ')}`)
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0
}

function toOpenError(path: string, error: unknown): Error {
  const code = sqliteCode(error)
  const detail = error instanceof Error ? error.message : String(error)
  const fault = storageFaultOf(error)
  if (fault === 'corrupt') {
    let backup: string
    try {
      backup = backupDatabaseFiles(path)
    } catch (copyError) {
      // Never repaired without its copy; a full disk is said in words, not as ENOSPC.
      const errno = (copyError as NodeJS.ErrnoException).code
      if (errno !== 'ENOSPC' && errno !== 'EDQUOT') throw copyError
      const needed = Math.ceil((fileSize(path) + fileSize(`${path}-wal`)) / 1_000_000)
      return new DatabaseOpenError({
        kind: 'full',
        path,
        backupPath: null,
        detail: `${errno}: the copy needs about ${needed} MB`,
        reason: { kind: 'backup_needs_space', megabytes: needed }
      })
    }
    return new DatabaseOpenError({ kind: 'corrupt', path, backupPath: backup, detail })
  }
  if (fault) return new DatabaseOpenError({ kind: fault, path, backupPath: null, detail })
  if (code === 'SQLITE_CANTOPEN') {
    // An existing file in a folder we may not write to: SQLite cannot create the WAL beside it.
    const kind = existsSync(path) && !writable(dirname(path)) ? 'readonly' : 'unreadable'
    return new DatabaseOpenError({ kind, path, backupPath: null, detail })
  }
  if (error instanceof SchemaTooNewError) {
    return new DatabaseOpenError({
      kind: 'too_new',
      path,
      backupPath: null,
      detail,
      reason: { kind: 'schema_too_new', found: error.found, known: LATEST_VERSION }
    })
  }
  return error instanceof Error ? error : new Error(detail)
}
