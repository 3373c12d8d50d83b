import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { BackupInfo, BackupReason } from '@shared/domain'

const PREFIX = 'context-lens-'
const SUFFIX = '.sqlite'
const NAME =
  /^context-lens-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)-(manual|pre-migration|pre-import)\.sqlite$/

/** The backups folder beside the database: the user data folder's `backups/` in the app. */
export const backupsDirFor = (databasePath: string) => join(dirname(databasePath), 'backups')

/** `context-lens-2026-11-24T10-00-00-000Z-manual.sqlite`: sorts by time, says why. */
export function backupName(reason: BackupReason, at: number): string {
  return `${PREFIX}${new Date(at).toISOString().replace(/[:.]/g, '-')}-${reason}${SUFFIX}`
}

/** A name this app wrote, or null: the list never offers a file it did not make. */
export function parseBackupName(name: string): { reason: BackupReason; createdAt: number } | null {
  const match = NAME.exec(name)
  if (!match) return null
  const [date, time] = (match[1] as string).split('T') as [string, string]
  const [h, m, s, ms] = time.slice(0, -1).split('-')
  const createdAt = Date.parse(`${date}T${h}:${m}:${s}.${ms}Z`)
  return Number.isNaN(createdAt) ? null : { reason: match[2] as BackupReason, createdAt }
}

/** Newest first. */
export function listBackups(dir: string): BackupInfo[] {
  if (!existsSync(dir)) return []
  const backups: BackupInfo[] = []
  for (const name of readdirSync(dir)) {
    const parsed = parseBackupName(name)
    if (!parsed) continue
    const stat = statSync(join(dir, name), { throwIfNoEntry: false })
    if (stat?.isFile()) backups.push({ name, ...parsed, bytes: stat.size })
  }
  return backups.sort((a, b) => b.createdAt - a.createdAt || b.name.localeCompare(a.name))
}

/** Keeps the newest `keep` backups; older ones are removed with their side files. */
export function pruneBackups(dir: string, keep: number): void {
  for (const old of listBackups(dir).slice(keep)) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, old.name + suffix), { force: true })
  }
}

/**
 * Puts a checked candidate in place of the (closed) database. The current file is renamed,
 * never deleted, so a restore can be undone by hand; returns where it was kept.
 */
export function swapDatabaseFile(databasePath: string, candidate: string, at: number): string {
  const aside = `${databasePath}.before-restore-${new Date(at).toISOString().replace(/[:.]/g, '-')}`
  const moved: string[] = []
  try {
    for (const suffix of ['', '-wal', '-shm']) {
      if (!existsSync(databasePath + suffix)) continue
      renameSync(databasePath + suffix, aside + suffix)
      moved.push(suffix)
    }
    renameSync(candidate, databasePath)
  } catch (error) {
    // Put the current database back, so the app never starts on a missing file (a new, empty one).
    for (const suffix of moved) renameSync(aside + suffix, databasePath + suffix)
    throw error
  }
  return aside
}
