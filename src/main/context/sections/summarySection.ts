/**
 * The thread's summary, sent right after the system prompt. It gets its share plus whatever
 * is still unused. Over both, its beginning is kept if at least half fits; a summary cut
 * shorter than that is dropped, since a stub misleads more than it tells.
 */
import type { ThreadSummary } from '@shared/context'
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import { TextSection } from './section'

function renderSummary(summary: ThreadSummary): string {
  return `[Summary of the conversation up to message #${summary.lastMessageSeq}]\n${summary.content}`
}

export class SummarySection extends TextSection {
  constructor(summary: ThreadSummary | null, meter: TokenMeter) {
    super('summary', summary ? renderSummary(summary) : null, meter)
  }

  place(build: ContextBuild): void {
    const { budget } = build
    budget.offerPool('summary')
    const held = budget.holding('summary')
    if (this.text !== null && this.demand > held) {
      this.cut(
        held * 2 >= this.demand ? build.meter.truncateMessage(this.text, held) : '',
        build.meter
      )
      build.warn(
        'summary_truncated',
        this.text === null
          ? `The summary needs ${this.demand} tokens but only ${held} are left; it was left out.`
          : `The summary needs ${this.demand} tokens; it was cut to ${this.tokens}.`
      )
    }
    budget.release('summary', this.tokens)
    if (this.text !== null) build.tracker.record('summary', this.tokens)
  }
}
