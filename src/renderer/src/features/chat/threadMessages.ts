import type { Message } from '@shared/domain'

/**
 * The list with `message` in it: replaced where it is, or inserted in `seq` order. Events and
 * answers arrive in any order (a tool step is announced before the send that caused it
 * answers), so appending would put a reply above the message it answers.
 */
export function withMessage(messages: readonly Message[], message: Message): Message[] {
  if (messages.some((candidate) => candidate.id === message.id)) {
    return messages.map((candidate) => (candidate.id === message.id ? message : candidate))
  }
  const at = messages.findIndex((candidate) => candidate.seq > message.seq)
  return at < 0
    ? [...messages, message]
    : [...messages.slice(0, at), message, ...messages.slice(at)]
}
