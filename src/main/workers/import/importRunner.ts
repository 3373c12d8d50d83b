/**
 * Where an import runs. The app runs it in a worker thread with its own connection
 * (workerImportRunner.ts), so parsing, token counting and writing never hold the main
 * process; the CLI and tests may run it in process, sliced so the event loop keeps turning.
 */
import { createReadStream } from 'node:fs'
import type Database from 'better-sqlite3'
import type { ImportSummary } from '@shared/history'
import { importHistory, type ImportCounts } from './importHistory'

interface ImportJob {
  path: string
  withBranches: boolean
}

interface ImportHooks {
  progress(counts: ImportCounts): void
  cancelled(): boolean
}

export type ImportRunner = (job: ImportJob, hooks: ImportHooks) => Promise<ImportSummary>

/** Reads the file in 1 MiB chunks: only the conversation being imported is held. */
export const READ_CHUNK_BYTES = 1 << 20

export function inProcessImportRunner(db: Database.Database, now?: () => number): ImportRunner {
  return (job, hooks) =>
    importHistory(db, createReadStream(job.path, { highWaterMark: READ_CHUNK_BYTES }), {
      withBranches: job.withBranches,
      progress: hooks.progress,
      cancelled: hooks.cancelled,
      ...(now && { now })
    })
}
