/**
 * What "/compress" folds into the thread summary: every message after what the summary already
 * covers and before a protected tail. The tail follows the compressor's rule (Hermes'
 * `_find_tail_cut_by_tokens`, see compressor/boundaries.ts): whole tool-call units from the end
 * while they fit a token budget, at least a minimum number of messages whatever they cost, and
 * always reaching back to the last message the user wrote, since it is what the next reply
 * answers. The tail never reaches further back than the current window: what the window no
 * longer sends is folded too, or it would be in neither the summary nor the request.
 *
 * Compression changes what is sent, never what is stored: the plan only moves the summary's
 * `lastMessageSeq`; the messages stay in the thread.
 */
import type { ContextMessage, ThreadSummary } from '@shared/context'
import { indexOfSeq, unitContaining, unitEndingAt } from '../toolCallGroups'

/** Hermes' target ratio: the tail may hold this share of the build's total budget. */
export const TAIL_BUDGET_RATIO = 0.2
/** Messages the tail keeps whatever they cost (the compressor's hard floor). */
export const MIN_TAIL_MESSAGES = 8

export interface ManualCompressionInput {
  /** The thread ordered by seq. */
  messages: readonly ContextMessage[]
  summary: ThreadSummary | null
  /** Tokens the protected tail may hold. */
  tailTokens: number
  /** Messages the tail keeps whatever they cost (excluded messages do not count). */
  minTailMessages?: number
  /** The first seq the current window sends (`windowStartSeq(build)`); null: no limit. */
  windowStartSeq?: number | null
}

type NothingToCompress =
  /** The thread has no messages the user did not exclude. */
  | 'empty'
  /** Every message before the tail is already in the summary (or excluded). */
  | 'all_in_tail'

export interface ManualCompressionPlan {
  /** The messages folded into the summary, without those the user excluded. */
  messages: ContextMessage[]
  /** The new summary's `lastMessageSeq` (unchanged when there is nothing to fold). */
  lastMessageSeq: number
  /** Stored token counts of `messages`. */
  tokens: number
  /** Messages the tail keeps verbatim (excluded ones not counted). */
  tailMessages: number
  /** Set when `messages` is empty. */
  nothing: NothingToCompress | null
}

export function planManualCompression(input: ManualCompressionInput): ManualCompressionPlan {
  const { messages } = input
  const minMessages = input.minTailMessages ?? MIN_TAIL_MESSAGES
  const coveredSeq = input.summary?.lastMessageSeq ?? 0
  // The first index after what the summary covers.
  let first = 0
  while (first < messages.length && messages[first]!.seq <= coveredSeq) first++

  let tailStart = messages.length
  let tokens = 0
  let kept = 0
  while (tailStart > first) {
    const unit = unitEndingAt(messages, tailStart - 1)
    const start = Math.max(first, unit.start)
    let unitTokens = 0
    let unitCount = 0
    for (let i = start; i < tailStart; i++) {
      const m = messages[i]!
      if (m.excluded) continue
      unitTokens += m.tokenCount
      unitCount++
    }
    if (kept >= minMessages && tokens + unitTokens > input.tailTokens) break
    tokens += unitTokens
    kept += unitCount
    tailStart = start
  }

  // What the window no longer sends is folded too (it would be in neither place otherwise).
  if (input.windowStartSeq != null) {
    const windowIndex = firstIndexAtOrAfter(messages, input.windowStartSeq)
    if (windowIndex > tailStart) tailStart = unitContaining(messages, windowIndex).start
  }
  // The last message the user wrote always stays verbatim.
  const lastUser = lastUserIndex(messages)
  if (lastUser >= 0 && lastUser < tailStart) tailStart = unitContaining(messages, lastUser).start
  if (tailStart < first) tailStart = first

  const folded = messages.slice(first, tailStart).filter((m) => !m.excluded)
  const tailMessages = messages.slice(tailStart).filter((m) => !m.excluded).length
  const anyLeft = messages.some((m) => !m.excluded)
  return {
    messages: folded,
    lastMessageSeq: folded.length > 0 ? messages[tailStart - 1]!.seq : coveredSeq,
    tokens: folded.reduce((sum, m) => sum + m.tokenCount, 0),
    tailMessages,
    nothing: folded.length > 0 ? null : anyLeft ? 'all_in_tail' : 'empty'
  }
}

function lastUserIndex(messages: readonly ContextMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role === 'user' && !m.excluded) return i
  }
  return -1
}

function firstIndexAtOrAfter(messages: readonly ContextMessage[], seq: number): number {
  const exact = indexOfSeq(messages, seq)
  if (exact !== -1) return exact
  const next = messages.findIndex((m) => m.seq > seq)
  return next === -1 ? messages.length : next
}
