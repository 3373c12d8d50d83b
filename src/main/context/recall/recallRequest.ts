/**
 * What a build asks memory search for, decided before the search from the budget and the
 * thread: how many candidates, and which of the thread's messages not to recall.
 */
import type { ContextConfig, SectionPercentages } from '@shared/contextConfig'
import type { Message } from '@shared/domain'
import { sectionShares, totalBudgetOf } from '../budget'

/**
 * A recalled message or memory costs about this many tokens (LoCoMo turns: ~30 with framing).
 * The limit counts items: memory search counts a recalled message twice, since its
 * neighbouring turn comes with it (hybridSearch.ts).
 */
const TOKENS_PER_RECALLED_ITEM = 30
/** Asked for even on a tiny budget: the builder ranks and drops what does not fit. */
export const MIN_RECALL_LIMIT = 20
/**
 * Past this, a longer list mostly adds search time (each list reads this many). 100 capped a
 * new thread at about 3,000 tokens of recall on LoCoMo, however large the budget.
 */
export const MAX_RECALL_LIMIT = 400
type ThreadMessage = Pick<Message, 'id' | 'seq' | 'tokenCount' | 'pinned' | 'excluded'>

/**
 * How many candidates to ask memory search for: as many as the retrieved section could place.
 * That section can receive the whole budget except what the recent window keeps (its share, or
 * less when the thread's messages do not fill it), since the pool goes to retrieved first
 * (REDISTRIBUTION_ORDER). `recentTokens` is what the thread's messages cost verbatim (an upper
 * bound is fine).
 */
export function recallLimit(
  total: number,
  percentages: SectionPercentages,
  recentTokens: number
): number {
  const recentShare = sectionShares(total, percentages).recent
  const reachable = total - Math.min(recentShare, Math.max(0, recentTokens))
  const items = Math.ceil(reachable / TOKENS_PER_RECALLED_ITEM)
  return Math.min(MAX_RECALL_LIMIT, Math.max(MIN_RECALL_LIMIT, items))
}

/**
 * The messages the recent window is certain to send: pinned ones, and the newest that fit in
 * its share after pinned messages and the token correction, never one the summary covers
 * (seq <= `summarizedThrough`). The whole share is certain: only a mandatory item over budget
 * can reclaim from the window, and reclaiming takes the summary and recall first. Recalling
 * these messages would only produce duplicates, which take candidate slots from older
 * messages and make the retrieved section claim budget it will not use.
 */
export function certainlySentIds(
  messages: readonly ThreadMessage[],
  recentShare: number,
  options: {
    correction?: number
    summarizedThrough?: number
    /** The thread's pinned messages, when the caller has them (else found by a pass). */
    pinned?: readonly ThreadMessage[]
  } = {}
): number[] {
  const correction = options.correction ?? 1
  const after = options.summarizedThrough ?? -Infinity
  const last = messages.at(-1)?.seq ?? -Infinity
  const pinned = (options.pinned ?? messages.filter((m) => m.pinned)).filter(
    (m) => m.pinned && !m.excluded && m.seq > after && m.seq <= last
  )
  let room = recentShare - pinned.reduce((sum, m) => sum + m.tokenCount * correction, 0)
  const ids = pinned.map((m) => m.id)
  // From the newest back, only as far as the share reaches: never a pass over a long thread.
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as ThreadMessage
    if (message.seq <= after) break
    if (message.excluded || message.pinned) continue
    room -= message.tokenCount * correction
    if (room < 0) break
    ids.push(message.id)
  }
  return ids
}

/** The limit and exclusions for one build's memory search. */
export function recallRequest(
  config: ContextConfig,
  messages: readonly ThreadMessage[],
  summarizedThrough?: number,
  /** What the caller keeps per thread: the tokens of `messages` and the pinned ones. */
  known: { tokens?: number; pinned?: readonly ThreadMessage[] } = {}
): { limit: number; excludeMessageIds: number[] } {
  const total = totalBudgetOf(config)
  const recentTokens = known.tokens ?? messages.reduce((sum, m) => sum + m.tokenCount, 0)
  const recentShare = sectionShares(total, config.percentages).recent
  const correction = config.tokenCorrections[config.model] ?? 1
  return {
    limit: recallLimit(total, config.percentages, recentTokens),
    excludeMessageIds: certainlySentIds(messages, recentShare, {
      correction,
      summarizedThrough,
      ...(known.pinned && { pinned: known.pinned })
    })
  }
}
