/**
 * What memory search looks for: the input, and the conversation it belongs to. "Any ideas?"
 * says nothing on its own; after "I finally have a free weekend" it asks for weekend plans.
 * The input stays the main query (its words go to full text, its vector ranks first); the
 * newest turns before it and the active task are the conversation, whose vector, blended with
 * the input's, makes a second list recall fuses with a lower weight
 * (services/memory/searchCandidates.ts), so a self-contained question is not pulled toward
 * whatever was said just before it. The conversation does not depend on the input: it is known
 * when the last reply ends, and embedded then (issue #21), so a send embeds only its input.
 */
import type { ActiveTaskState } from '@shared/context'
import type { Message } from '@shared/domain'

/** What a long input contributes to the query: its head and pieces of the rest, this long. */
export const RECALL_SAMPLE_CHARS = 8_000
const HEAD_CHARS = 4_000
const PIECES = 4

/**
 * A long input as the query reads it: its first 4,000 characters (where a question usually
 * is, and all the embedder reads) and four 1,000-character pieces spread over the rest, the
 * last ending where the input ends. The query's cost then does not depend on the input's
 * length: a 2 M-character paste is read as 8,000 characters of itself, not only its head.
 */
export function recallSample(input: string): string {
  if (input.length <= RECALL_SAMPLE_CHARS) return input
  const piece = (RECALL_SAMPLE_CHARS - HEAD_CHARS) / PIECES
  const parts = [input.slice(0, atCodePoint(input, HEAD_CHARS))]
  const rest = input.length - HEAD_CHARS - piece
  for (let i = 1; i <= PIECES; i++) {
    const start = atCodePoint(input, HEAD_CHARS + Math.round((rest * i) / PIECES))
    parts.push(input.slice(start, atCodePoint(input, start + piece)))
  }
  return parts.join('\n')
}

/**
 * What a recalled item sends: what the gate judged it by (its first 8,000 characters,
 * services/memory/memoryRanking.ts `signalText`) and a note of how much was left out. A stored
 * 2 M-character paste recalled whole would hold the main thread for seconds while the builder
 * counts it, and could never fit a budget anyway. `unread` counts characters after `content`
 * that search never read (it reads a long message's head).
 */
export function recalledExcerpt(content: string, unread = 0): string {
  if (content.length <= RECALL_SAMPLE_CHARS && unread === 0) return content
  const kept = content.slice(0, atCodePoint(content, RECALL_SAMPLE_CHARS))
  const omitted = content.length - kept.length + unread
  return `${kept} […${THOUSANDS.format(omitted)} more characters not recalled]`
}

/** One formatter for every excerpt: `toLocaleString` builds a new one per call. */
const THOUSANDS = new Intl.NumberFormat('en-US')

/** `index`, moved back off the second half of a surrogate pair. */
function atCodePoint(text: string, index: number): number {
  const code = text.charCodeAt(index)
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index
}

/** The newest turns read: the user's previous message and the reply to it, usually. */
const CONTEXT_TURNS = 2
/** Per turn: a long paste would drown the input in the second query. */
const MAX_TURN_CHARS = 300

type Turn = Pick<Message, 'role' | 'content' | 'excluded'>

export interface RecallQuery {
  /** The input itself: the first query. */
  text: string
  /** The active task and the newest turns, without the input; null when there is none. */
  context: string | null
}

/** The input read in its conversation, as one text (what files' chunks are scored against). */
export function queryInContext({ text, context }: RecallQuery): string {
  return context === null ? text : `${context}\n${text}`
}

function clip(text: string): string {
  // Flatten only what can be kept: a turn may be a 2 M-character paste.
  const flat = text
    .slice(0, MAX_TURN_CHARS * 4)
    .replace(/\s+/gu, ' ')
    .trim()
  return flat.length <= MAX_TURN_CHARS ? flat : flat.slice(0, MAX_TURN_CHARS)
}

/** `messages` oldest first, everything the thread holds before the input. */
export function recallQuery(
  input: string,
  messages: readonly Turn[],
  taskState?: ActiveTaskState
): RecallQuery {
  return { text: inputQuery(input), context: conversationQuery(messages, taskState) }
}

/** What the search reads of an input: the first query (`RecallQuery.text`). */
export function inputQuery(input: string): string {
  return recallSample(input).trim()
}

/**
 * The conversation the next input will be read in: the active task and the newest turns of
 * `messages` (oldest first), or null. The same before the user types as when they send.
 */
export function conversationQuery(
  messages: readonly Turn[],
  taskState?: ActiveTaskState
): string | null {
  // The newest turns, found from the end: a long thread is never passed over.
  const newest: Turn[] = []
  for (let i = messages.length - 1; i >= 0 && newest.length < CONTEXT_TURNS; i--) {
    const m = messages[i] as Turn
    if (!m.excluded && (m.role === 'user' || m.role === 'assistant')) newest.unshift(m)
  }
  const turns = newest.map((m) => clip(m.content)).filter((t) => t.length > 0)
  const goal = taskState?.goals.at(-1)
  const task = goal?.status === 'active' ? clip(goal.text) : null
  const parts = [...(task ? [task] : []), ...turns]
  return parts.length === 0 ? null : parts.join('\n')
}
