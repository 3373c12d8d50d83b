import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type Database from 'better-sqlite3'
import type { Language, SalvageReport } from '@shared/domain'
import {
  backupDatabaseFiles,
  DatabaseOpenError,
  openDatabase,
  type OpenOptions
} from './store/database'
import { discardDamagedDatabase } from './store/recovery'
import { RECOVERED_THREAD_TITLE, removeDatabaseFiles, salvageDatabase } from './store/salvage'
import { storageFaultOf } from './store/storageFaults'
import { describeOpenFailure } from './store/openFailureText'
import { DIALOG_TEXT, type DialogText } from './startup/dialogText'

/**
 * What the user sees when the store cannot be used, and what each choice does. Electron's
 * dialog is passed in (startApp.ts), so this runs under plain Node in tests.
 */
export interface RecoveryDialogs {
  /** The language the dialogs speak: the system's, as the store is not open (English if unset). */
  language?: Language
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

/** The English buttons; the dialogs show DIALOG_TEXT[language].choices. */
export const CHOICES = DIALOG_TEXT.en.choices

type Choice = keyof DialogText['choices']

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
  const language = dialogs.language ?? 'en'
  const text = DIALOG_TEXT[language]
  for (;;) {
    try {
      return { db: openDatabase(path, options), recoveredFrom: null, salvage: null }
    } catch (error) {
      if (!(error instanceof DatabaseOpenError)) throw error
      const choices = choicesFor(error)
      const chosen: Choice | undefined =
        choices[
          dialogs.ask({
            type: 'error',
            message: text.titles[error.kind],
            detail: describeOpenFailure(error.facts, language),
            buttons: choices.map((choice) => text.choices[choice])
          })
        ]
      if (chosen === 'retry') continue
      if (chosen === 'startEmpty') {
        // Only a file that is still empty is replaced: there is nothing in it to keep.
        if (statSync(path).size === 0) removeDatabaseFiles(path)
        continue
      }
      if (chosen !== 'recover' || !error.backupPath) return null
      const salvage = await salvageInPlace(path, error.backupPath, salvager)
      dialogs.ask({
        type: 'info',
        message: text.recoveryFinished,
        detail: describeSalvage(salvage, error.backupPath, language),
        buttons: [text.choices.continue]
      })
      return { db: openDatabase(path, options), recoveredFrom: error.backupPath, salvage }
    }
  }
}

function choicesFor(error: DatabaseOpenError): Choice[] {
  switch (error.kind) {
    case 'corrupt':
      return ['recover', 'quit']
    case 'empty':
      return ['startEmpty', 'retry', 'quit']
    case 'readonly':
    case 'full':
    case 'unreadable':
      return ['retry', 'quit']
    case 'too_new':
      return ['quit']
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

/** The salvage report in words, for the dialog (the renderer has its own translated notice). */
export function describeSalvage(
  report: SalvageReport,
  backupPath: string,
  language: Language = 'en'
): string {
  const words = DIALOG_TEXT[language].salvage
  const lines: string[] = []
  if (!report.schemaReadable) {
    lines.push(words.nothingRead)
  } else {
    const copied = report.tables.filter((t) => t.copied > 0)
    lines.push(words.recovered(copied.map((t) => words.count(t.copied, t.table))))
    const lost = report.tables
      .filter((t) => t.unreadable + t.invalid > 0 || t.unknownLoss)
      .map((t) =>
        t.unknownLoss ? words.allOf(t.table) : words.count(t.unreadable + t.invalid, t.table)
      )
    lines.push(lost.length > 0 ? words.couldNotRead(lost) : words.everythingRead)
    if (report.threadsRecreated > 0) {
      lines.push(words.retitled(report.threadsRecreated, RECOVERED_THREAD_TITLE))
    }
  }
  lines.push(words.rebuilding)
  lines.push(words.keptAt(backupPath))
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
