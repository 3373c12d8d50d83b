import type Database from 'better-sqlite3'

/**
 * Files up to this size are checked synchronously at open. `PRAGMA quick_check` reads every
 * page: measured here at about 0.94 s for a 500 MB store with 100k messages and their vectors,
 * so about 120 ms at this bound. Larger files are checked off the main thread after the window
 * shows (workers/integrityWorker.ts).
 */
export const QUICK_CHECK_AT_OPEN_MAX_BYTES = 64 * 1024 * 1024

/** The problems quick_check reports (at most `limit`); an empty list means the file is sound. */
export function quickCheck(db: Database.Database, limit = 20): string[] {
  const rows = db.pragma(`quick_check(${limit})`) as { quick_check: string }[]
  return rows.map((row) => row.quick_check).filter((line) => line !== 'ok')
}
