/**
 * When a thread's stored summary should grow, and by which messages. The summary covers the
 * messages up to a seq; the builder's window sends the newest ones verbatim; what falls between
 * (no longer in the window, not yet summarized) is what the model currently does not see.
 * Once that gap holds enough tokens, the service updates the summary in the background.
 */
import type { BuiltContext, ContextMessage, ProviderMessage, ThreadSummary } from '@shared/context'
import { indexOfSeq, summaryCoveredEnd } from '../toolCallGroups'

export interface SummaryUpdateInput {
  /** The thread ordered by seq. */
  messages: readonly ContextMessage[]
  summary: ThreadSummary | null
  /** The first seq the last build sent from its window (`windowStartSeq(built)`). */
  windowStartSeq: number | null
  /** Update once the unsummarized messages outside the window hold this many tokens. */
  minTokens: number
}

export interface SummaryUpdatePlan {
  due: boolean
  /** The messages the update adds, without those the user excluded. */
  messages: ContextMessage[]
  /** The new summary's `lastMessageSeq`. */
  lastMessageSeq: number
  /** Stored token counts of `messages`. */
  tokens: number
}

/** The oldest message the build sent from its window (pinned messages do not count). */
export function windowStartSeq(built: BuiltContext): number | null {
  let start: number | null = null
  for (const entry of built.trace) {
    if (entry.kind === 'message' && entry.decision === 'included' && entry.seq !== undefined) {
      start = start === null ? entry.seq : Math.min(start, entry.seq)
    }
  }
  return start
}

export function planSummaryUpdate(input: SummaryUpdateInput): SummaryUpdatePlan {
  const coveredSeq = input.summary?.lastMessageSeq ?? -Infinity
  const windowStart = input.windowStartSeq ?? Infinity
  const last = input.messages.at(-1)
  const idle: SummaryUpdatePlan = {
    due: false,
    messages: [],
    lastMessageSeq: input.summary?.lastMessageSeq ?? 0,
    tokens: 0
  }
  if (!last) return idle
  // The gap ends just before the window; a tool group the window starts inside is left whole.
  const gapEndSeq = Math.min(windowStart - 1, last.seq)
  const end = summaryCoveredEnd(input.messages, gapEndSeq)
  const startIndex = coveredSeq === -Infinity ? 0 : firstIndexAfter(input.messages, coveredSeq)
  if (end < startIndex) return idle
  const messages = input.messages.slice(startIndex, end + 1).filter((m) => !m.excluded)
  const tokens = messages.reduce((sum, m) => sum + m.tokenCount, 0)
  return {
    due: messages.length > 0 && tokens >= input.minTokens,
    messages,
    lastMessageSeq: input.messages[end]!.seq,
    tokens
  }
}

function firstIndexAfter(messages: readonly ContextMessage[], seq: number): number {
  const exact = indexOfSeq(messages, seq)
  if (exact !== -1) return exact + 1
  const next = messages.findIndex((m) => m.seq > seq)
  return next === -1 ? messages.length : next
}

export function toProviderMessage(message: ContextMessage): ProviderMessage {
  const result: ProviderMessage = { role: message.role, content: message.content }
  if (message.toolCalls && message.toolCalls.length > 0) result.toolCalls = [...message.toolCalls]
  if (message.toolCallId) result.toolCallId = message.toolCallId
  return result
}
