/**
 * SQLite failures the user must hear about in their own words, at open and at run time alike.
 * better-sqlite3 reports extended result codes (`SQLITE_CORRUPT_VTAB`, `SQLITE_READONLY_DIRECTORY`,
 * ...), so each kind is a family of codes.
 */
export type StorageFault = 'corrupt' | 'full' | 'readonly'

export function sqliteCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined
}

export function storageFaultOf(error: unknown): StorageFault | null {
  const code = sqliteCode(error)
  if (!code) return null
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'corrupt'
  if (code === 'SQLITE_FULL') return 'full'
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM') return 'readonly'
  return null
}

/** What a failed call tells the renderer for each fault (the renderer shows its own translation). */
export const FAULT_MESSAGES: Record<StorageFault, string> = {
  corrupt:
    'The conversation database is damaged, so this could not be read or saved. A copy of the file is being kept and you will be offered a recovery of everything that can still be read.',
  full: 'The disk is full, so this was not saved. Free some space and try again; your text is kept, and nothing saved before was lost.',
  readonly:
    'The conversation database is read-only, so this was not saved. Check that you may write to the file and its folder, then try again.'
}
