import { Worker } from 'node:worker_threads'
import type { ImportSummary } from '@shared/history'
import type { ImportCounts } from './importHistory'
import type { ImportRunner } from './importRunner'

/** What main and the import worker say to each other. */
export interface ImportWorkerData {
  databasePath: string
  nativeBinding?: string
  path: string
  withBranches: boolean
}

export type ImportWorkerMessage =
  | { type: 'progress'; counts: ImportCounts }
  | { type: 'done'; summary: ImportSummary }
  | { type: 'failed'; message: string }

/**
 * Runs each import in a worker thread (importWorker.ts) on a second connection to the same WAL
 * database: main only relays progress. Writes are one short transaction per
 * conversation, so the app's own writes wait at most that long for the lock (busy_timeout).
 */
export function workerImportRunner(options: {
  workerPath: string
  databasePath: string
  nativeBinding?: string
}): ImportRunner {
  return (job, hooks) =>
    new Promise<ImportSummary>((resolve, reject) => {
      const data: ImportWorkerData = {
        databasePath: options.databasePath,
        path: job.path,
        withBranches: job.withBranches,
        ...(options.nativeBinding && { nativeBinding: options.nativeBinding })
      }
      const worker = new Worker(options.workerPath, { workerData: data })
      let settled = false
      const poll = setInterval(() => {
        if (hooks.cancelled()) worker.postMessage({ type: 'cancel' })
      }, 100)
      const finish = (action: () => void) => {
        if (settled) return
        settled = true
        clearInterval(poll)
        action()
      }
      worker.on('message', (message: ImportWorkerMessage) => {
        if (message.type === 'progress') hooks.progress(message.counts)
        else if (message.type === 'done') {
          finish(() => resolve(message.summary))
          void worker.terminate()
        } else finish(() => reject(new Error(message.message)))
      })
      worker.on('error', (error) => finish(() => reject(error)))
      worker.on('exit', (code) =>
        finish(() => reject(new Error(`The import worker stopped (exit code ${code})`)))
      )
    })
}
