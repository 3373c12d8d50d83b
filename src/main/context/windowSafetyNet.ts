/**
 * The last check before a request leaves: a build may still be too big for the model (a total
 * budget set above its window, a huge paste, a long pinned message). Over SAFETY_SHARE of the
 * window, `keepUnderSafetyLimit` rebuilds with the budget capped at that limit (older history
 * and memories give way), then, if the user's own text is what does not fit, sends its head and
 * tail with a marker in place of the middle. Only the request changes; the stored message
 * stays whole, and the build says what happened so the chat and the inspector can tell the user.
 */
import { SAFETY_SHARE, type BuiltContext, type TokenCount, type TraceEntry } from '@shared/context'
import type { ContextConfig } from '@shared/contextConfig'
import { contextWindowOf } from './modelCatalog'
import { runSteps } from './steps'
import type { TokenCounter, Truncated } from './tokens/tokenCounter'
import { indexedTokens, type TokenIndex } from './tokens/tokenIndex'
/** Below this, a trimmed message would say nothing; the request is left for the provider to judge. */
export const MIN_INPUT_TOKENS = 200

export function safetyLimit(context: BuiltContext): number {
  return Math.floor(context.tokenStats.contextWindow * SAFETY_SHARE)
}

/**
 * The tokens each end of the input must hold, counted exactly, for the safety net to need
 * nothing more of it (endsFirstCount.ts): both ends together prove the input alone is over the
 * limit at this correction factor, and a trim keeps at most half the limit from each end.
 */
export function inputEndsNeeded(config: ContextConfig): number {
  const window = contextWindowOf(config)
  const correction = config.tokenCorrections[config.model] ?? 1
  return Math.ceil((window * SAFETY_SHARE) / (2 * correction)) + 1
}

export function overSafetyLimit(context: BuiltContext): boolean {
  return context.tokenStats.total > safetyLimit(context)
}

const inputEntryOf = (context: BuiltContext): TraceEntry | undefined =>
  context.trace.find((entry) => entry.id === 'input')

/** The input's cost in this build (framing and reply priming included). */
function inputTokensOf(context: BuiltContext): number {
  return inputEntryOf(context)?.tokens ?? 0
}

/**
 * What the input may cost for the request to end at the limit, with everything else as built;
 * null when not even MIN_INPUT_TOKENS would be left (the rest of the request is the problem).
 */
export function inputAllowance(context: BuiltContext): number | null {
  const others = context.tokenStats.total - inputTokensOf(context)
  const allowance = safetyLimit(context) - others
  return allowance >= MIN_INPUT_TOKENS ? allowance : null
}

const trimMarker = (omittedTokens: number): string =>
  `\n\n[… about ${omittedTokens} tokens of this message were left out here to fit the model's context window; the full text is stored …]\n\n`

/**
 * The head and the tail of the indexed text (half of `maxTokens` each, the marker included),
 * the middle replaced by a marker that says how much is missing, and what that costs.
 * Questions tend to sit at the start of a paste and errors at its end, so both ends are kept.
 * With the index (tokenIndex.ts) this costs two slices' BPE, however long the paste.
 */
function trimMiddleIndexed(index: TokenIndex, maxTokens: number, counter: TokenCounter): Truncated {
  const total = indexedTokens(index)
  if (total <= maxTokens) return { text: index.text, tokens: total }
  const half = Math.max(
    0,
    Math.floor((maxTokens - counter.count(trimMarker(total - maxTokens))) / 2)
  )
  const head = counter.headOf(index, half)
  const tail = counter.tailOf(index, half)
  const marker = trimMarker(total - head.tokens - tail.tokens)
  return {
    text: `${head.text}${marker}${tail.text}`,
    tokens:
      head.tokens +
      counter.count(marker) +
      tail.tokens +
      seamCorrection(head.text, marker, tail.text, counter)
  }
}

/**
 * Head, marker and tail are counted apart, but the model reads them joined, and a piece of
 * o200k's pre-tokenizer can cross a seam: a head ending in punctuation takes the marker's
 * newlines into its piece, and the marker's closing "]\n\n" a tail's leading "/" (one seeded
 * base64 paste in 60 came out a token over what was sent, and failed a fresh clone's tests
 * once). Recounting a window on each side of the seams corrects it; the windows' own cut ends
 * are counted the same way both times, so it is exact unless a piece crossing a seam is longer
 * than the window.
 */
