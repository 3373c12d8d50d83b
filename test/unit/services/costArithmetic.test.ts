import { describe, expect, it } from 'vitest'
import {
  cacheSavings,
  costBreakdown,
  uncachedTokens,
  usageWithReusablePrefix
} from '../../../src/main/services/providers/usage'
import type { ChatUsage } from '@shared/providers'

const usage = (prompt: number, out: number, read = 0, write = 0): ChatUsage => ({
  promptTokens: prompt,
  completionTokens: out,
  cacheReadTokens: read,
  cacheWriteTokens: write
})
// Claude Sonnet 4.5's prices per million: $3 in, $0.30 cache read, $3.75 cache write, $15 out.
const sonnet = { inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.3, cacheWritePrice: 3.75 }

describe('cost arithmetic', () => {
  it('splits the prompt into uncached, read and written tokens', () => {
    expect(uncachedTokens(usage(10_000, 5, 6_000, 3_000))).toBe(1_000)
    expect(uncachedTokens(usage(100, 5, 200, 0))).toBe(0)
  })

  it('saves the read discount and pays the write premium', () => {
    // 100k read: 100k x ($3 - $0.30) = $0.27 saved; 20k written: 20k x $0.75 = $0.015 paid.
    expect(cacheSavings(usage(150_000, 0, 100_000, 20_000), sonnet)).toBeCloseTo(0.255, 10)
    // Only writes: the cache cost more than it saved on this request.
    expect(cacheSavings(usage(20_000, 0, 0, 20_000), sonnet)).toBeCloseTo(-0.015, 10)
    expect(cacheSavings(usage(1, 1, 1), {})).toBeNull()
  })

  it('parts add up to the total', () => {
    const parts = costBreakdown(usage(150_000, 1_000, 100_000, 20_000), sonnet)!
    expect(parts.input + parts.cacheRead + parts.cacheWrite + parts.output).toBeCloseTo(
      parts.total,
      12
    )
    expect(parts.input).toBeCloseTo(0.09, 10) // 30k uncached x $3
  })

  it('what-if: a shorter reusable prefix turns reads into writes (Anthropic) or into input (OpenAI)', () => {
    const anthropic = usageWithReusablePrefix(usage(10_000, 50, 8_000, 1_500), 2_000)
    expect(anthropic).toMatchObject({ cacheReadTokens: 2_000, cacheWriteTokens: 7_500 })
    expect(uncachedTokens(anthropic)).toBe(500)
    const openai = usageWithReusablePrefix(usage(10_000, 50, 8_000), 2_000)
    expect(openai).toMatchObject({ cacheReadTokens: 2_000, cacheWriteTokens: 0 })
    expect(uncachedTokens(openai)).toBe(8_000)
    // A provider that reports no caching (Ollama) is priced as it was.
    expect(usageWithReusablePrefix(usage(10_000, 50), 9_000)).toEqual(usage(10_000, 50))
    // A longer reusable prefix never reads more than the provider cached.
    expect(usageWithReusablePrefix(usage(10_000, 50, 1_000), 9_000).cacheReadTokens).toBe(1_000)
  })
})
