/**
 * The composer's one command: "/compress" or "/compress <focus>" folds the older part of the
 * thread into its summary instead of being sent as a message. A full-width slash (typed with
 * a Chinese input method) works too. Anything else that starts with "/" ("/etc/hosts is
 * missing") is an ordinary message.
 */
import { MAX_FOCUS_CHARS } from '@shared/summaryCompression'

export const COMPRESS_COMMAND = '/compress'

const COMMAND = /^\s*[/／]compress(?:\s+([\s\S]*))?$/i

export interface CompressCommand {
  focusTopic: string | null
}

export function parseCompressCommand(text: string): CompressCommand | null {
  const match = COMMAND.exec(text)
  if (!match) return null
  const focus = (match[1] ?? '').trim().replace(/\s+/g, ' ')
  return { focusTopic: focus ? focus.slice(0, MAX_FOCUS_CHARS) : null }
}

/** True while the first word is "/" or a prefix of "/compress": show the command's help line. */
export function looksLikeCommand(text: string): boolean {
  const word = text.trimStart().replace(/^／/, '/').split(/\s/, 1)[0]!.toLowerCase()
  return word.startsWith('/') && COMPRESS_COMMAND.startsWith(word)
}
