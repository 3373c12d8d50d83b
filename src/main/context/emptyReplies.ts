/**
 * A model reply with no text and no tool calls (an empty completion, a reasoning model that
 * spent its whole output limit thinking) is kept in the thread, marked, but never sent back:
 * an empty assistant turn teaches the model nothing, some APIs reject it (Anthropic), and
 * others answer it with another empty reply. The trace lists each one, so the inspector says
 * why it is missing from the request.
 */
import type { TokenMeter } from './messageTokens'
import type { ContextMessage, TraceEntry } from '@shared/context'

export function isEmptyReply(message: ContextMessage): boolean {
  return (
    message.role === 'assistant' &&
    (message.toolCalls === null || message.toolCalls.length === 0) &&
    message.content.trim() === ''
  )
}

/** The messages that can be sent, and a trace entry for every empty reply left out. */
export function withoutEmptyReplies(
  messages: readonly ContextMessage[],
  meter: TokenMeter
): { sendable: readonly ContextMessage[]; entries: TraceEntry[] } {
  if (!messages.some(isEmptyReply)) return { sendable: messages, entries: [] }
  const sendable: ContextMessage[] = []
  const entries: TraceEntry[] = []
  for (const message of messages) {
    if (!isEmptyReply(message)) {
      sendable.push(message)
      continue
    }
    entries.push({
      id: String(message.id),
      kind: 'message',
      section: 'recent',
      tokens: meter.stored(message.tokenCount),
      decision: 'empty_reply',
      seq: message.seq,
      role: message.role,
      note: 'the model sent no text; an empty reply is never sent back'
    })
  }
  return { sendable, entries }
}
