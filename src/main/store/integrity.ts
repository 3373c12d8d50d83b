import type Database from 'better-sqlite3'

/**
 * Files up to this size are checked synchronously at open, before the window shows.
 * `PRAGMA quick_check` reads every page and checks every row's CHECK constraints: measured
 * here (2 busy cores) at 1.4-1.65 s for a 61 MB store of 70k messages, so about 200 ms at this
 * bound (a store of roughly 9k messages). Larger files are checked off the main thread right
 * after the window shows (workers/integrity/integrityWorker.ts).
 */
export const QUICK_CHECK_AT_OPEN_MAX_BYTES = 8 * 1024 * 1024

/** The problems quick_check reports (at most `limit`); an empty list means the file is sound. */
export function quickCheck(db: Database.Database, limit = 20): string[] {
  const rows = db.pragma(`quick_check(${limit})`) as { quick_check: string }[]
  return rows.map((row) => row.quick_check).filter((line) => line !== 'ok')
}
