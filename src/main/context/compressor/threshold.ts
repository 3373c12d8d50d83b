/**
 * When the compressor triggers, following Hermes Agent's ContextCompressor
 * (agent/context_compressor.py and its threshold mixin; PRs #49998 and #99700, issue #67422):
 *
 * 1. The configured share of the window, 50 % by default.
 * 2. Windows under 512K tokens trigger at no less than 75 %: at 50 % a 128K-262K model
 *    compacts with only 64-131K used, and the part compaction cannot shrink (system prompt,
 *    protected tail, the summary itself) eats most of what it frees, so it would fire again
 *    every turn or two. The raise only ever raises; a higher configured share wins.
 * 3. The trigger is at least 64K tokens (Hermes' MINIMUM_CONTEXT_LENGTH), so large models do
 *    not compact early either...
 * 4. ...but that floor never goes above 85 % of a small window: at 64K or 65,536 tokens it
 *    would otherwise sit at or near 100 % and compaction could never fire before the provider
 *    rejects the request. An explicitly configured share above 85 % is kept.
 *
 * Percentages apply to the input budget: the window minus the output reservation, when known.
 */

export const DEFAULT_THRESHOLD_PERCENT = 0.5
const SMALL_WINDOW_LIMIT = 512_000
const SMALL_WINDOW_THRESHOLD_PERCENT = 0.75
const MINIMUM_THRESHOLD_TOKENS = 64_000
const SMALL_WINDOW_CAP_PERCENT = 0.85

export interface ThresholdOptions {
  /** Share of the input budget at which to compress (default 0.5). */
  thresholdPercent?: number
  /** Tokens reserved for the reply out of the same window (default 0). */
  maxOutputTokens?: number
}

export interface Threshold {
  tokens: number
  /** The share actually applied after the small-window raise. */
  percent: number
  /** The window minus the output reservation. */
  inputBudget: number
  /** Which rule decided the number, for the inspector and the docs. */
  rule: 'percent' | 'small_window_raise' | 'minimum_floor' | 'small_window_cap'
}

export function compressionThreshold(
  contextLength: number,
  options: ThresholdOptions = {}
): Threshold {
  const configured = options.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT
  const reserved = options.maxOutputTokens ?? 0
  const inputBudget = contextLength - reserved > 0 ? contextLength - reserved : contextLength
  if (inputBudget <= 0) return { tokens: 0, percent: configured, inputBudget: 0, rule: 'percent' }

  const small = contextLength < SMALL_WINDOW_LIMIT
  const percent = small ? Math.max(configured, SMALL_WINDOW_THRESHOLD_PERCENT) : configured
  const raised = percent > configured
  const byPercent = Math.floor(inputBudget * percent)
  if (byPercent >= MINIMUM_THRESHOLD_TOKENS) {
    return {
      tokens: byPercent,
      percent,
      inputBudget,
      rule: raised ? 'small_window_raise' : 'percent'
    }
  }
  const cap = Math.floor(inputBudget * SMALL_WINDOW_CAP_PERCENT)
  const floor = Math.min(MINIMUM_THRESHOLD_TOKENS, cap)
  if (byPercent >= floor) {
    // Only a configured share above 85 % gets here: user intent, not capped.
    return { tokens: Math.min(byPercent, inputBudget - 1), percent, inputBudget, rule: 'percent' }
  }
  return {
    tokens: Math.max(1, Math.min(floor, inputBudget - 1)),
    percent,
    inputBudget,
    rule: floor === MINIMUM_THRESHOLD_TOKENS ? 'minimum_floor' : 'small_window_cap'
  }
}
