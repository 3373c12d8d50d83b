import type { Message } from '@shared/domain'

/**
 * One row of the chat: a message, and every version of it. Regenerate makes versions of a
 * reply (each one message); edit-and-resend makes versions of a turn (each earlier one the
 * messages from the edited message up to its replacement, all kept and no longer sent).
 */
export interface MessageRow {
  /** The current version: the reply, or the edited message, nothing replaced. */
  message: Message
  /** Oldest first, ending with `[message]`: what each version shows. */
  versions: Message[][]
  /** 'turn' when the versions are edits: an earlier one stands in for the rest of the list. */
  kind: 'reply' | 'turn'
}

/**
 * Folds replaced messages into the row of what replaced them, following `supersededBy` along
 * the chain. A reply replaced by a reply is an earlier version of it (regenerate); a reply
 * replaced by a user message is the answer to a message that was edited, so that message's
 * turn, up to the edit, is an earlier version of the edit. Something whose successor is not
 * loaded yet stays where it is.
 */
export function rowsOf(messages: readonly Message[]): MessageRow[] {
  const byId = new Map(messages.map((message) => [message.id, message]))
  const indexOf = new Map(messages.map((message, index) => [message.id, index]))
  const successor = (message: Message): Message | undefined =>
    byId.get(message.reply?.supersededBy ?? -1)
  const latestOf = (message: Message): Message => {
    let current = message
    for (let next = successor(current); next; next = successor(current)) {
      current = next
      // A chain never loops in a stored thread; this stops a malformed one all the same.
      if (next === message) break
    }
    return current
  }

  // Edits: the turn of each edited message, by the message that replaced it.
  const earlierTurn = new Map<number, Message[]>()
  const inEarlierTurn = new Set<number>()
  for (const [index, message] of messages.entries()) {
    const edit = successor(message)
    if (message.role !== 'assistant' || edit?.role !== 'user') continue
    const start = messages.findLastIndex((m, i) => i < index && m.role === 'user')
    const end = indexOf.get(edit.id) ?? -1
    if (start < 0 || end <= index) continue
    const turn = messages.slice(start, end)
    for (const part of turn) inEarlierTurn.add(part.id)
    earlierTurn.set(edit.id, turn)
  }
  // An edit edited again: its own earlier turns come first.
  const turnsOf = (edit: Message): Message[][] => {
    const turn = earlierTurn.get(edit.id)
    return turn ? [...turnsOf(turn[0]!), turn] : []
  }

  const earlierReplies = new Map<number, Message[]>()
  const rows: MessageRow[] = []
  for (const message of messages) {
    if (inEarlierTurn.has(message.id)) continue
    const latest = latestOf(message)
    // A reply whose chain ends at an edit but lies outside its earlier turn (malformed) stays put.
    if (latest === message || latest.role === 'user') {
      const turns = message.role === 'user' ? turnsOf(message) : []
      rows.push({ message, versions: [...turns, [message]], kind: turns.length ? 'turn' : 'reply' })
    } else {
      earlierReplies.set(latest.id, [...(earlierReplies.get(latest.id) ?? []), message])
    }
  }
  for (const row of rows) {
    if (row.kind === 'reply') {
      row.versions = [...(earlierReplies.get(row.message.id) ?? []), row.message].map((m) => [m])
    }
  }
  return rows
}

/** What an earlier turn shows: its messages, each regenerated reply at its last version. */
export function shownTurn(turn: readonly Message[]): Message[] {
  const ids = new Set(turn.map((message) => message.id))
  return turn.filter((message) => !ids.has(message.reply?.supersededBy ?? -1))
}
