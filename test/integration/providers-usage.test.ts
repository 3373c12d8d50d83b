import { describe, expect, it } from 'vitest'
import {
  CATALOG_DATE,
  catalogFor,
  defaultModelRecord,
  lookupModel,
  resolveModel
} from '../../src/main/services/providers/catalog'
import { costBreakdown, costOf, sumUsage } from '../../src/main/services/providers/usage'
import type { ChatUsage } from '../../src/main/services/providers/types'

const usage = (
  promptTokens: number,
  completionTokens: number,
  cacheReadTokens = 0,
  cacheWriteTokens = 0
): ChatUsage => ({
  promptTokens,
  completionTokens,
  cacheReadTokens,
  cacheWriteTokens
})

describe('cost', () => {
  it('bills uncached input, cache reads, cache writes and output at their own prices', () => {
    // claude-sonnet-4-5: $3 in, $3.75 cache write, $0.30 cache read, $15 out per million.
    const sonnet = lookupModel('anthropic', 'claude-sonnet-4-5')!
    const breakdown = costBreakdown(usage(100_000, 2_000, 60_000, 30_000), sonnet)!
    expect(breakdown.input).toBeCloseTo(0.03, 10) // 10,000 uncached x $3
    expect(breakdown.cacheRead).toBeCloseTo(0.018, 10) // 60,000 x $0.30
    expect(breakdown.cacheWrite).toBeCloseTo(0.1125, 10) // 30,000 x $3.75
    expect(breakdown.output).toBeCloseTo(0.03, 10) // 2,000 x $15
    expect(breakdown.total).toBeCloseTo(0.1905, 10)
  })

  it('bills OpenAI cached input at the cached price', () => {
    // gpt-4o: $2.50 in, $1.25 cached, $10 out: 1M prompt with 800k cached, 100k out.
    const cost = costOf(usage(1_000_000, 100_000, 800_000), lookupModel('openai', 'gpt-4o')!)
    expect(cost).toBeCloseTo(0.5 + 1 + 1, 10)
  })

  it('is unknown (null) without input and output prices, and zero for a free local model', () => {
    expect(costOf(usage(1000, 10), { inputPrice: 1 })).toBeNull()
    expect(costOf(usage(1000, 10), {})).toBeNull()
    expect(costOf(usage(1000, 10), lookupModel('ollama', 'llama3.2')!)).toBe(0)
  })

  it('falls back to the input price for cache tokens without a cache price', () => {
    expect(costOf(usage(1_000_000, 0, 500_000, 0), { inputPrice: 2, outputPrice: 8 })).toBeCloseTo(
      2,
      10
    )
  })

  it('sums a thread, counting replies whose cost is unknown', () => {
    const totals = sumUsage([
      { usage: usage(1000, 100, 500, 0), cost: 0.01 },
      { usage: usage(2000, 200, 0, 1000), cost: null },
      { usage: usage(3000, 300), cost: 0.02 }
    ])
    expect(totals).toMatchObject({
      promptTokens: 6000,
      completionTokens: 600,
      cacheReadTokens: 500,
      cacheWriteTokens: 1000,
      replies: 3,
      unpricedReplies: 1
    })
    expect(totals.cost).toBeCloseTo(0.03, 10)
    expect(sumUsage([{ usage: usage(1, 1), cost: null }]).cost).toBeNull()
  })
})

describe('catalog', () => {
  it("is dated and lists the catalog package's models per kind", () => {
    expect(CATALOG_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(catalogFor('openai').map((m) => m.id)).toEqual(
      expect.arrayContaining(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o3', 'o4-mini'])
    )
    expect(catalogFor('anthropic').map((m) => m.id)).toEqual(
      expect.arrayContaining(['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'])
    )
    // A maintained catalog knows models newer than any table we wrote by hand.
    expect(catalogFor('openai').length).toBeGreaterThan(40)
    expect(catalogFor('openai-compatible').map((m) => m.id)).toEqual(
      expect.arrayContaining(['gpt-4o', 'claude-sonnet-4-5', 'deepseek-chat'])
    )
    for (const kind of ['openai', 'anthropic', 'ollama', 'openai-compatible'] as const) {
      for (const model of catalogFor(kind))
        expect(model.maxOutput).toBeLessThan(model.contextWindow)
    }
  })

  it('resolves dated snapshots, OpenRouter ids and Ollama tags', () => {
    expect(lookupModel('openai', 'gpt-4o-2024-08-06')?.contextWindow).toBe(128_000)
    expect(lookupModel('anthropic', 'claude-sonnet-4-5-20250929')?.inputPrice).toBe(3)
    expect(lookupModel('openai-compatible', 'anthropic/claude-sonnet-4.5')?.outputPrice).toBe(15)
    expect(lookupModel('openai-compatible', 'deepseek-chat')?.cacheReadPrice).toBeGreaterThan(0)
    expect(lookupModel('ollama', 'llama3.2:3b')?.contextWindow).toBe(8_192)
    expect(lookupModel('openai', 'no-such-model')).toBeNull()
  })

  it('lets the provider record override the catalog, and guesses for unknown models', () => {
    const provider = {
      id: 'p',
      kind: 'openai' as const,
      name: 'OpenAI',
      models: [
        { id: 'gpt-4o', contextWindow: 64_000, maxOutput: 4_000, inputPrice: 9, outputPrice: 9 }
      ]
    }
    expect(resolveModel(provider, 'gpt-4o')).toMatchObject({
      contextWindow: 64_000,
      inputPrice: 9,
      source: 'provider'
    })
    expect(resolveModel(provider, 'gpt-4o-mini')).toMatchObject({
      contextWindow: 128_000,
      source: 'catalog'
    })
    expect(resolveModel(provider, 'mystery')).toMatchObject({
      contextWindow: 32_768,
      source: 'fallback'
    })
    // A local model runs free in the window the app asks Ollama for.
    expect(defaultModelRecord('ollama', 'mistral-nemo')).toEqual({
      id: 'mistral-nemo',
      contextWindow: 8_192,
      maxOutput: 4_096,
      inputPrice: 0,
      outputPrice: 0
    })
  })
})
