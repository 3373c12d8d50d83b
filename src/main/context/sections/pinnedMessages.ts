/** Pinned messages, with their tool-call groups: sent whatever they cost, never excluded ones. */
import type { ContextMessage, TraceEntry } from '@shared/context'
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import type { Section } from './section'
import { pinnedGroupEntries, pinnedGroups, type PinnedGroup } from './slidingWindow'

export class PinnedMessages implements Section {
  readonly groups: PinnedGroup[]
  /** The groups sent: none of their members is excluded. */
  readonly sent: PinnedGroup[]
  readonly tokens: number

  constructor(
    messages: readonly ContextMessage[],
    pinned: readonly ContextMessage[],
    private readonly meter: TokenMeter
  ) {
    this.groups = pinnedGroups(messages, pinned, meter)
    this.sent = this.groups.filter((group) => !group.excluded)
    this.tokens = this.sent.reduce((sum, group) => sum + group.tokens, 0)
  }

  /** They take from the recent section, which the window holds. */
  hold(): void {}

  place(build: ContextBuild): void {
    const { budget } = build
    if (!budget.claim('recent', this.tokens)) {
      build.warn(
        'pinned_over_budget',
        `Pinned messages need ${this.tokens} tokens, more than the budget allows; they are sent anyway.`
      )
    }
    budget.protect('recent', Math.min(this.tokens, budget.holding('recent')))
    const count = this.sent.reduce((sum, group) => sum + group.members.length, 0)
    build.tracker.record('recent', this.tokens, count)
  }

  entries(): TraceEntry[] {
    return this.groups.flatMap((group) => pinnedGroupEntries(group, this.meter))
  }
}
