/** Thread titles are one line of at most 200 characters (the contract's limit for renames). */
const MAX_TITLE_CHARS = 200

const UNTITLED_IMPORT = 'Imported conversation'

export function importTitle(title: unknown): string {
  const line = typeof title === 'string' ? title.replace(/\s+/gu, ' ').trim() : ''
  return line === '' ? UNTITLED_IMPORT : Array.from(line).slice(0, MAX_TITLE_CHARS).join('')
}
