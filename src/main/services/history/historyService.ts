/**
 * Import and export from the app: the file is chosen in main (never a path from the page), the
 * import runs in the background (a worker thread in the app) with progress events and
 * cancellation, and ends with a summary event naming what was skipped and why.
 */
import { statSync } from 'node:fs'
import { basename } from 'node:path'
import type Database from 'better-sqlite3'
import type {
  ExportFormat,
  ExportOutcome,
  ImportProgress,
  ImportSummary,
  StartImportResult
} from '@shared/history'
import { AppError } from '@shared/result'
import { HistoryRepository } from '../../store/historyRepository'
import type { Publish } from '../events'
import { exportHistory, ExportNotFoundError } from './exportHistory'
import { emptySummary } from '../../workers/import/importHistory'
import type { ImportRunner } from '../../workers/import/importRunner'
import type { MarkdownLocale } from './markdownExport'

/** history:progress is pushed at most this often. */
const PROGRESS_INTERVAL_MS = 250

export interface HistoryServiceDeps {
  db: Database.Database
  runImport: ImportRunner
  publish: Publish
  newId: () => string
  log: (message: string, error: unknown) => void
  /** The open-file dialog in the app; tests and the e2e harness answer with a path. */
  pickImportFile: () => Promise<string | null>
  /** The save dialog, with a suggested file name. */
  pickExportFile: (suggestedName: string) => Promise<string | null>
  /** Runs before any row is written, e.g. a backup of the database; a failure stops the import. */
  beforeImport?: () => Promise<void>
  /** Imported messages are queued for embedding by trigger; this starts the indexer on them. */
  wakeIndexer: () => void
  locale: () => MarkdownLocale
  now: () => number
}

interface RunningImport {
  id: string
  cancelled: boolean
  done: Promise<ImportSummary>
}

export class HistoryService {
  private running: RunningImport | null = null

  constructor(private readonly deps: HistoryServiceDeps) {}

  /** Asks for a file and starts importing it in the background; events report the rest. */
  async startImport(options: { withBranches: boolean }): Promise<StartImportResult> {
    if (this.running) throw new AppError('invalid_input', 'An import is already running.')
    const path = await this.deps.pickImportFile()
    if (path === null) return { started: false }
    if (this.running) throw new AppError('invalid_input', 'An import is already running.')
    const id = this.deps.newId()
    const running: RunningImport = { id, cancelled: false, done: Promise.resolve(emptySummary()) }
    this.running = running
    running.done = this.run(running, path, options.withBranches).finally(() => {
      this.running = null
    })
    return { started: true, importId: id, fileName: basename(path) }
  }

  /** Stops the import after the conversation being written; the summary says it was cancelled. */
  cancelImport(importId: string): { cancelled: boolean } {
    if (!this.running || this.running.id !== importId) return { cancelled: false }
    this.running.cancelled = true
    return { cancelled: true }
  }

  /** Resolves when no import is running (at quit, after cancelling it). */
  async stop(): Promise<void> {
    const running = this.running
    if (!running) return
    running.cancelled = true
    await running.done.catch(() => {})
  }

  private async run(
    running: RunningImport,
    path: string,
    withBranches: boolean
  ): Promise<ImportSummary> {
    const totalBytes = fileSize(path)
    let last = 0
    let summary: ImportSummary
    try {
      await this.deps.beforeImport?.()
      summary = await this.deps.runImport(
        { path, withBranches },
        {
          cancelled: () => running.cancelled,
          progress: (counts) => {
            const at = Date.now()
            if (at - last < PROGRESS_INTERVAL_MS) return
            last = at
            this.publishProgress({ importId: running.id, ...counts, totalBytes })
            this.deps.wakeIndexer()
          }
        }
      )
    } catch (error) {
      this.deps.log('import failed', error)
      summary = {
        ...emptySummary(),
        error: error instanceof Error ? error.message : String(error)
      }
    }
    this.deps.wakeIndexer()
    this.deps.publish('history:done', { importId: running.id, summary })
    return summary
  }

  private publishProgress(progress: ImportProgress): void {
    this.deps.publish('history:progress', progress)
  }

  /** Asks where to save, then writes one thread (or all) as JSON or Markdown. */
  async export(options: {
    format: ExportFormat
    threadId?: string
    withRequests: boolean
  }): Promise<ExportOutcome> {
    const name = this.suggestedName(options.format, options.threadId)
    const path = await this.deps.pickExportFile(name)
    if (path === null) return { saved: false }
    try {
      const result = await exportHistory(this.deps.db, path, {
        format: options.format,
        withRequests: options.withRequests,
        locale: this.deps.locale(),
        now: this.deps.now,
        ...(options.threadId && { threadId: options.threadId })
      })
      return { saved: true, ...result }
    } catch (error) {
      if (error instanceof ExportNotFoundError) throw new AppError('not_found', error.message)
      throw error
    }
  }

  private suggestedName(format: ExportFormat, threadId?: string): string {
    const date = new Date(this.deps.now()).toISOString().slice(0, 10)
    const title = threadId ? new HistoryRepository(this.deps.db).threadTitle(threadId) : null
    const stem =
      (title ?? 'conversations').replace(/[\\/:*?"<>|\s]+/gu, '-').slice(0, 60) || 'conversation'
    return `${stem}-${date}.${format}`
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}
