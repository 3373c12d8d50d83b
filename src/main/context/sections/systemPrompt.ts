/** The system prompt: sent whole, cut only when even reclaiming every flexible section leaves too little. */
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import { TextSection } from './section'

export class SystemPrompt extends TextSection {
  constructor(text: string | null, meter: TokenMeter) {
    super('system', text, meter)
  }

  place(build: ContextBuild): void {
    const { budget } = build
    budget.claim('system', this.demand)
    const held = budget.holding('system')
    if (this.text !== null && this.demand > held) {
      this.cut(build.meter.truncateMessage(this.text, held), build.meter)
      build.warn(
        'system_truncated',
        `The system prompt needs ${this.demand} tokens; it was cut to ${this.tokens} to fit the budget.`
      )
    }
    if (this.text !== null) build.tracker.record('system', this.tokens)
  }
}
