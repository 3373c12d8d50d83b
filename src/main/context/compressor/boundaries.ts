/**
 * Phase 2: where the protected head ends and the protected tail starts. Everything between is
 * summarized. Cuts fall between tool-call groups, and the last user message is always in the
 * tail: it is what the next reply answers.
 */
import type { ProviderMessage } from '@shared/context'
import { readEmbeddedSummary } from './assembleCompressed'
import { alignBoundaryBackward, groupEnd, groupStart } from './messageGroups'

export interface TailOptions {
  /** Tokens the tail may hold (Hermes: threshold × target ratio). */
  tokenBudget: number
  /** Messages the tail keeps even over its budget. */
  minMessages: number
  tokensOf: (index: number) => number
}

/**
 * The end of the protected head: the leading system messages (the system prompt, and the
 * builder's summary and memories when compressing a build) plus the first `protectFirstN`
 * other messages, the first exchange, pulled back so it does not end inside a tool group.
 */
export function protectedHeadEnd(
  messages: readonly ProviderMessage[],
  protectFirstN: number
): number {
  let end = 0
  while (messages[end]?.role === 'system') end++
  let taken = 0
  while (end < messages.length && taken < protectFirstN) {
    if (messages[end]!.role !== 'system') taken++
    end++
  }
  return alignBoundaryBackward(messages, end)
}

/**
 * The start of the protected tail: whole groups from the end while they fit the token budget,
 * and at least `minMessages` messages whatever they cost; never inside the head.
 */
export function protectedTailStart(
  messages: readonly ProviderMessage[],
  headEnd: number,
  options: TailOptions
): number {
  let start = messages.length
  let tokens = 0
  while (start > headEnd) {
    const unitStart = Math.max(headEnd, groupStart(messages, start - 1))
    let unitTokens = 0
    for (let i = unitStart; i < start; i++) unitTokens += options.tokensOf(i)
    const kept = messages.length - start
    if (kept >= options.minMessages && tokens + unitTokens > options.tokenBudget) break
    tokens += unitTokens
    start = unitStart
  }
  return start
}

/** An earlier compression's summary standing alone (not merged into a message). */
function isStandaloneSummary(message: ProviderMessage): boolean {
  return message.role !== 'system' && readEmbeddedSummary(message.content)?.rest === null
}

/** The last message the user wrote (a standalone summary with the user role is not one). */
function lastUserIndex(messages: readonly ProviderMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role === 'user' && !isStandaloneSummary(m)) return i
  }
  return -1
}

/** The last message carrying an earlier compression's summary, or -1. */
export function embeddedSummaryIndex(messages: readonly ProviderMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role !== 'system' && readEmbeddedSummary(m.content)) return i
  }
  return -1
}

export interface Boundaries {
  headEnd: number
  tailStart: number
  /** A head or tail message whose earlier summary must be taken out of it (-1: none). */
  stripSummaryAt: number
}

/**
 * Head and tail for one pass:
 * 1. the protected head, then the tail by token budget;
 * 2. the last user message must survive: if it is the first message after the head it joins
 *    the head (so a long tool loop after an old request can still be compressed), otherwise
 *    the tail reaches back to it;
 * 3. an earlier summary in the tail moves into the middle (with its tool group), so the new
 *    summary absorbs it instead of standing beside it; if that would take the last user
 *    message or the whole tail with it (or the summary sits in the head), the message stays
 *    and the caller takes the summary out of it.
 */
export function chooseBoundaries(
  messages: readonly ProviderMessage[],
  baseHeadEnd: number,
  tail: TailOptions
): Boundaries {
  let headEnd = baseHeadEnd
  let tailStart = protectedTailStart(messages, headEnd, tail)
  const lastUser = lastUserIndex(messages)
  if (lastUser >= headEnd && lastUser < tailStart) {
    if (lastUser === headEnd) headEnd++
    else tailStart = lastUser
  }
  let stripSummaryAt = -1
  const summaryAt = embeddedSummaryIndex(messages)
  if (tailStart > headEnd && summaryAt >= tailStart) {
    const after = groupEnd(messages, summaryAt) + 1
    const keepsLastUser = lastUser >= after || lastUser < headEnd
    if (after < messages.length && keepsLastUser) tailStart = after
    else stripSummaryAt = summaryAt
  } else if (tailStart > headEnd && summaryAt >= 0 && summaryAt < headEnd) {
    // Merged into the user message that joined the head.
    stripSummaryAt = summaryAt
  }
  return { headEnd, tailStart, stripSummaryAt }
}
