/**
 * The last check before a request leaves: a build may still be too big for the model (a total
 * budget set above its window, a huge paste, a long pinned message). Over SAFETY_SHARE of the
 * window, the caller first rebuilds with the budget capped at that limit (older history and
 * memories give way), then, if the user's own text is what does not fit, sends its head and
 * tail with a marker in place of the middle. Only the request changes; the stored message
 * stays whole, and the build says what happened so the chat and the inspector can tell the user.
 */
import type { BuiltContext, TraceEntry } from '@shared/context'
import { runSteps, type Steps } from './steps'
import type { TokenCounter, Truncated } from './tokenCounter'

/** Requests over this share of the model's window are shrunk before sending. */
export const SAFETY_SHARE = 0.85
/** Below this, a trimmed message would say nothing; the request is left for the provider to judge. */
export const MIN_INPUT_TOKENS = 200

export function safetyLimit(context: BuiltContext): number {
  return Math.floor(context.tokenStats.contextWindow * SAFETY_SHARE)
}

export function overSafetyLimit(context: BuiltContext): boolean {
  return context.tokenStats.total > safetyLimit(context)
}

/** The input's cost in this build (framing and reply priming included). */
export function inputTokensOf(context: BuiltContext): number {
  return context.trace.find((entry) => entry.id === 'input')?.tokens ?? 0
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

export const trimMarker = (omittedTokens: number): string =>
  `\n\n[… about ${omittedTokens} tokens of this message were left out here to fit the model's context window; the full text is stored …]\n\n`

/**
 * The head and the tail of `text` (half of `maxTokens` each, the marker included), the middle
 * replaced by a marker that says how much is missing. Questions tend to sit at the start of a
 * paste and errors at its end, so both ends are kept. `total` is the text's count when the
 * caller has it. In steps (see steps.ts): a 2 M-character paste takes seconds to count.
 */
export function* trimMiddleSteps(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
  total?: number
): Steps<string> {
  const whole = total ?? (yield* counter.countSteps(text)).tokens
  if (whole <= maxTokens) return text
  const half = Math.max(0, Math.floor((maxTokens - counter.count(trimMarker(whole - maxTokens))) / 2))
  const head = yield* counter.truncateSteps(text, half)
  const tail = yield* lastTokens(text.slice(head.text.length), half, whole - head.tokens, counter)
  const omitted = whole - head.tokens - tail.tokens
  return `${head.text}${trimMarker(omitted)}${tail.text}`
}

export function trimMiddle(text: string, maxTokens: number, counter: TokenCounter): string {
  return runSteps(trimMiddleSteps(text, maxTokens, counter))
}

/**
 * The longest suffix of `text` that fits `maxTokens`, found from the text's own chars/token
 * (`tokens` is about what all of `text` costs), so only the suffix is ever counted.
 */
function* lastTokens(
  text: string,
  maxTokens: number,
  tokens: number,
  counter: TokenCounter
): Steps<Truncated> {
  if (maxTokens <= 0 || text.length === 0) return { text: '', tokens: 0 }
  const perToken = text.length / Math.max(1, tokens)
  let chars = Math.min(text.length, Math.floor(maxTokens * perToken))
  let tail = text.slice(text.length - chars)
  let cost = (yield* counter.countSteps(tail)).tokens
  // The ratio is an average: step back until the slice fits (rarely more than twice).
  while (chars > 0 && cost > maxTokens) {
    chars = Math.floor(chars * 0.9)
    tail = text.slice(text.length - chars)
    cost = (yield* counter.countSteps(tail)).tokens
  }
  return { text: tail, tokens: cost }
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
    warnings.push({
      code: 'input_trimmed',
      message: `Your message needs ${report.trimmedFrom} tokens; only its beginning and end (${sent} tokens) were sent to fit the model's ${window}-token window. The full message is stored.`
    })
    trace = context.trace.map((entry) =>
      entry.id === 'input'
        ? {
            ...entry,
            note: [
              entry.note,
              `middle left out to fit the window: ${sent} of ${report.trimmedFrom} tokens sent`
            ]
              .filter(Boolean)
              .join('; ')
          }
        : entry
    )
  }
  return { ...context, trace, metadata: { ...context.metadata, warnings } }
}
