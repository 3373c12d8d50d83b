import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base'
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base'
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import {
  CL100K_TOKEN_SPLIT_REGEX,
  O200K_TOKEN_SPLIT_REGEX
} from 'gpt-tokenizer/encodingParams/constants'
import type { TokenCount } from '@shared/context'
import { encodingForModel, type EncodingName } from '../modelCatalog'
import { runSteps, type Steps } from '../steps'
import { mergeRanksSteps, RankedMerge, type RankTable } from './rankedMerge'
import { DEFAULT_SLICES, textSlices } from './textSlices'
import {
  countOf,
  indexedTokens,
  reusableSlices,
  sliceOverTokens,
  sliceReachingTokens,
  sliceStart,
  totalBefore,
  type TokenIndex
} from './tokenIndex'
import {
  estimateIndexSteps,
  estimateSteps,
  estimateTokens,
  estimateTruncateSteps,
  lastByEstimate,
  truncateByEstimate
} from './tokenEstimate'

/** A prefix that fits a token limit, and what it costs. */
export interface Truncated {
  text: string
  tokens: number
}

/**
 * Counts tokens the way the target model's tokenizer would, in time linear in the text (see
 * textSlices.ts). A port: builds never recount stored messages. The `…Steps` forms yield
 * between bounded slices so the app can count a 2 M-character paste without stalling.
 */
export interface TokenCounter {
  readonly encoding: EncodingName
  /** True when counts come from the model's own BPE, false for the estimate. */
  readonly exact: boolean
  count(text: string): number
  /** One span textSlices cut, counted as it is: no memo, no slicing. */
  countSpan(span: string): number
  /** The longest prefix of `text` that fits in `maxTokens`. */
  truncate(text: string, maxTokens: number): string
  /** The count, and whether long runs without breaks were counted in chunks. */
  countSteps(text: string): Steps<TokenCount>
  truncateSteps(text: string, maxTokens: number): Steps<Truncated>
  /**
   * The count slice by slice (tokenIndex.ts); from `from`'s slices on when `text` still
   * begins with them (a draft growing at its end).
   */
  indexSteps(text: string, from: TokenIndex | null): Steps<TokenIndex>
  /**
   * Builds, once, the tables that count twice as fast (rankedMerge.ts); until then counts are
   * gpt-tokenizer's, the same figures. Run where a long text is about to be counted.
   */
  prepareSteps(): Steps<void>
  /** The longest prefix of the indexed text within `maxTokens`, in one slice's BPE. */
  headOf(index: TokenIndex, maxTokens: number): Truncated
  /** The longest suffix of the indexed text within `maxTokens`, in one slice's BPE. */
  tailOf(index: TokenIndex, maxTokens: number): Truncated
}

/**
 * User text is plain text: "<|endoftext|>" typed or pasted by a user must count as the
 * characters it is, not throw (gpt-tokenizer's default) or turn into a control token.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

interface BpeEncoding {
  countTokens(text: string, options: typeof PLAIN_TEXT): number
}

/**
 * Shorter texts cannot hold a long run (textSlices.ts), even at three UTF-8 bytes per code
 * unit: one call counts them exactly.
 */
const SHORT_TEXT = Math.floor(DEFAULT_SLICES.longRunBytes / 3)

/**
 * A cut inside the uncounted middle of a text counted from its ends would run BPE over most of
 * the text in one step (seconds at 2 M characters): callers ask for at most what the ends hold
 * (windowSafetyNet.ts, `inputEndsNeeded`), so this is a bug, not a slow path.
 */
function requireCounted(index: TokenIndex, slice: number): void {
  if (slice === index.middle) {
    throw new Error('A cut fell inside the uncounted middle of a text counted from its ends.')
  }
}

