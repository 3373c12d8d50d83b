/**
 * What a thread's replies cost, explained: per reply the prompt tokens served from the cache,
 * written to it and uncached, the cost of each part, and where the request first differed from
 * the previous one; per thread the total, what the cache saved and what the replies would have
 * cost without cache-aware ordering (`chat.costReport`).
 */
import type { SectionName } from './context'
import type { Role } from './domain'
import type { ChatUsage } from './providers'

/** A reply's cost split by token kind, in US dollars. */
export interface CostParts {
  /** Prompt tokens neither read from nor written to the cache. */
  input: number
  cacheRead: number
  cacheWrite: number
  output: number
  total: number
}

/** One provider message of a request, located in the build that produced it. */
export interface PrefixPoint {
  /** Index in the request's messages. */
  index: number
  /** `other`: a message the build's trace does not name (a section added later, say). */
  section: SectionName | 'other'
  /** The trace id of the item ("system", "summary", a message id, "input"); null when unknown. */
  itemId: string | null
  seq: number | null
  role: Role
}

/** How much of a request repeated the previous one byte for byte, from its first message. */
export interface PrefixDivergence {
  /** Leading messages identical to the previous request's. */
  sharedMessages: number
  /** Their tokens as the builds counted them. */
  sharedTokens: number
  totalMessages: number
  totalTokens: number
  /** The first message of this request that differs; null when the previous one is a prefix. */
  first: PrefixPoint | null
  /** What the previous request had at that position; null when it ended there. */
  previous: PrefixPoint | null
}

export interface ReplyCost {
  messageId: number
  /** The sent build the reply answered, when it is still stored. */
  buildId: number | null
  usage: ChatUsage
  /** Prompt tokens billed at the full input price. */
  uncachedTokens: number
  /** Null when the model has no known price. */
  parts: CostParts | null
  /** What cache reads saved against the full input price, less the premium paid for writes. */
  savings: number | null
  /** Against the thread's previous sent build; null for the first request. */
  divergence: PrefixDivergence | null
  /** A previous request exists and the provider reported no cache read at all. */
  cacheMissed: boolean
}

export interface ThreadCostReport {
  replies: ReplyCost[]
  totals: {
    promptTokens: number
    cacheReadTokens: number
    cacheWriteTokens: number
    uncachedTokens: number
    /** Sum of the known costs; null when no reply had a price. */
    cost: number | null
    savings: number | null
    unpricedReplies: number
  }
  /**
   * The same replies priced as if the window had slid a message at a time (each turn and its
   * predecessor rebuilt with `window.policy: 'sliding'`); null when not asked for or when
   * nothing could be priced.
   */
  whatIf: { cost: number; cacheReadTokens: number; turns: number } | null
}
