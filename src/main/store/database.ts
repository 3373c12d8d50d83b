import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { migrate, SchemaTooNewError } from './migrations'
import { loadSqliteVec } from './sqliteVec'

export type OpenFailureKind = 'corrupt' | 'unreadable' | 'too_new'

/**
 * The store could not be opened. The user must decide what happens next; nothing is reset
 * silently. For a corrupt file a byte-for-byte backup already exists at `backupPath`.
 */
export class DatabaseOpenError extends Error {
  constructor(
    readonly kind: OpenFailureKind,
    readonly path: string,
    readonly backupPath: string | null,
    readonly detail: string
  ) {
    super(describe(kind, path, backupPath, detail))
    this.name = 'DatabaseOpenError'
  }
}

function describe(kind: OpenFailureKind, path: string, backup: string | null, detail: string) {
  switch (kind) {
    case 'corrupt':
      return `The conversation database at ${path} is damaged and cannot be read (${detail}). A copy of it was saved to ${backup}.`
    case 'unreadable':
      return `The conversation database at ${path} cannot be opened (${detail}). Check that the file exists and that you have permission to read and write it.`
    case 'too_new':
      return detail
  }
}

const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB'])

function sqliteCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined
}

/** Copies the database and its WAL side files next to it, stamped with the time. */
export function backupDatabaseFiles(path: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  const backup = `${path}.corrupt-${stamp}`
  copyFileSync(path, backup)
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(path + suffix)) copyFileSync(path + suffix, backup + suffix)
  }
  return backup
}

export interface OpenOptions {
  /** sqlite-vec is needed by memory search; tests of unrelated tables may skip it. */
  loadVectorExtension?: boolean
  /** better-sqlite3 built for Electron's ABI, when it is not the copy in node_modules. */
  nativeBinding?: string
}

export function openDatabase(path: string, options: OpenOptions = {}): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  let db: Database.Database | undefined
  try {
    db = new Database(path, { nativeBinding: options.nativeBinding })
    db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    // Touch the schema so a damaged file fails here rather than on the first user action.
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    if (options.loadVectorExtension ?? true) loadSqliteVec(db)
    migrate(db)
    return db
  } catch (error) {
    db?.close()
    throw toOpenError(path, error)
  }
}

function toOpenError(path: string, error: unknown): Error {
  const code = sqliteCode(error)
  const detail = error instanceof Error ? error.message : String(error)
  if (code && CORRUPTION_CODES.has(code)) {
    return new DatabaseOpenError('corrupt', path, backupDatabaseFiles(path), detail)
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM') {
    return new DatabaseOpenError('unreadable', path, null, detail)
  }
  if (error instanceof SchemaTooNewError) {
    return new DatabaseOpenError('too_new', path, null, detail)
  }
  return error instanceof Error ? error : new Error(detail)
}
