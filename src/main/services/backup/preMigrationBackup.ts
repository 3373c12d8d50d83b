import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { backupName, pruneBackups } from './backupFiles'
import { DEFAULT_KEPT_BACKUPS } from './backupService'

/**
 * The `beforeMigrate` hook of openDatabase: a copy of the file as the older app left it, in
 * the backups folder, before any migration runs. Nothing else uses the store yet, so a
 * synchronous `VACUUM INTO` gives a consistent, compact copy.
 */
export function backupBeforeMigration(
  dir: string,
  now: () => number = Date.now,
  keep = DEFAULT_KEPT_BACKUPS
): (db: Database.Database) => void {
  return (db) => {
    mkdirSync(dir, { recursive: true })
    db.prepare('VACUUM INTO ?').run(join(dir, backupName('pre-migration', now())))
    pruneBackups(dir, keep)
  }
}
