import Database from 'better-sqlite3'
import { LATEST_VERSION } from './migrations'

/** Tables every Context Lens database has had since its first schema. */
const REQUIRED_TABLES = ['threads', 'messages', 'settings']

export type RestoreCheck =
  | { ok: true; schemaVersion: number; threads: number; messages: number }
  | { ok: false; reason: string }

/**
 * Whether a file can replace the database: it opens, `integrity_check` finds nothing, it has
 * our tables and a schema this app can read (older ones are migrated when it opens). Never
 * throws: a damaged file's SQLite error must not reach the live store's corruption watch.
 */
export function checkRestoreCandidate(path: string, nativeBinding?: string): RestoreCheck {
  let db: Database.Database | undefined
  try {
    db = new Database(path, { fileMustExist: true, nativeBinding })
    const problems = (db.pragma('integrity_check(20)') as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .filter((line) => line !== 'ok')
    if (problems.length > 0) {
      return { ok: false, reason: `The file is damaged: ${problems.slice(0, 3).join('; ')}.` }
    }
    const tables = new Set(
      (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
          name: string
        }[]
      ).map((row) => row.name)
    )
    const version = db.pragma('user_version', { simple: true }) as number
    if (version < 1 || REQUIRED_TABLES.some((table) => !tables.has(table))) {
      return { ok: false, reason: 'The file is an SQLite database, but not a Context Lens one.' }
    }
    if (version > LATEST_VERSION) {
      return {
        ok: false,
        reason: `The file was written by a newer version of Context Lens (schema ${version}, this app knows ${LATEST_VERSION}). Update the app to restore it.`
      }
    }
    const count = (table: string) =>
      (db!.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    return {
      ok: true,
      schemaVersion: version,
      threads: count('threads'),
      messages: count('messages')
    }
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    return { ok: false, reason: `The file cannot be read as a database (${detail}).` }
  } finally {
    db?.close()
  }
}
