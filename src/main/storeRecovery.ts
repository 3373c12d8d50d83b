import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type Database from 'better-sqlite3'
import type { SalvageReport } from '@shared/domain'
import {
  backupDatabaseFiles,
  DatabaseOpenError,
  openDatabase,
  type OpenOptions
} from './store/database'
import { discardDamagedDatabase } from './store/recovery'
import { RECOVERED_THREAD_TITLE, removeDatabaseFiles, salvageDatabase } from './store/salvage'
import { storageFaultOf } from './store/storageFaults'

/**
 * What the user sees when the store cannot be used, and what each choice does. Electron's
 * dialog is passed in (index.ts), so this runs under plain Node in tests.
 */
export interface RecoveryDialogs {
  /** Shows a modal question and returns the index of the button chosen. */
  ask(options: {
    type: 'error' | 'info'
    message: string
    detail: string
    buttons: string[]
  }): number
}

/**
 * Runs salvage from a backup into a new file. Salvaging 100k messages takes about 20 s here
 * (rebuilding search is most of it), so the app runs it in a worker thread
 * (workers/salvage/salvageWorker.ts); tests and the fallback run it in process.
 */
export type Salvager = (backupPath: string, targetPath: string) => Promise<SalvageReport>

export const salvageInProcess =
  (options: OpenOptions): Salvager =>
  async (backupPath, targetPath) =>
    salvageDatabase(backupPath, targetPath, options)

export interface OpenedStore {
  db: Database.Database
  recoveredFrom: string | null
  salvage: SalvageReport | null
}

export const CHOICES = {
  recover: 'Recover what can be read',
  startEmpty: 'Start with an empty database',
  retry: 'Try again',
  quit: 'Quit',
  continue: 'Continue'
} as const

const TITLES: Record<DatabaseOpenError['kind'], string> = {
  corrupt: 'Your conversations file is damaged.',
  empty: 'Your conversations file is empty.',
  readonly: 'Your conversations file cannot be written.',
  full: 'The disk is full.',
  unreadable: 'Your conversations could not be opened.',
  too_new: 'Your conversations were saved by a newer version of Context Lens.'
}

/**
 * Opens the store, asking the user whenever it cannot be opened as is. Never resets anything
 * silently: a damaged file is salvaged into a new one (the original kept as the backup), an
 * empty file is replaced only when the user says so. Returns null when the user chose Quit.
 */
export async function openStoreInteractively(
  path: string,
  options: OpenOptions,
  dialogs: RecoveryDialogs,
  salvager: Salvager = salvageInProcess(options)
): Promise<OpenedStore | null> {
  for (;;) {
    try {
      return { db: openDatabase(path, options), recoveredFrom: null, salvage: null }
    } catch (error) {
      if (!(error instanceof DatabaseOpenError)) throw error
      const buttons = choicesFor(error)
      const chosen =
        buttons[
          dialogs.ask({
            type: 'error',
            message: TITLES[error.kind],
            detail: error.message,
            buttons
          })
        ]
      if (chosen === CHOICES.retry) continue
      if (chosen === CHOICES.startEmpty) {
        // Only a file that is still empty is replaced: there is nothing in it to keep.
        if (statSync(path).size === 0) removeDatabaseFiles(path)
        continue
      }
      if (chosen !== CHOICES.recover || !error.backupPath) return null
      const salvage = await salvageInPlace(path, error.backupPath, salvager)
      dialogs.ask({
        type: 'info',
        message: 'Recovery finished.',
        detail: describeSalvage(salvage, error.backupPath),
        buttons: [CHOICES.continue]
      })
      return { db: openDatabase(path, options), recoveredFrom: error.backupPath, salvage }
    }
  }
}

function choicesFor(error: DatabaseOpenError): string[] {
  switch (error.kind) {
    case 'corrupt':
      return [CHOICES.recover, CHOICES.quit]
    case 'empty':
      return [CHOICES.startEmpty, CHOICES.retry, CHOICES.quit]
    case 'readonly':
    case 'full':
    case 'unreadable':
      return [CHOICES.retry, CHOICES.quit]
    case 'too_new':
      return [CHOICES.quit]
  }
}

