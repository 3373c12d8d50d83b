/**
 * What a provider's prompt cache would serve for a request, computed from the request body the
 * app sent (the cache replay's server, cacheReplay.ts). Tokens are o200k counts of each block's
 * role and text, in order: not the provider's own tokenizer, but the same for every request, so
 * prefixes compare as the provider's would.
 *
 * - OpenAI (automatic prefix caching): the longest common prefix with any earlier request,
 *   counted from 1,024 tokens in 128-token steps.
 * - Anthropic (explicit `cache_control` breakpoints): a breakpoint writes the prefix that ends
 *   with its block (from 1,024 tokens, Sonnet's and Opus' minimum); a request reads the longest
 *   prefix written earlier that it starts with, if that prefix ends on one of its block
 *   boundaries no more than 20 blocks before one of its own breakpoints (Anthropic's lookback).
 *   What it writes is its last breakpoint's prefix beyond what it read.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base'

const OPENAI_MIN = 1024
const OPENAI_STEP = 128
const ANTHROPIC_MIN = 1024
const ANTHROPIC_LOOKBACK = 20

export interface Served {
  prompt: number
  cached: number
  /** Anthropic: tokens written to the cache by this request. */
  written: number
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a[i] === b[i]) i++
  return i
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '')

/** OpenAI: every request is remembered; the cache serves the longest shared prefix. */
export function openaiCache(): (body: {
  messages: { role: string; content?: unknown }[]
}) => Served {
  const seen: number[][] = []
  return (body) => {
    const tokens: number[] = []
    for (const m of body.messages)
      tokens.push(...encode(`<|${m.role}|>`), ...encode(textOf(m.content)))
    const longest = seen.reduce((best, earlier) => Math.max(best, commonPrefix(earlier, tokens)), 0)
    seen.push(tokens)
    const cached = longest >= OPENAI_MIN ? Math.floor(longest / OPENAI_STEP) * OPENAI_STEP : 0
    return { prompt: tokens.length, cached, written: 0 }
  }
}

interface AnthropicBlock {
  type: string
  text?: string
  cache_control?: unknown
}

interface AnthropicBody {
  system?: string | AnthropicBlock[]
  messages: { role: string; content: string | AnthropicBlock[] }[]
}

/** Anthropic: only what a breakpoint wrote can be read, and only near a breakpoint. */
export function anthropicCache(): (body: AnthropicBody) => Served {
  const written: number[][] = []
  return (body) => {
    const blocks: { role: string; block: AnthropicBlock }[] = []
    const asBlocks = (content: string | AnthropicBlock[]): AnthropicBlock[] =>
      typeof content === 'string' ? [{ type: 'text', text: content }] : content
    if (body.system)
      for (const block of asBlocks(body.system)) blocks.push({ role: 'system', block })
    for (const m of body.messages) {
      for (const block of asBlocks(m.content)) blocks.push({ role: m.role, block })
    }
    const tokens: number[] = []
    /** ends[i]: the token count through block i. */
    const ends: number[] = []
    const breakpoints: number[] = []
    blocks.forEach(({ role, block }, i) => {
      const { cache_control: marker, ...rest } = block
      tokens.push(...encode(`<|${role}|>`), ...encode(rest.text ?? JSON.stringify(rest)))
      ends.push(tokens.length)
      if (marker) breakpoints.push(i)
    })
    const readable = new Set<number>()
    for (const b of breakpoints) {
      for (let i = Math.max(0, b - ANTHROPIC_LOOKBACK); i <= b; i++) readable.add(ends[i] as number)
    }
    let cached = 0
    for (const prefix of written) {
      if (prefix.length > cached && readable.has(prefix.length)) {
        if (commonPrefix(prefix, tokens) === prefix.length) cached = prefix.length
      }
    }
    let wrote = 0
    for (const b of breakpoints) {
      const end = ends[b] as number
      if (end < ANTHROPIC_MIN || end <= cached) continue
      written.push(tokens.slice(0, end))
      wrote = end - cached
    }
    return { prompt: tokens.length, cached, written: wrote }
  }
}
