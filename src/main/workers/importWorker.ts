/**
 * Imports one export file on its own connection, off the main thread (see
 * services/history/workerImportRunner.ts). Posts progress after each conversation, then the
 * summary; a `cancel` message stops it between conversations.
 */
import { createReadStream } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { importHistory } from '../services/history/importHistory'
import { READ_CHUNK_BYTES } from '../services/history/importRunner'
import type { ImportWorkerData, ImportWorkerMessage } from '../services/history/workerImportRunner'
import { openDatabase } from '../store/database'

const data = workerData as ImportWorkerData
const post = (message: ImportWorkerMessage) => parentPort?.postMessage(message)
let cancelled = false
parentPort?.on('message', (message: { type?: string }) => {
  if (message.type === 'cancel') cancelled = true
})

async function run(): Promise<void> {
  const db = openDatabase(data.databasePath, {
    loadVectorExtension: false,
    quickCheckMaxBytes: 0,
    ...(data.nativeBinding && { nativeBinding: data.nativeBinding })
  })
  try {
    const summary = await importHistory(
      db,
      createReadStream(data.path, { highWaterMark: READ_CHUNK_BYTES }),
      {
        withBranches: data.withBranches,
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
