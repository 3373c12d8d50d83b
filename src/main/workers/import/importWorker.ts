/**
 * Imports one export file on its own connection, off the main thread (see workerImportRunner.ts).
 * Posts progress after each conversation, then the summary; a `cancel` message stops it between
 * conversations.
 */
import { createReadStream } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { importHistory } from './importHistory'
import { READ_CHUNK_BYTES } from './importRunner'
import type { ImportWorkerData, ImportWorkerMessage } from './workerImportRunner'
import { openDatabase } from '../../store/database'

/**
 * Conversations are committed together (each in its own savepoint) for about this long, then
 * the lock is left free as long again: main's own writes (a sent message, the indexer's
 * vectors) wait for the lock synchronously, and SQLite's busy handler retries with growing
 * sleeps, so without the pause the next batch would win again and again (measured in
 * `npm run bench`: chat writes waited up to 0.8 s without it, 0.2 s with it, on a loaded box).
 */
const IMPORT_BATCH_MS = 25
const IMPORT_PAUSE_MS = 25

const data = workerData as ImportWorkerData
const post = (message: ImportWorkerMessage) => parentPort?.postMessage(message)
let cancelled = false
parentPort?.on('message', (message: { type?: string }) => {
  if (message.type === 'cancel') cancelled = true
})

async function run(): Promise<void> {
  const db = openDatabase(data.databasePath, {
    quickCheckMaxBytes: 0,
    ...(data.nativeBinding && { nativeBinding: data.nativeBinding })
  })
  try {
    const summary = await importHistory(
      db,
      createReadStream(data.path, { highWaterMark: READ_CHUNK_BYTES }),
      {
        withBranches: data.withBranches,
        batchMs: IMPORT_BATCH_MS,
        pauseMs: IMPORT_PAUSE_MS,
        cancelled: () => cancelled,
        progress: (counts) => post({ type: 'progress', counts })
      }
    )
    post({ type: 'done', summary })
  } finally {
    db.close()
  }
}

run().catch((error: unknown) =>
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
)
