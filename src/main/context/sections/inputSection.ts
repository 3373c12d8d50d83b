/** The user's input: sent whole and last, whatever it costs; the build says when that is too much. */
import type { BuildRequest, BuildWarning, CountMethod, TraceEntry } from '@shared/context'
import type { ContextBuild } from '../contextBuilder'
import { runSteps } from '../steps'
import { inputCountingReport } from '../tokens/inputCounting'
import { REPLY_PRIMING_TOKENS, type TokenMeter } from '../tokens/messageTokens'
import type { Section } from './section'

export class InputSection implements Section {
  /** With the reply's priming, which the provider adds after the last message. */
  readonly tokens: number
  readonly counting: CountMethod
  /** What the build says about how it was counted, when not exactly. */
  readonly countingWarning: BuildWarning | null
  /** The same, as its trace entry's note. */
  private readonly note: string | undefined

  constructor(request: BuildRequest, meter: TokenMeter) {
    const count = request.inputCount ?? runSteps(meter.counter.countSteps(request.input))
    this.tokens = meter.stored(count.tokens) + REPLY_PRIMING_TOKENS
    const report = inputCountingReport(count, meter.counter.exact)
    this.countingWarning = report.warning
    this.note = report.note
    this.counting = count.method
  }

  hold(build: ContextBuild): void {
    build.budget.hold('input', this.tokens)
  }

  place(build: ContextBuild): void {
    const { budget } = build
    if (!budget.claim('input', this.tokens)) {
      build.warn(
        'input_over_budget',
        `The input needs ${this.tokens} tokens, ${this.tokens - budget.holding('input')} more than the budget has left; it is sent whole.`
      )
    }
    build.tracker.record('input', this.tokens)
  }

  entries(): TraceEntry[] {
    return [
      {
        id: 'input',
        kind: 'input',
        section: 'input',
        tokens: this.tokens,
        decision: 'included',
        counting: this.counting,
        ...(this.note === undefined ? {} : { note: this.note })
      }
    ]
  }
}
