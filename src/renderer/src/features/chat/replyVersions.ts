import type { Message } from '@shared/domain'

/** One row of the chat: a message, and every version of it when it is a regenerated reply. */
export interface MessageRow {
  /** The current version: the reply nothing replaced. */
  message: Message
  /** Oldest first, ending with `message`; one entry for a message with no other version. */
  versions: Message[]
}

/**
 * Folds regenerated replies into one row each: a reply replaced by a newer one (its
 * `supersededBy`, followed along the chain) is shown as an earlier version of that one instead
 * of inline. A reply whose successor is not loaded yet stays where it is.
 */
export function rowsOf(messages: readonly Message[]): MessageRow[] {
  const byId = new Map(messages.map((message) => [message.id, message]))
  const latestOf = (message: Message): Message => {
    let current = message
    for (let next = byId.get(current.reply?.supersededBy ?? -1); next;) {
      current = next
      next = byId.get(current.reply?.supersededBy ?? -1)
      // A chain never loops in a stored thread; this stops a malformed one all the same.
      if (next === message) break
    }
    return current
  }
  const earlier = new Map<number, Message[]>()
  const rows: MessageRow[] = []
  for (const message of messages) {
    const latest = latestOf(message)
    if (latest === message) rows.push({ message, versions: [] })
    else earlier.set(latest.id, [...(earlier.get(latest.id) ?? []), message])
  }
  for (const row of rows) row.versions = [...(earlier.get(row.message.id) ?? []), row.message]
  return rows
}
