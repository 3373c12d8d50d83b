import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import { encodingForModel, type EncodingName } from './modelCatalog'
import { estimateTokens, truncateByEstimate } from './tokenEstimate'

/** Counts tokens the way the target model's tokenizer would. A port: builds never recount. */
export interface TokenCounter {
  readonly encoding: EncodingName
  /** True when counts come from the model's own BPE, false for the estimate. */
  readonly exact: boolean
  count(text: string): number
  /** The longest prefix of `text` that fits in `maxTokens`. */
  truncate(text: string, maxTokens: number): string
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

function bpeCounter(encoding: EncodingName, bpe: BpeEncoding): TokenCounter {
  return {
    encoding,
    exact: true,
    count: (text) => (text.length === 0 ? 0 : bpe.countTokens(text, PLAIN_TEXT)),
    truncate(text, maxTokens) {
      const tokens = bpe.encode(text, PLAIN_TEXT)
      if (tokens.length <= maxTokens) return text
      // A cut inside a multi-byte character decodes to U+FFFD; drop that partial character.
      return bpe.decode(tokens.slice(0, Math.max(0, maxTokens))).replace(/\uFFFD+$/, '')
    }
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
  count: estimateTokens,
  truncate: truncateByEstimate
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
  const counts = new Map<string, number>()
  return {
    ...counter,
    count(text) {
      if (text.length < MEMO_MIN_CHARS || text.length > MEMO_MAX_CHARS) return counter.count(text)
      const known = counts.get(text)
      if (known !== undefined) {
        counts.delete(text)
        counts.set(text, known)
        return known
      }
      const counted = counter.count(text)
      counts.set(text, counted)
      if (counts.size > MEMO_ENTRIES) counts.delete(counts.keys().next().value as string)
      return counted
    }
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
