/**
 * Explains what a thread's replies cost (`chat.costReport`): per reply the prompt tokens served
 * from the cache, written to it and uncached with the cost of each part, and, from the stored
 * builds, where the request first differed from the previous one (prefixDivergence). Per thread
 * the total, what the cache saved, and a what-if: each priced turn and its predecessor replayed
 * with the sliding window (`window.policy: 'sliding'`), whose shared prefix is what the cache
 * could have served without cache-aware ordering.
 */
import type { BuiltContext, StoredBuild } from '@shared/context'
import type { ContextConfigPatch } from '@shared/contextConfig'
import type { ReplyCost, ThreadCostReport } from '@shared/costReport'
import type { Message } from '@shared/domain'
import { prefixDivergence } from '../../context/caching/prefixDivergence'
import type { ModelPrices } from './types'
import { cacheSavings, costBreakdown, uncachedTokens, usageWithReusablePrefix } from './usage'

/** Replies the what-if replays at most (the newest ones): each costs a build. */
const WHAT_IF_MAX_TURNS = 40

/** The window without cache-aware ordering (one message at a time), for the what-if. */
const SLIDING_WINDOW_PATCH: ContextConfigPatch = { window: { policy: 'sliding' } }

export interface CostReportDeps {
  messages: (threadId: string) => Message[]
  builds: (threadId: string) => StoredBuild[]
  prices: (providerId: string | null, modelId: string) => ModelPrices | null
  /** The turn of a stored user message rebuilt under a configuration patch, not stored. */
  replay: (threadId: string, message: Message, patch: ContextConfigPatch) => Promise<BuiltContext>
  log: (message: string, error: unknown) => void
}

interface PricedTurn {
  reply: Message
  input: Message
  previousInput: Message
  prices: ModelPrices
  /** Our count of the sent build, to scale our token counts to the provider's. */
  builtTokens: number
  /** Our count of the prefix the sent build shared with the one before it; null: unknown. */
  sharedTokens: number | null
}

export class CostReportService {
  constructor(private readonly deps: CostReportDeps) {}

  async report(threadId: string, withWhatIf = false): Promise<ThreadCostReport> {
    const messages = this.deps.messages(threadId)
    // Oldest first: a build's predecessor is the build sent just before it.
    const builds = [...this.deps.builds(threadId)].sort((a, b) => a.id - b.id)
    const replies: ReplyCost[] = []
    const turns: PricedTurn[] = []
    let lastInput: Message | null = null
    let previousInput: Message | null = null
    for (const message of messages) {
      if (message.role === 'user') {
        previousInput = lastInput
        lastInput = message
        continue
      }
      const usage = message.reply?.usage
      if (message.role !== 'assistant' || !usage || !message.reply) continue
      const build = sentBuild(builds, lastInput, message)
      const index = build ? builds.indexOf(build) : -1
      const before = index > 0 ? builds[index - 1]! : null
      const prices = this.deps.prices(message.reply.providerId, message.reply.modelId)
      const parts =
        message.reply.costParts ??
        (message.reply.cost !== null && prices ? costBreakdown(usage, prices) : null)
      const divergence = build && before ? prefixDivergence(before.context, build.context) : null
      replies.push({
        messageId: message.id,
        buildId: build?.id ?? null,
        usage,
        uncachedTokens: uncachedTokens(usage),
        parts,
        savings: prices ? cacheSavings(usage, prices) : null,
        divergence,
        cacheMissed: before !== null && usage.cacheReadTokens === 0
      })
      if (prices && parts && lastInput && previousInput && build) {
        turns.push({
          reply: message,
          input: lastInput,
          previousInput,
          prices,
          builtTokens: build.context.tokenStats.total,
          sharedTokens: divergence?.sharedTokens ?? null
        })
      }
    }
    return {
      replies,
      totals: totalsOf(replies),
      whatIf: withWhatIf ? await this.whatIf(threadId, replies, turns) : null
    }
  }

  private async whatIf(
    threadId: string,
    replies: ReplyCost[],
    turns: PricedTurn[]
  ): Promise<ThreadCostReport['whatIf']> {
    const priced = replies.filter((r) => r.parts !== null)
    if (priced.length === 0) return null
    const replayed = new Map<number, Promise<BuiltContext>>()
    const replay = (input: Message) => {
      let build = replayed.get(input.id)
      if (!build) {
        build = this.deps.replay(threadId, input, SLIDING_WINDOW_PATCH)
        replayed.set(input.id, build)
      }
      return build
    }
    // Replies the what-if does not replay cost what they cost.
    let cost = priced.reduce((sum, r) => sum + r.parts!.total, 0)
    let cacheReadTokens = priced.reduce((sum, r) => sum + r.usage.cacheReadTokens, 0)
    let counted = 0
    for (const turn of turns.slice(-WHAT_IF_MAX_TURNS)) {
      const actual = priced.find((r) => r.messageId === turn.reply.id)!
      try {
        const [before, now] = await Promise.all([replay(turn.previousInput), replay(turn.input)])
        const shared = prefixDivergence(before, now).sharedTokens
        const usage = usageWithReusablePrefix(actual.usage, reusableTokens(turn, actual, shared))
        const parts = costBreakdown(usage, turn.prices)
        if (!parts) continue
        cost += parts.total - actual.parts!.total
        cacheReadTokens += usage.cacheReadTokens - actual.usage.cacheReadTokens
        counted++
      } catch (error) {
        this.deps.log(`cost what-if for reply ${turn.reply.id} failed`, error)
      }
    }
    return { cost, cacheReadTokens, turns: counted }
  }
}

/**
 * The provider tokens the sliding replay's shared prefix would have let the cache serve. When the
 * sent build's own shared prefix is known and was read, the provider's reads are scaled by the
 * ratio of the two prefixes (both our counts, so the provider's tokenizer and framing cancel
 * out); otherwise our count is scaled by the reply's prompt tokens over the build's.
 */
function reusableTokens(turn: PricedTurn, actual: ReplyCost, replayShared: number): number {
  if (turn.sharedTokens !== null && turn.sharedTokens > 0) {
    return (actual.usage.cacheReadTokens * replayShared) / turn.sharedTokens
  }
  const scale = turn.builtTokens > 0 ? actual.usage.promptTokens / turn.builtTokens : 1
  return replayShared * scale
}

/** The newest build for the reply's user message sent before the reply was stored. */
function sentBuild(
  builds: StoredBuild[],
  input: Message | null,
  reply: Message
): StoredBuild | null {
  if (!input) return null
  let found: StoredBuild | null = null
  for (const build of builds) {
    if (build.messageId === input.id && build.createdAt <= reply.createdAt) found = build
  }
  return found
}

function totalsOf(replies: ReplyCost[]): ThreadCostReport['totals'] {
  const totals: ThreadCostReport['totals'] = {
    promptTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    uncachedTokens: 0,
    cost: null,
    savings: null,
    unpricedReplies: 0
  }
  for (const reply of replies) {
    totals.promptTokens += reply.usage.promptTokens
    totals.cacheReadTokens += reply.usage.cacheReadTokens
    totals.cacheWriteTokens += reply.usage.cacheWriteTokens
    totals.uncachedTokens += reply.uncachedTokens
    if (reply.parts === null) totals.unpricedReplies += 1
    else totals.cost = (totals.cost ?? 0) + reply.parts.total
    if (reply.savings !== null) totals.savings = (totals.savings ?? 0) + reply.savings
  }
  return totals
}