function bpeCounter(
  encoding: EncodingName,
  bpe: BpeEncoding,
  ranks: RankTable,
  split: RegExp
): TokenCounter {
  let merge: RankedMerge | null = null
  const countPart = (part: string) =>
    part.length === 0 ? 0 : merge ? merge.count(part) : bpe.countTokens(part, PLAIN_TEXT)
  function* prepareSteps(): Steps<void> {
    if (merge) return
    const tables = yield* mergeRanksSteps(ranks)
    merge ??= new RankedMerge(tables, split)
  }
  /**
   * The longest prefix (`fromEnd`: suffix) of a slice that counts at most `room` tokens, by a
   * binary search on where it ends. Decoding the slice's first tokens gave a text that may
   * count one token more once encoded again, and gpt-tokenizer (4.0) decodes with one
   * streaming TextDecoder shared by every call, so a character a cut split came out at the start
   * of the next decode (a stray U+FFFD in another head). Counting prefixes has neither problem;
   * after the slice's own count, BPE finds all but the piece at the cut in its cache.
   */
  function within(part: string, room: number, fromEnd: boolean): Truncated {
    const cut = (length: number) => {
      // Never between the halves of a surrogate pair.
      let at = fromEnd ? part.length - length : length
      const code = part.charCodeAt(at)
      if (at > 0 && code >= 0xdc00 && code <= 0xdfff) at += fromEnd ? 1 : -1
      return fromEnd ? part.slice(at) : part.slice(0, at)
    }
    let low = 0
    let high = part.length
    while (low < high) {
      const mid = (low + high + 1) >>> 1
      if (countPart(cut(mid)) <= room) low = mid
      else high = mid - 1
    }
    const text = cut(low)
    return { text, tokens: countPart(text) }
  }

  function* indexSteps(text: string, from: TokenIndex | null): Steps<TokenIndex> {
    const keep = from === null ? 0 : reusableSlices(text, from, encoding)
    const ends = keep === 0 ? [] : (from as TokenIndex).ends.slice(0, keep)
    const totals = keep === 0 ? [] : (from as TokenIndex).totals.slice(0, keep)
    const previous = (from as TokenIndex | null)?.firstChunked ?? -1
    let firstChunked = previous !== -1 && previous < keep ? previous : -1
    let total = totals.at(-1) ?? 0
    // A slice boundary is where a fresh count starts the same way (textSlices.ts).
    const offset = ends.at(-1) ?? 0
    const rest = offset === 0 ? text : text.slice(offset)
    for (const slice of textSlices(rest)) {
      total += countPart(rest.slice(slice.start, slice.end))
      ends.push(offset + slice.end)
      totals.push(total)
      if (slice.approximate && firstChunked === -1) firstChunked = ends.length - 1
      yield
    }
    return { encoding, text, ends, totals, firstChunked }
  }

  function* countSteps(text: string): Steps<TokenCount> {
    return countOf(yield* indexSteps(text, null))
  }

  function headOf(index: TokenIndex, maxTokens: number): Truncated {
    const slice = sliceOverTokens(index, maxTokens)
    if (slice === index.ends.length) return { text: index.text, tokens: indexedTokens(index) }
    requireCounted(index, slice)
    const start = sliceStart(index, slice)
    const before = totalBefore(index, slice)
    const room = maxTokens - before
    const kept = within(index.text.slice(start, index.ends[slice]), room, false)
    return { text: index.text.slice(0, start) + kept.text, tokens: before + kept.tokens }
  }

  function tailOf(index: TokenIndex, maxTokens: number): Truncated {
    const total = indexedTokens(index)
    if (total <= maxTokens) return { text: index.text, tokens: total }
    // Slices after `slice` fit whole; `slice` itself gives its last tokens.
    const slice = sliceReachingTokens(index, total - maxTokens)
    requireCounted(index, slice)
    const end = index.ends[slice] as number
    const after = total - (index.totals[slice] as number)
    const kept = within(index.text.slice(sliceStart(index, slice), end), maxTokens - after, true)
    return { text: kept.text + index.text.slice(end), tokens: after + kept.tokens }
  }

  function* truncateSteps(text: string, maxTokens: number): Steps<Truncated> {
    let tokens = 0
    for (const slice of textSlices(text)) {
      const part = text.slice(slice.start, slice.end)
      const cost = countPart(part)
      if (tokens + cost > maxTokens) {
        const kept = within(part, maxTokens - tokens, false)
        return { text: text.slice(0, slice.start) + kept.text, tokens: tokens + kept.tokens }
      }
      tokens += cost
      yield
    }
    return { text, tokens }
  }

  return {
    encoding,
    exact: true,
    count: (text) =>
      text.length < SHORT_TEXT ? countPart(text) : runSteps(countSteps(text)).tokens,
    countSpan: countPart,
    truncate: (text, maxTokens) => runSteps(truncateSteps(text, maxTokens)).text,
    countSteps,
    truncateSteps,
    indexSteps,
    prepareSteps,
    headOf,
    tailOf
  }
}

/** Exact BPE counts for GPT-4o, GPT-4.1, GPT-4.5, GPT-5 and the o-series. */
export const o200kCounter: TokenCounter = bpeCounter(
  'o200k_base',
  o200k,
  o200kRanks,
  O200K_TOKEN_SPLIT_REGEX
)

