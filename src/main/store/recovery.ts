import { existsSync, rmSync } from 'node:fs'

/**
 * Removes a damaged database so a new one can be created in its place. Only called after the
 * user agreed and a backup copy exists (see DatabaseOpenError.backupPath).
 */
export function discardDamagedDatabase(path: string, backupPath: string): void {
  if (!existsSync(backupPath)) {
    throw new Error(`Refusing to remove ${path}: its backup ${backupPath} is missing.`)
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })
}
