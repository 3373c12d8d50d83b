/** Storage failures by error code; the main process's English text is the fallback. */
export const storageErrors = {
  storage_corrupt:
    'The conversation database is damaged, so this could not be read or saved. A copy of the file is being kept and you will be offered a recovery of everything that can still be read.',
  storage_full:
    'The disk is full, so this was not saved. Free some space and try again; your text is kept, and nothing saved before was lost.',
  storage_readonly:
    'The conversation database is read-only, so this was not saved. Check that you may write to the file and its folder, then try again.'
}
