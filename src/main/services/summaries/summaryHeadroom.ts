/**
 * Headroom for summarizing: the messages a summary request folds in are split into batches
 * that each fit the summarizing model's window next to the previous summary, the prompt and the
 * reply, so a manual "/compress" always fits however much it folds; each batch updates the
 * summary the next one starts from (the iterative update the prompt is written for).
 */
import type { ContextMessage } from '@shared/context'

/** The prompt's own instructions and framing, generously. */
export const PROMPT_OVERHEAD_TOKENS = 1_000

/** Tokens one batch may hold: the window less the reply, the previous summary and the prompt. */
export function batchRoom(
  contextWindow: number,
  replyTokens: number,
  previousSummaryTokens: number
): number {
  return Math.max(1, contextWindow - replyTokens - previousSummaryTokens - PROMPT_OVERHEAD_TOKENS)
}

/**
 * Consecutive batches of at most `room` stored tokens each, in order; a message larger than the
 * room is a batch of its own (nothing smaller can carry it).
 */
export function batchesWithin<T extends Pick<ContextMessage, 'tokenCount'>>(
  messages: readonly T[],
  room: number
): T[][] {
  const batches: T[][] = []
  let current: T[] = []
  let tokens = 0
  for (const message of messages) {
    if (current.length > 0 && tokens + message.tokenCount > room) {
      batches.push(current)
      current = []
      tokens = 0
    }
    current.push(message)
    tokens += message.tokenCount
  }
  if (current.length > 0) batches.push(current)
  return batches
}
