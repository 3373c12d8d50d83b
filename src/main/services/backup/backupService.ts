import { existsSync, mkdirSync } from 'node:fs'
import { copyFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import type { BackupInfo, BackupReason, RestoreOutcome } from '@shared/domain'
import { AppError } from '@shared/result'
import type { Publish } from '../events'
import {
  backupName,
  listBackups,
  parseBackupName,
  pruneBackups,
  swapDatabaseFile
} from './backupFiles'
import { checkRestoreCandidate, type RestoreCheck } from '../../store/restoreCheck'

/** Backups kept in the folder; the oldest go first. */
export const DEFAULT_KEPT_BACKUPS = 10

/**
 * Pages copied per step of the online backup; the event loop runs between steps. At 64 a step
 * took under 20 ms here (256: up to 90 ms); the last step, which finishes the file, up to 0.18 s.
 */
const PAGES_PER_STEP = 64

export interface BackupServiceDeps {
  db: Database.Database
  databasePath: string
  /** The backups folder (`backups/` in the user data folder). */
  dir: string
  now: () => number
  publish: Publish
  keep?: number
  /** better-sqlite3 for Electron's ABI, to open a restore candidate. */
  nativeBinding?: string
  /**
   * Closes the store, runs `swap` (which puts the checked file in place and keeps the current
   * one aside), then reopens the store or relaunches the app. Absent: restore is unavailable.
   */
  reopen?: (swap: () => string) => Promise<void>
  /**
   * Checks a restore candidate; the app runs it in a worker thread (restoreCheckWorker.ts),
   * tests and the fallback in process.
   */
  check?: (path: string) => Promise<RestoreCheck>
  /** Asks the user for a file to restore (a dialog in main); null when cancelled. Absent: none. */
  pickFile?: () => Promise<string | null>
}

/**
 * Backups with SQLite's online backup API while the app runs (writes go on; rows committed
 * before the backup ends are in it), and restore of a checked file.
 */
export class BackupService {
  private running: Promise<BackupInfo> | null = null

  constructor(private readonly deps: BackupServiceDeps) {}

  list(): BackupInfo[] {
    return listBackups(this.deps.dir)
  }

  /** One backup at a time: a second request while one runs gets the same backup. */
  backupNow(reason: BackupReason): Promise<BackupInfo> {
    this.running ??= this.run(reason).finally(() => {
      this.running = null
    })
    return this.running
  }

  private async run(reason: BackupReason): Promise<BackupInfo> {
    const { dir, db, now, publish } = this.deps
    mkdirSync(dir, { recursive: true })
    const name = backupName(reason, now())
    const path = join(dir, name)
    const partial = `${path}.partial`
    try {
      let totalPages = 0
      await db.backup(partial, {
        progress: (step) => {
          totalPages = step.totalPages
          publish('backup:progress', { name, ...step })
          return PAGES_PER_STEP
        }
      })
      // SQLite reports the steps before the last one; the copy is now complete.
      publish('backup:progress', { name, totalPages, remainingPages: 0 })
      // A backup is listed only once it is whole.
      await rename(partial, path)
    } finally {
      await rm(partial, { force: true })
    }
    pruneBackups(dir, this.deps.keep ?? DEFAULT_KEPT_BACKUPS)
    const info = this.list().find((backup) => backup.name === name)
    if (!info) throw new Error(`The backup ${name} was not written.`)
    return info
  }

  /** A backup from the list, by name. */
  async restore(name: string): Promise<RestoreOutcome> {
    if (!parseBackupName(name) || !this.list().some((backup) => backup.name === name)) {
      throw new AppError('not_found', 'This backup no longer exists.')
    }
    return this.restoreFrom(join(this.deps.dir, name))
  }

  /** A file the user picks; null when the dialog was cancelled (or there is no dialog). */
  async restoreFile(): Promise<RestoreOutcome | null> {
    const path = (await this.deps.pickFile?.()) ?? null
    return path === null ? null : this.restoreFrom(path)
  }

  /**
   * Checks a copy of the file, never the file itself, so a refused restore changes nothing:
   * neither the chosen file nor the database. Only a copy that passed goes in.
   */
  private async restoreFrom(source: string): Promise<RestoreOutcome> {
    const { databasePath, reopen, now } = this.deps
    if (!reopen) throw new AppError('invalid_input', 'Restoring is not available here.')
    if (!existsSync(source)) throw new AppError('not_found', 'The file to restore does not exist.')
    const candidate = `${databasePath}.restore-candidate`
    await this.removeCandidate(candidate)
    try {
      await copyFile(source, candidate)
      if (existsSync(`${source}-wal`)) await copyFile(`${source}-wal`, `${candidate}-wal`)
    } catch (error) {
      await this.removeCandidate(candidate)
      const detail = error instanceof Error ? error.message : String(error)
      throw new AppError('invalid_input', `The file could not be copied (${detail}).`)
    }
    const check = this.deps.check
      ? await this.deps.check(candidate).catch((error: unknown): RestoreCheck => ({
          ok: false,
          reason: `The check could not run (${error instanceof Error ? error.message : String(error)}).`
        }))
      : checkRestoreCandidate(candidate, this.deps.nativeBinding)
    if (!check.ok) {
      await this.removeCandidate(candidate)
      throw new AppError('invalid_input', `Not restored: ${check.reason} Nothing was changed.`)
    }
    let keptAt = ''
    await reopen(() => (keptAt = swapDatabaseFile(databasePath, candidate, now())))
    return { restoredFrom: source, keptAt, threads: check.threads, messages: check.messages }
  }

  private async removeCandidate(candidate: string): Promise<void> {
    for (const suffix of ['', '-wal', '-shm']) await rm(candidate + suffix, { force: true })
  }
}