/**
 * Salvages the backup of a damaged store into a new file and puts it in the damaged file's
 * place. The damaged original is removed only once its byte-for-byte backup is on disk.
 */
export async function salvageInPlace(
  path: string,
  backupPath: string,
  salvager: Salvager
): Promise<SalvageReport> {
  const salvaged = `${path}.salvaged`
  const report = await salvager(backupPath, salvaged)
  discardDamagedDatabase(path, backupPath)
  renameSync(salvaged, path)
  return report
}

const TABLE_NAMES: Record<string, [string, string]> = {
  threads: ['conversation', 'conversations'],
  messages: ['message', 'messages'],
  thread_summaries: ['summary', 'summaries'],
  message_usage: ['usage record', 'usage records'],
  context_builds: ['inspector build', 'inspector builds'],
  settings: ['setting', 'settings'],
  memories: ['memory', 'memories'],
  memory_history: ['memory history entry', 'memory history entries']
}

const count = (n: number, table: string) => {
  const [one, many] = TABLE_NAMES[table] ?? [table, table]
  return `${n} ${n === 1 ? one : many}`
}

/** The salvage report in words, for the dialog (the renderer has its own translated notice). */
export function describeSalvage(report: SalvageReport, backupPath: string): string {
  const lines: string[] = []
  if (!report.schemaReadable) {
    lines.push('Nothing could be read from the damaged file; the new database is empty.')
  } else {
    const copied = report.tables.filter((t) => t.copied > 0).map((t) => count(t.copied, t.table))
    lines.push(`Recovered: ${copied.length > 0 ? copied.join(', ') : 'nothing'}.`)
    const lost = report.tables
      .filter((t) => t.unreadable + t.invalid > 0 || t.unknownLoss)
      .map((t) =>
        t.unknownLoss
          ? `all ${TABLE_NAMES[t.table]?.[1] ?? t.table}`
          : count(t.unreadable + t.invalid, t.table)
      )
    lines.push(
      lost.length > 0 ? `Could not be read: ${lost.join(', ')}.` : 'Everything could be read.'
    )
    if (report.threadsRecreated > 0) {
      lines.push(
        `${count(report.threadsRecreated, 'threads')} lost ${report.threadsRecreated === 1 ? 'its' : 'their'} title and ${report.threadsRecreated === 1 ? 'is' : 'are'} now called "${RECOVERED_THREAD_TITLE}".`
      )
    }
  }
  lines.push('Search and memory recall are rebuilt in the background.')
  lines.push(`The damaged file is kept unchanged at ${backupPath}.`)
  return lines.join('\n')
}

/** A salvage done while the app ran is shown again after the restart, from this file. */
const reportFile = (path: string) => `${path}.salvage.json`

export function saveSalvageNotice(path: string, backupPath: string, report: SalvageReport): void {
  writeFileSync(reportFile(path), JSON.stringify({ backupPath, report }))
}

export function takeSalvageNotice(
  path: string
): { backupPath: string; report: SalvageReport } | null {
  const file = reportFile(path)
  if (!existsSync(file)) return null
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { backupPath: string; report: SalvageReport }
  } catch {
    return null
  } finally {
    rmSync(file, { force: true })
  }
}

/**
 * Corruption found while the app runs (an IPC call or a background job) leads to the same
 * recovery as at open, once: back up the files as they are now, then let the app ask.
 */
export class CorruptionWatch {
  private started = false

  constructor(
    private readonly path: string,
    private readonly onCorrupt: (backupPath: string) => void
  ) {}

  report(error: unknown): void {
    if (this.started || storageFaultOf(error) !== 'corrupt') return
    this.started = true
    this.onCorrupt(backupDatabaseFiles(this.path))
  }
}
