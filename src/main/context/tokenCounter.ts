import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import type { TokenCount } from '@shared/context'
import { encodingForModel, type EncodingName } from './modelCatalog'
import { runSteps, type Steps } from './steps'
import { DEFAULT_SLICES, textSlices } from './textSlices'
import { estimateSteps, estimateTruncateSteps } from './tokenEstimate'

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

  function* countSteps(text: string): Steps<TokenCount> {
    let tokens = 0
    let chunked = false
    for (const slice of textSlices(text)) {
      tokens += countPart(text.slice(slice.start, slice.end))
      chunked ||= slice.approximate
      yield
    }
    return { tokens, method: chunked ? 'chunked' : 'exact' }
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
  truncateSteps: estimateTruncateSteps
}

/** Texts shorter than this are cheaper to count than to look up. */
const MEMO_MIN_CHARS = 32
/** Long pastes are counted once at insert anyway; keeping them alive here would cost memory. */
const MEMO_MAX_CHARS = 200_000
const MEMO_ENTRIES = 128

/**
 * Remembers the counts of the texts every build repeats (system prompt, summary, memories,
 * the draft while the user types), so a preview per keystroke does not re-run BPE over them.
 * Least recently used entries go first.
 */
export function memoizedCounter(counter: TokenCounter): TokenCounter {
  const counts = new Map<string, TokenCount>()
  const remembers = (text: string) => text.length >= MEMO_MIN_CHARS && text.length <= MEMO_MAX_CHARS
  function recall(text: string): TokenCount | undefined {
    const known = counts.get(text)
    if (known !== undefined) {
      counts.delete(text)
      counts.set(text, known)
    }
    return known
  }
  function remember(text: string, counted: TokenCount): TokenCount {
    counts.set(text, counted)
    if (counts.size > MEMO_ENTRIES) counts.delete(counts.keys().next().value as string)
    return counted
  }
  function* countSteps(text: string): Steps<TokenCount> {
    if (!remembers(text)) return yield* counter.countSteps(text)
    return recall(text) ?? remember(text, yield* counter.countSteps(text))
  }
  return {
    ...counter,
    count(text) {
      if (!remembers(text)) return counter.count(text)
      return (recall(text) ?? remember(text, runSteps(counter.countSteps(text)))).tokens
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
