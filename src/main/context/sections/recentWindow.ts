/**
 * The recent messages: the window gets the recent share plus the whole pool. Memories that
 * repeat a message it took are duplicates; the tokens they held are offered back to the
 * window, which may then take more (and so find more duplicates), until nothing changes.
 */
import type { ContextMessage } from '@shared/context'
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import { markSentDuplicates, memoriesDemand } from './retrievedMemories'
import type { PinnedMessages } from './pinnedMessages'
import type { Section } from './section'
import { SlidingWindow } from './slidingWindow'
import { chunkTokens } from './windowCut'

/**
 * Sections whose size changes from turn to turn with the input. The chunked window's cut
 * assumes each uses exactly its share, so their ups and downs do not move it.
 */
const PER_TURN_SECTIONS = ['input', 'retrieved', 'attachments'] as const

export class RecentWindow implements Section {
  readonly window: SlidingWindow

  constructor(
    messages: readonly ContextMessage[],
    coveredEnd: number,
    private readonly pinned: PinnedMessages,
    meter: TokenMeter
  ) {
    this.window = new SlidingWindow(messages, coveredEnd, pinned.groups, meter)
  }

  hold(build: ContextBuild): void {
    build.budget.hold('recent', Infinity)
  }

  place(build: ContextBuild): void {
    const { window, pinned } = this
    const { budget, memories } = build
    let cut = false
    if (build.config.window.policy === 'chunked') {
      const steady = budget.steadyBudget('recent', PER_TURN_SECTIONS) - pinned.tokens
      // A mandatory item (a huge paste) squeezed the steady budget below a chunk: this request
      // shares no history prefix with the last one anyway, so it slides rather than sending
      // no history while budget is left for some.
      if (steady >= chunkTokens(build.total, Infinity)) {
        window.cutInChunks(steady, chunkTokens(build.total, steady))
        cut = true
      }
    }
    // A cut window goes before recall's claim beyond its share: its cut bounds what it takes,
    // and a window that stopped short of its cut whenever recall found more would slide a
    // message or two every turn and break the prompt cache (issue #17).
    window.fill(budget.offerPool('recent', cut ? ['retrieved'] : []) - pinned.tokens)
    let checked = 0
    while (checked < window.units.length) {
      markSentDuplicates(memories.items, window.units.slice(checked).flat())
      checked = window.units.length
      const stillNeeded = memoriesDemand(memories.items, build.meter)
      if (budget.holding('retrieved') <= stillNeeded) break
      budget.release('retrieved', stillNeeded)
      const before = budget.holding('recent')
      window.fill(budget.offerPool('recent', cut ? ['retrieved'] : []) - before)
    }
    window.close()
    budget.release('recent', pinned.tokens + window.used)
    build.tracker.record('recent', window.used, window.units.flat().length)
  }

  /** Units sent in the recent section: pinned groups and the window, oldest first. */
  get units(): ContextMessage[][] {
    return [...this.pinned.sent.map((group) => group.members), ...this.window.units].sort(
      (a, b) => (a[0]?.seq ?? 0) - (b[0]?.seq ?? 0)
    )
  }
}
