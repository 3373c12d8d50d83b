/**
 * What memory search looks for: the input, and the conversation it belongs to. "Any ideas?"
 * says nothing on its own; after "I finally have a free weekend" it asks for weekend plans.
 * The input stays the main query (its words go to full text, its vector ranks first); the
 * newest turns before it and the active task form a second query whose vector list recall
 * fuses with a lower weight (services/memory/hybridSearch.ts), so a self-contained question is not
 * pulled toward whatever was said just before it.
 */
import type { ActiveTaskState } from '@shared/context'
import type { Message } from '@shared/domain'

/** The newest turns read: the user's previous message and the reply to it, usually. */
const CONTEXT_TURNS = 2
/** Per turn: a long paste would drown the input in the second query. */
const MAX_TURN_CHARS = 300

type Turn = Pick<Message, 'role' | 'content' | 'excluded'>

export interface RecallQuery {
  /** The input itself: the first query. */
  text: string
  /** The active task and the newest turns, then the input; null when there is none. */
  context: string | null
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
  const text = input.trim()
  // The newest turns, found from the end: a long thread is never passed over.
  const newest: Turn[] = []
  for (let i = messages.length - 1; i >= 0 && newest.length < CONTEXT_TURNS; i--) {
    const m = messages[i] as Turn
    if (!m.excluded && (m.role === 'user' || m.role === 'assistant')) newest.unshift(m)
  }
  const turns = newest.map((m) => clip(m.content)).filter((t) => t.length > 0)
  const goal = taskState?.goals.at(-1)
  const task = goal?.status === 'active' ? clip(goal.text) : null
  const parts = [...(task && task !== text ? [task] : []), ...turns]
  return { text, context: parts.length === 0 ? null : [...parts, text].join('\n') }
}
