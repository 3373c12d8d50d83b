/**
 * A text's token count kept slice by slice (textSlices.ts): where each slice ends and the
 * tokens up to there. With it, the head and the tail of a 2 M-character paste that fit a
 * budget are found by a binary search and one slice's BPE, not by counting the text again, and
 * a draft that grows at its end is counted from its last slice on.
 */
import type { TokenCount } from '@shared/context'
import type { EncodingName } from '../modelCatalog'

export interface TokenIndex {
  encoding: EncodingName
  text: string
  /** `ends[i]`: where slice i ends; the last is `text.length`. */
  ends: number[]
  /** `totals[i]`: the tokens of `text.slice(0, ends[i])`. */
  totals: number[]
  /** The first slice counted in chunks (a long run), or -1. */
  firstChunked: number
  /**
   * A text counted from its ends (endsFirstCount.ts): the one slice that stands for the
   * uncounted middle, its tokens extrapolated. Heads and tails are never cut inside it.
   */
  middle?: number
}

export function indexedTokens(index: TokenIndex): number {
  return index.totals.at(-1) ?? 0
}

export function countOf(index: TokenIndex): TokenCount {
  const tokens = indexedTokens(index)
  if (index.encoding === 'estimate') return { tokens, method: 'estimate' }
  if (index.middle !== undefined) return { tokens, method: 'ends' }
  return { tokens, method: index.firstChunked === -1 ? 'exact' : 'chunked' }
}

/**
 * How many of `from`'s slices a count of `text` can keep: all but the last, when `text` starts
 * with them and the character after them (a slice's end depends on the next character).
 */
export function reusableSlices(text: string, from: TokenIndex, encoding: EncodingName): number {
  const keep = from.ends.length - 1
  if (keep <= 0 || from.encoding !== encoding) return 0
  const prefix = (from.ends[keep - 1] as number) + 1
  if (prefix > text.length) return 0
  return from.text === text || text.startsWith(from.text.slice(0, prefix)) ? keep : 0
}

/** The first slice whose running total exceeds `tokens` (`ends.length` when none does). */
export function sliceOverTokens(index: TokenIndex, tokens: number): number {
  let low = 0
  let high = index.totals.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((index.totals[mid] as number) > tokens) high = mid
    else low = mid + 1
  }
  return low
}

/** The first slice whose running total reaches `tokens`. */
export function sliceReachingTokens(index: TokenIndex, tokens: number): number {
  return sliceOverTokens(index, tokens - 1)
}

export const sliceStart = (index: TokenIndex, slice: number): number =>
  slice === 0 ? 0 : (index.ends[slice - 1] as number)

export const totalBefore = (index: TokenIndex, slice: number): number =>
  slice === 0 ? 0 : (index.totals[slice - 1] as number)
