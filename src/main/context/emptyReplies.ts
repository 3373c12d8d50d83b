/**
 * A model reply with no text and no tool calls (an empty completion, a reasoning model that
 * spent its whole output limit thinking) is kept in the thread, marked, but never sent back:
 * an empty assistant turn teaches the model nothing, some APIs reject it (Anthropic), and
 * others answer it with another empty reply. The trace lists each one, so the inspector says
 * why it is missing from the request.
 */
import type { TokenMeter } from './tokens/messageTokens'
import type { ContextMessage, TraceEntry } from '@shared/context'

/** Any character that is not white space (as `trim` counts it). */
const VISIBLE = /\S/

/**
 * Whether a model's text says anything: the one test of an empty reply, when it is stored
 * (replyStream.ts), built (below) and mapped for a provider (messageMapping.ts). Not
 * `trim() !== ''`: that copies the text, and builds run this over every message after the
 * summary (twice when the safety net rebuilds).
 */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text)
}

export function isEmptyReply(message: ContextMessage): boolean {
  return (
    message.role === 'assistant' &&
    (message.toolCalls === null || message.toolCalls.length === 0) &&
    !hasVisibleText(message.content)
  )
}

/**
 * The messages that can be sent, and a trace entry for every empty reply left out, among
 * `messages[from..]`: the ones after the summary's boundary, the only ones the window can
 * send. Messages before `from` are returned as they are, at the same indexes. `known`: the
 * indexes of all of `messages`' empty replies, ascending, when the caller keeps them; without
 * them every message's text is read (7.5 ms at 100,000 messages in the whole-turn bench, on
 * every build; the window itself reads only their stored token counts).
 */
export function withoutEmptyReplies(
  messages: readonly ContextMessage[],
  from: number,
  meter: TokenMeter,
  known?: readonly number[]
): { sendable: readonly ContextMessage[]; entries: TraceEntry[] } {
  const empty = known
    ? known.filter((index) => index >= from && index < messages.length)
    : emptyRepliesFrom(messages, from)
  if (empty.length === 0) return { sendable: messages, entries: [] }
  const sendable: ContextMessage[] = messages.slice(0, empty[0])
  const entries: TraceEntry[] = []
  const skipped = new Set(empty)
  for (let i = empty[0] as number; i < messages.length; i++) {
    const message = messages[i] as ContextMessage
    if (!skipped.has(i)) {
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

function emptyRepliesFrom(messages: readonly ContextMessage[], from: number): number[] {
  const found: number[] = []
  for (let i = from; i < messages.length; i++) {
    if (isEmptyReply(messages[i] as ContextMessage)) found.push(i)
  }
  return found
}
