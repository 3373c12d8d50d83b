/**
 * Where the chunked window starts. A sliding window moves by a message or two every turn once a
 * thread outgrows it, so every request differs from the previous one right after the summary
 * and the provider's prompt cache serves almost nothing. The chunked window instead cuts on a
 * grid: the thread's window candidates, counted from the summary boundary, are divided into
 * chunks of CHUNK_SHARE of the total budget, and the window starts at the first chunk boundary
 * at or after the oldest message the budget could hold. It so fills up to the budget and then
 * drops a whole chunk at once (the hysteresis: from full back to a chunk below full), and in
 * between the history it sends grows at the end only, a byte-identical prefix.
 *
 * The cut is a pure function of the thread, the budget and the configuration: no state is kept
 * between builds, so `npm run ctx -- build` on consecutive turns shows the prefix the app sends.
 * The grid depends only on the configuration (the total budget), never on per-turn sizes, so a
 * longer input or more memories this turn moves the cut only when it crosses a boundary.
 */
import type { ContextMessage } from '@shared/context'
import { unitEndingAt } from '../toolCallGroups'

/**
 * Chunk size as a share of the total budget, measured with `npm run ctx -- simulate` over
 * LoCoMo conversations and a synthetic chat at 4k-16k (docs/CONTEXT.md, "The window"): larger
 * chunks keep the prefix longer but send less history on average.
 */
const CHUNK_SHARE = 0.15

/** The chunk size in tokens for a total budget; never more than half the window's budget. */
export function chunkTokens(totalBudget: number, windowBudget: number): number {
  return Math.max(1, Math.min(Math.floor(totalBudget * CHUNK_SHARE), Math.floor(windowBudget / 2)))
}

export interface CutInput {
  messages: readonly ContextMessage[]
  /** First index the window may take (after the summary's coverage). */
  anchor: number
  /** A message's cost in the window; 0 for messages it never takes (pinned, excluded). */
  cost: (index: number) => number
  /** What the window may hold when every per-turn section uses its share. */
  budget: number
  chunk: number
}

/**
 * The index of the first message the window may send. Units (a tool call with its results)
 * are never cut through: every boundary is a unit's first message.
 */
export function chunkedCut({ messages, anchor, cost, budget, chunk }: CutInput): number {
  const end = messages.length - 1
  if (end < anchor) return anchor
  let total = 0
  for (let i = anchor; i <= end; i++) total += cost(i)
  if (total <= budget) return anchor

  const unitCost = (unit: { start: number; end: number }): number => {
    let sum = 0
    for (let i = Math.max(unit.start, anchor); i <= unit.end; i++) sum += cost(i)
    return sum
  }

  // The oldest unit start whose suffix still fits: where a sliding window would start.
  let suffix = 0
  let start = end + 1
  for (let cursor = end; cursor >= anchor;) {
    const unit = unitEndingAt(messages, cursor)
    const tokens = unitCost(unit)
    if (suffix + tokens > budget) break
    suffix += tokens
    start = unit.start
    cursor = unit.start - 1
  }
  if (start > end) return start

  // Forward to the first unit that begins on a grid line: the tokens before it reach a
  // multiple of the chunk that the tokens before the previous unit did not.
  const onGridLine = (unitStart: number, tokensBefore: number): boolean => {
    const previous = unitStart <= anchor ? 0 : unitCost(unitEndingAt(messages, unitStart - 1))
    return Math.floor(tokensBefore / chunk) > Math.floor((tokensBefore - previous) / chunk)
  }
  let tokensBefore = total - suffix
  let cursor = start
  while (cursor <= end) {
    if (onGridLine(cursor, tokensBefore)) return cursor
    let unitEnd = cursor
    while (unitEnd + 1 <= end && unitEndingAt(messages, unitEnd + 1).start === cursor) unitEnd++
    for (let i = cursor; i <= unitEnd; i++) tokensBefore += cost(i)
    cursor = unitEnd + 1
  }
  // No boundary before the end (a chunk larger than what is left): slide rather than send none.
  return start
}
