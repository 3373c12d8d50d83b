/**
 * The shape every part of a request has: measured when the build starts (its constructor),
 * then given its budget in `buildContext`'s order. A new section is one module here and one
 * line in contextBuilder.ts.
 */
import type { TraceEntry } from '@shared/context'
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'

export interface Section {
  /** Keeps what it needs of its own share before anything is placed (BudgetAllocator.hold). */
  hold(build: ContextBuild): void
  /** Takes its budget and decides what it sends. */
  place(build: ContextBuild): void
}

/** A section that is one text sent as one message (the system prompt, summary, pinning block). */
export abstract class TextSection implements Section {
  /** What is sent; null: nothing. */
  text: string | null
  tokens: number
  /** What the full text would cost. */
  readonly demand: number
  truncated = false

  constructor(
    private readonly id: 'system' | 'summary' | 'pinning',
    text: string | null,
    meter: TokenMeter
  ) {
    this.text = text
    this.tokens = text === null ? 0 : meter.message(text)
    this.demand = this.tokens
  }

  hold(build: ContextBuild): void {
    build.budget.hold(this.id, this.demand)
  }

  abstract place(build: ContextBuild): void

  /** Sends nothing; the trace keeps its demand and says it was dropped. */
  protected drop(): void {
    this.text = null
    this.tokens = 0
  }

  /** Sends `text`, a cut of the whole, instead; an empty cut sends nothing. */
  protected cut(text: string | null, meter: TokenMeter): void {
    this.text = text || null
    this.truncated = true
    this.tokens = this.text === null ? 0 : meter.message(this.text)
  }

  /** Its trace entry; none when there was nothing to send. */
  entries(): TraceEntry[] {
    if (this.demand === 0) return []
    const sent = this.text !== null
    const entry: TraceEntry = {
      id: this.id,
      kind: this.id,
      section: this.id,
      tokens: sent ? this.tokens : this.demand,
      decision: sent ? 'included' : 'dropped_budget'
    }
    if (sent && this.truncated) entry.note = `truncated from ${this.demand} tokens`
    return [entry]
  }
}
