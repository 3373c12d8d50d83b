import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import type { TokenCount } from '@shared/context'
import { encodingForModel, type EncodingName } from './modelCatalog'
import { runSteps, type Steps } from './steps'
import { DEFAULT_SLICES, textSlices } from './textSlices'
import { estimateSteps, estimateTruncateSteps } from './tokenEstimate'

/**
 * Where a count of `text` can resume when a longer text starts with the same characters up to
 * `end` (the last slice boundary before the end): typing at the end of a long draft then costs
 * only the tail. `tokens` and `chunked` describe `text.slice(0, end)`.
 */
export interface CountCheckpoint {
  encoding: EncodingName
  text: string
  end: number
  tokens: number
  chunked: boolean
}

export interface ResumedCount {
  count: TokenCount
  /** Null when this counter cannot resume (the estimate is fast enough to redo). */
  checkpoint: CountCheckpoint | null
}

/** Whether a count of `text` in `encoding` can start at `from` (same prefix, same encoding). */
export function resumesFrom(text: string, from: CountCheckpoint, encoding: EncodingName): boolean {
  return (
    from.encoding === encoding &&
    from.end <= text.length &&
    (from.text === text || text.startsWith(from.text.slice(0, from.end)))
  )
}

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
  /** The longest prefix of `text` that fits in `maxTokens`. */
  truncate(text: string, maxTokens: number): string
  /** The count, and whether long runs without breaks were counted in chunks. */
  countSteps(text: string): Steps<TokenCount>
  /** The count of `text`, starting from `from` when `text` still begins with its prefix. */
  resumeSteps(text: string, from: CountCheckpoint | null): Steps<ResumedCount>
  truncateSteps(text: string, maxTokens: number): Steps<Truncated>
}

/**
 * User text is plain text: "<|endoftext|>" typed or pasted by a user must count as the
 * characters it is, not throw (gpt-tokenizer's default) or turn into a control token.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

interface BpeEncoding {
  encode(text: string, options: typeof PLAIN_TEXT): number[]
  decode(tokens: number[]): string
  countTokens(text: string, options: typeof PLAIN_TEXT): number
}

/** Shorter texts cannot hold a long run (textSlices.ts): one call counts them exactly. */
const SHORT_TEXT = DEFAULT_SLICES.longRunChars

function bpeCounter(encoding: EncodingName, bpe: BpeEncoding): TokenCounter {
  const countPart = (part: string) => (part.length === 0 ? 0 : bpe.countTokens(part, PLAIN_TEXT))

  function* resumeSteps(text: string, from: CountCheckpoint | null): Steps<ResumedCount> {
    const resumes = from !== null && resumesFrom(text, from, encoding)
    const offset = resumes ? from.end : 0
    let tokens = resumes ? from.tokens : 0
    let chunked = resumes ? from.chunked : false
    // A slice boundary is where a fresh count starts the same way (textSlices.ts).
    let checkpoint: CountCheckpoint = { encoding, text, end: offset, tokens, chunked }
    const rest = offset === 0 ? text : text.slice(offset)
    for (const slice of textSlices(rest)) {
      checkpoint = { encoding, text, end: offset + slice.start, tokens, chunked }
      tokens += countPart(rest.slice(slice.start, slice.end))
      chunked ||= slice.approximate
      yield
    }
    return { count: { tokens, method: chunked ? 'chunked' : 'exact' }, checkpoint }
  }

  function* countSteps(text: string): Steps<TokenCount> {
    return (yield* resumeSteps(text, null)).count
  }

  function* truncateSteps(text: string, maxTokens: number): Steps<Truncated> {
    let tokens = 0
    for (const slice of textSlices(text)) {
      const part = text.slice(slice.start, slice.end)
      const cost = countPart(part)
      if (tokens + cost > maxTokens) {
        const room = Math.max(0, maxTokens - tokens)
        // A cut inside a multi-byte character decodes to U+FFFD; drop that partial character.
        const kept =
          room === 0
            ? ''
            : bpe.decode(bpe.encode(part, PLAIN_TEXT).slice(0, room)).replace(/\uFFFD+$/, '')
        return { text: text.slice(0, slice.start) + kept, tokens: tokens + countPart(kept) }
      }
      tokens += cost
      yield
    }
    return { text, tokens }
  }

  return {
    encoding,
    exact: true,
    count: (text) => (text.length < SHORT_TEXT ? countPart(text) : runSteps(countSteps(text)).tokens),
    truncate: (text, maxTokens) => runSteps(truncateSteps(text, maxTokens)).text,
    countSteps,
    resumeSteps,
    truncateSteps
  }
}

/** Exact BPE counts for GPT-4o, GPT-4.1, GPT-4.5, GPT-5 and the o-series. */
export const o200kCounter: TokenCounter = bpeCounter('o200k_base', o200k)

/** Exact BPE counts for GPT-4 and GPT-3.5. */
export const cl100kCounter: TokenCounter = bpeCounter('cl100k_base', cl100k)

/** The CJK-aware estimate (see tokenEstimate.ts) for models whose tokenizer is unknown. */
export const estimateCounter: TokenCounter = {
  encoding: 'estimate',
  exact: false,
  count: (text) => runSteps(estimateSteps(text)).tokens,
  truncate: (text, maxTokens) => runSteps(estimateTruncateSteps(text, maxTokens)).text,
  countSteps: estimateSteps,
  *resumeSteps(text) {
    return { count: yield* estimateSteps(text), checkpoint: null }
  },
  truncateSteps: estimateTruncateSteps
}

/** Texts shorter than this are cheaper to count than to look up. */
const MEMO_MIN_CHARS = 32
const MEMO_ENTRIES = 128
/**
 * Pastes over this many characters get a small memo of their own: the send counts a paste
 * for the store and the build counts it again, and a 2 M-character paste takes seconds. The
 * memo holds references to strings the app keeps anyway (the draft, the stored message).
 */
const LARGE_TEXT_CHARS = 200_000
const LARGE_ENTRIES = 4

/** A least-recently-used map of counts. */
class CountMemo {
  private readonly counts = new Map<string, TokenCount>()
  constructor(private readonly entries: number) {}

  get(text: string): TokenCount | undefined {
    const known = this.counts.get(text)
    if (known !== undefined) {
      this.counts.delete(text)
      this.counts.set(text, known)
    }
    return known
  }

  set(text: string, counted: TokenCount): TokenCount {
    this.counts.set(text, counted)
    if (this.counts.size > this.entries) this.counts.delete(this.counts.keys().next().value as string)
    return counted
  }
}

/**
 * Remembers the counts of the texts every build repeats (system prompt, summary, memories,
 * the draft while the user types, a paste counted at send and again for its build), so they
 * are not run through BPE again. Least recently used entries go first.
 */
export function memoizedCounter(counter: TokenCounter): TokenCounter {
  const small = new CountMemo(MEMO_ENTRIES)
  const large = new CountMemo(LARGE_ENTRIES)
  const memoFor = (text: string) =>
    text.length < MEMO_MIN_CHARS ? null : text.length > LARGE_TEXT_CHARS ? large : small
  function* countSteps(text: string): Steps<TokenCount> {
    const memo = memoFor(text)
    if (!memo) return yield* counter.countSteps(text)
    return memo.get(text) ?? memo.set(text, yield* counter.countSteps(text))
  }
  return {
    ...counter,
    count(text) {
      const memo = memoFor(text)
      if (!memo) return counter.count(text)
      return (memo.get(text) ?? memo.set(text, runSteps(counter.countSteps(text)))).tokens
    },
    countSteps
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
