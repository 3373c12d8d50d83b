/**
 * What a reply cost, from provider-reported usage and the model's prices. `promptTokens`
 * includes the cached parts, so the uncached input is what remains after cache reads and
 * writes; each part is billed at its own price. Unknown input or output prices make the cost
 * unknown (null), never zero: "free" is only what a price of 0 says.
 */
import type { CostParts } from '@shared/costReport'
import type { UsageTotals } from '@shared/providers'
import type { ChatUsage, ModelPrices } from './types'

export type CostBreakdown = CostParts

const PER_MILLION = 1_000_000

/** The cost split by token kind, in US dollars; null when the model has no input/output price. */
export function costBreakdown(usage: ChatUsage, prices: ModelPrices): CostBreakdown | null {
  const { inputPrice, outputPrice } = prices
  if (inputPrice === undefined || outputPrice === undefined) return null
  const cacheRead = Math.max(0, usage.cacheReadTokens)
  const cacheWrite = Math.max(0, usage.cacheWriteTokens)
  const uncached = Math.max(0, usage.promptTokens - cacheRead - cacheWrite)
  // Without a specific cache price the full input price is the honest upper bound.
  const parts = {
    input: (uncached * inputPrice) / PER_MILLION,
    cacheRead: (cacheRead * (prices.cacheReadPrice ?? inputPrice)) / PER_MILLION,
    cacheWrite: (cacheWrite * (prices.cacheWritePrice ?? inputPrice)) / PER_MILLION,
    output: (Math.max(0, usage.completionTokens) * outputPrice) / PER_MILLION
  }
  return { ...parts, total: parts.input + parts.cacheRead + parts.cacheWrite + parts.output }
}

export function costOf(usage: ChatUsage, prices: ModelPrices): number | null {
  return costBreakdown(usage, prices)?.total ?? null
}

export type { UsageTotals } from '@shared/providers'

/** Per-thread (or any) totals over stored replies: `cost` is what `costOf` gave each one. */
export function sumUsage(
  replies: Iterable<{ usage: ChatUsage; cost: number | null }>
): UsageTotals {
  const totals: UsageTotals = {
    promptTokens: 0,
    completionTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    replies: 0,
    cost: null,
    unpricedReplies: 0
  }
  for (const { usage, cost } of replies) {
    totals.replies += 1
    totals.promptTokens += usage.promptTokens
    totals.completionTokens += usage.completionTokens
    totals.cacheReadTokens += usage.cacheReadTokens
    totals.cacheWriteTokens += usage.cacheWriteTokens
    if (cost === null) totals.unpricedReplies += 1
    else totals.cost = (totals.cost ?? 0) + cost
  }
  return totals
}

/** Prompt tokens billed at the full input price: neither read from nor written to the cache. */
export function uncachedTokens(usage: ChatUsage): number {
  return Math.max(
    0,
    usage.promptTokens - Math.max(0, usage.cacheReadTokens) - Math.max(0, usage.cacheWriteTokens)
  )
}

/**
 * What the cache saved on one reply: reads at the input price minus what they cost, less the
 * premium writes paid over the input price (Anthropic bills writes at 1.25x). Negative when a
 * request only wrote. Null without an input price.
 */
export function cacheSavings(usage: ChatUsage, prices: ModelPrices): number | null {
  const { inputPrice } = prices
  if (inputPrice === undefined) return null
  const read = Math.max(0, usage.cacheReadTokens)
  const write = Math.max(0, usage.cacheWriteTokens)
  const readSaved = read * (inputPrice - (prices.cacheReadPrice ?? inputPrice))
  const writePremium = write * ((prices.cacheWritePrice ?? inputPrice) - inputPrice)
  return (readSaved - writePremium) / PER_MILLION
}

/**
 * The usage a reply would have had if only `reusableTokens` of its prompt (the prefix another
 * ordering shares with the previous request, in provider tokens) could come from the cache.
 * What the provider cached (read or written) stays cacheable, split differently: a provider that
 * writes (Anthropic) writes what it can no longer read; one that reports no caching stays as is.
 */
export function usageWithReusablePrefix(usage: ChatUsage, reusableTokens: number): ChatUsage {
  const cached = Math.max(0, usage.cacheReadTokens) + Math.max(0, usage.cacheWriteTokens)
  if (cached === 0) return { ...usage }
  const read = Math.max(0, Math.min(Math.round(reusableTokens), cached))
  return {
    ...usage,
    cacheReadTokens: read,
    cacheWriteTokens: usage.cacheWriteTokens > 0 ? cached - read : 0
  }
}
