/**
 * Salvages a damaged store (store/salvage.ts) off the main thread: reading every readable row
 * and rebuilding search over it takes seconds to minutes on a large store.
 * Posts `{ report }` or `{ error }` and exits.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { OpenOptions } from '../../store/database'
import { salvageDatabase } from '../../store/salvage'

const { backupPath, targetPath, options } = workerData as {
  backupPath: string
  targetPath: string
  options: OpenOptions
}
try {
  parentPort?.postMessage({ report: salvageDatabase(backupPath, targetPath, options) })
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) })
}
