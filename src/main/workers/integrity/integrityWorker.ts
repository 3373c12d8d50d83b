/**
 * Runs `PRAGMA quick_check` on a second, read-only connection, so checking a large store never
 * blocks the main process. Posts `{ problems }` (empty when sound) and exits.
 */
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { quickCheck } from '../../store/integrity'

const { path, nativeBinding } = workerData as { path: string; nativeBinding?: string }
let problems: string[]
try {
  const db = new Database(path, { readonly: true, nativeBinding })
  try {
    problems = quickCheck(db)
  } finally {
    db.close()
  }
} catch (error) {
  problems = [error instanceof Error ? error.message : String(error)]
}
parentPort?.postMessage({ problems })