/** Exact BPE counts for GPT-4 and GPT-3.5. */
export const cl100kCounter: TokenCounter = bpeCounter(
  'cl100k_base',
  cl100k,
  cl100kRanks,
  CL100K_TOKEN_SPLIT_REGEX
)

/** The CJK-aware estimate (see tokenEstimate.ts) for models whose tokenizer is unknown. */
export const estimateCounter: TokenCounter = {
  encoding: 'estimate',
  exact: false,
  count: (text) => runSteps(estimateSteps(text)).tokens,
  countSpan: estimateTokens,
  truncate: (text, maxTokens) => runSteps(estimateTruncateSteps(text, maxTokens)).text,
  countSteps: estimateSteps,
  truncateSteps: estimateTruncateSteps,
  indexSteps: estimateIndexSteps,
  // Nothing to build for the estimate.
  *prepareSteps() {},
  headOf: (index, maxTokens) => {
    const slice = sliceOverTokens(index, maxTokens)
    if (slice === index.ends.length) return { text: index.text, tokens: indexedTokens(index) }
    const start = sliceStart(index, slice)
    const before = totalBefore(index, slice)
    const kept = truncateByEstimate(index.text.slice(start, index.ends[slice]), maxTokens - before)
    return { text: index.text.slice(0, start) + kept, tokens: before + estimateTokens(kept) }
  },
  tailOf: (index, maxTokens) => {
    const total = indexedTokens(index)
    if (total <= maxTokens) return { text: index.text, tokens: total }
    const slice = sliceReachingTokens(index, total - maxTokens)
    const end = index.ends[slice] as number
    const after = total - (index.totals[slice] as number)
    const kept = lastByEstimate(index.text.slice(sliceStart(index, slice), end), maxTokens - after)
    return { text: kept + index.text.slice(end), tokens: after + estimateTokens(kept) }
  }
}

/** Texts shorter than this are cheaper to count than to look up. */
const MEMO_MIN_CHARS = 32
const MEMO_ENTRIES = 128
/**
 * Texts over this many characters (an attached file's text, a long paste) get a small memo of
 * their own, of their slice-by-slice index, instead of a place among the MEMO_ENTRIES: a
 * preview with a 2 MB file attached counts the file's text on every keystroke (p50 216 ms with
 * this memo, 756 ms without). The memo holds references to strings the app keeps anyway. An
 * input's count is also kept per thread (services/draftCounts.ts), shorter ones included.
 */
const LARGE_TEXT_CHARS = 200_000
const LARGE_ENTRIES = 4

/** A least-recently-used map. */
class Memo<T> {
  private readonly values = new Map<string, T>()
  constructor(private readonly entries: number) {}

  get(text: string): T | undefined {
    const known = this.values.get(text)
    if (known !== undefined) {
      this.values.delete(text)
      this.values.set(text, known)
    }
    return known
  }

  set(text: string, value: T): T {
    this.values.set(text, value)
    if (this.values.size > this.entries)
      this.values.delete(this.values.keys().next().value as string)
    return value
  }
}

/**
 * Remembers the counts of the texts every build repeats (system prompt, summary, memories, an
 * attached file's text), so they are not run through BPE again. Least recently used entries go
 * first.
 */
export function memoizedCounter(counter: TokenCounter): TokenCounter {
  const counts = new Memo<TokenCount>(MEMO_ENTRIES)
  const indexes = new Memo<TokenIndex>(LARGE_ENTRIES)
  function* indexSteps(text: string, from: TokenIndex | null): Steps<TokenIndex> {
    if (text.length <= LARGE_TEXT_CHARS) return yield* counter.indexSteps(text, from)
    return indexes.get(text) ?? indexes.set(text, yield* counter.indexSteps(text, from))
  }
  function* countSteps(text: string): Steps<TokenCount> {
    if (text.length > LARGE_TEXT_CHARS) return countOf(yield* indexSteps(text, null))
    if (text.length < MEMO_MIN_CHARS) return yield* counter.countSteps(text)
    return counts.get(text) ?? counts.set(text, yield* counter.countSteps(text))
  }
  return {
    ...counter,
    count: (text) =>
      text.length < MEMO_MIN_CHARS ? counter.count(text) : runSteps(countSteps(text)).tokens,
    countSteps,
    indexSteps
  }
}

const memoized: Record<EncodingName, TokenCounter> = {
  o200k_base: memoizedCounter(o200kCounter),
  cl100k_base: memoizedCounter(cl100kCounter),
  estimate: estimateCounter
}

/** The counter for a model id: exact BPE for OpenAI families, the estimate for anything else. */
export function tokenCounterFor(model: string): TokenCounter {
  return memoized[encodingForModel(model)]
}