const SEAM_CHARS = 256

function seamCorrection(head: string, marker: string, tail: string, counter: TokenCounter): number {
  const before = head.slice(-SEAM_CHARS)
  const after = tail.slice(0, SEAM_CHARS)
  return (
    counter.count(before + marker + after) -
    counter.count(before) -
    counter.count(marker) -
    counter.count(after)
  )
}

/** `text` with its middle left out to fit `maxTokens`, and what the result costs. */
export function trimMiddle(text: string, maxTokens: number, counter: TokenCounter): Truncated {
  return trimMiddleIndexed(runSteps(counter.indexSteps(text, null)), maxTokens, counter)
}

export interface SafetyNetReport {
  /** The request as first built, in tokens. */
  neededTokens: number
  /** The total budget was capped at the limit (flexible sections shrank). */
  shrunk: boolean
  /** The input's tokens before trimming, when its middle was left out. */
  trimmedFrom: number | null
}

/** The build with what the safety net did recorded: a warning per action, a note on the input. */
export function recordSafetyNet(context: BuiltContext, report: SafetyNetReport): BuiltContext {
  const limit = safetyLimit(context)
  const window = context.tokenStats.contextWindow
  const warnings = [...context.metadata.warnings]
  if (report.shrunk) {
    warnings.push({
      code: 'request_shrunk',
      message: `The request needed ${report.neededTokens} tokens, over ${Math.round(SAFETY_SHARE * 100)} % of the model's ${window}-token window; it was rebuilt within ${limit} tokens.`
    })
  }
  let trace: TraceEntry[] = context.trace
  if (report.trimmedFrom !== null) {
    const sent = inputTokensOf(context)
    // Counted only at its ends (endsFirstCount.ts): the whole is extrapolated.
    const about = inputEntryOf(context)?.counting === 'ends' ? 'about ' : ''
    warnings.push({
      code: 'input_trimmed',
      message: `Your message needs ${about}${report.trimmedFrom} tokens; only its beginning and end (${sent} tokens) were sent to fit the model's ${window}-token window. The full message is stored.`
    })
    trace = context.trace.map((entry) =>
      entry.id === 'input'
        ? {
            ...entry,
            note: [
              entry.note,
              `middle left out to fit the window: ${sent} of ${about}${report.trimmedFrom} tokens sent`
            ]
              .filter(Boolean)
              .join('; ')
          }
        : entry
    )
  }
  return { ...context, trace, metadata: { ...context.metadata, warnings } }
}

/**
 * `first` as it is when it fits; else rebuilt (through `rebuild`, which builds the same turn
 * with another input text, configuration and input count) with the total budget capped at the
 * limit, then with the input trimmed to its ends, at most three times.
 */
export async function keepUnderSafetyLimit(
  first: BuiltContext,
  config: ContextConfig,
  input: { text: string; index: TokenIndex; count: TokenCount; counter: TokenCounter },
  rebuild: (input: string, config: ContextConfig, count: TokenCount) => Promise<BuiltContext>
): Promise<BuiltContext> {
  const { index, count: inputCount, counter } = input
  if (!overSafetyLimit(first)) return first
  const report: SafetyNetReport = {
    neededTokens: first.tokenStats.total,
    shrunk: false,
    trimmedFrom: null
  }
  let context = first
  let capped = config
  if (first.tokenStats.budget > safetyLimit(first)) {
    capped = { ...config, totalBudget: safetyLimit(first) }
    context = await rebuild(input.text, capped, inputCount)
    report.shrunk = true
  }
  let sentCount = inputCount
  // Framing and the correction factor make the input's cost differ from its text's count;
  // scale by what the build measured, and aim a little lower on each further try.
  for (let attempt = 1; attempt <= 3 && overSafetyLimit(context); attempt++) {
    const allowance = inputAllowance(context)
    if (allowance === null) break
    const goal = Math.floor(
      (sentCount.tokens * allowance * (1 - 0.02 * attempt)) / inputTokensOf(context)
    )
    const sent = trimMiddleIndexed(index, goal, counter)
    sentCount = { tokens: sent.tokens, method: inputCount.method }
    context = await rebuild(sent.text, capped, sentCount)
    report.trimmedFrom = inputTokensOf(first)
  }
  return recordSafetyNet(context, report)
}
