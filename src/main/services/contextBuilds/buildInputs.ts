/**
 * What a build asks the other services for about its input: recalled items (memory search,
 * leaving out a fork's other branches), the files that go with the turn and the thread's
 * tools. ContextBuildService gathers them once per input; the safety net's rebuilds reuse them.
 */
import type { ActiveTaskState, MemoryCandidate, ThreadSummary, ToolInput } from '@shared/context'
import type { ContextConfig } from '@shared/contextConfig'
import type { Message } from '@shared/domain'
import { recalledLine } from '../../context/sections/retrievedMemories'
import { tokenCounterFor, type TokenCounter } from '../../context/tokens/tokenCounter'
import type { TokenIndex } from '../../context/tokens/tokenIndex'
import { recallMemories, type MemorySearch, type Recall } from '../../context/recall/memorySearch'
import { queryInContext, recallQuery, type RecallQuery } from '../../context/recall/recallQuery'
import { recallRequest } from '../../context/recall/recallRequest'
import type { BuildAttachments } from '../files/fileService'
import { leaveOutOtherBranches, type ForkLineage } from '../memory/forkRecallFilter'
import { runSliced } from '../slicedWork'
import type { TurnProbe } from '../chat/turnProbe'

const MEMORY_TIMEOUT_MS = 500

/** Items at least this long are counted before the build, in slices. */
const LONG_ITEM_CHARS = 2_000

export interface BuildInputsDeps {
  memory: MemorySearch
  /**
   * The files that go with a turn (the input message's, or the draft's for a preview, and the
   * thread's), their chunks scored against `query` (services/files).
   */
  attachments?: (
    threadId: string,
    input: { messageId: number } | 'draft',
    query: string
  ) => Promise<BuildAttachments>
  /** Fork lineage: recall in a fork leaves out the branches it did not take. */
  lineage?: ForkLineage
  /** The tools the thread exposes, with their relevance to the input (services/tools). */
  tools?: (threadId: string, query: string) => Promise<ToolInput[]>
  /** The moments of a turn (the whole-turn benchmark). */
  probe?: TurnProbe
}

/** What one build reads from the thread, besides the configuration. */
export interface TurnData {
  threadId: string
  /** The window's candidates, oldest first. */
  messages: Message[]
  input: string
  taskState: ActiveTaskState | undefined
  /** Stored messages that must not come back as recalled items (the input itself, say). */
  notRecalled: number[]
  /** The input's index when the caller has it (a preview's, see DraftCounts). */
  inputIndex?: TokenIndex
  /** Whose files go with the turn: the stored input message's, or the composer's drafts. */
  files: { messageId: number } | 'draft'
  /** The tokens of `messages`, when the cache keeps the sum (else summed here). */
  historyTokens?: number
  /** The indexes of `messages`' empty replies, when the cache keeps them (`BuildRequest`). */
  emptyReplies?: readonly number[]
}

/** What one input gathered from the services; the safety net's rebuilds reuse it. */
export interface Gathered {
  recall: Recall
  files: BuildAttachments | undefined
  tools: ToolInput[]
}

export class BuildInputs {
  constructor(private readonly deps: BuildInputsDeps) {}

  /** Recalled items, files and tools for the turn's input. */
  async gather(
    turn: TurnData,
    config: ContextConfig,
    summary: ThreadSummary | null,
    pinned: Message[]
  ): Promise<Gathered> {
    const { threadId, messages, input, taskState } = turn
    const query = recallQuery(input, messages, taskState)
    const found = await this.recall(turn, config, summary, pinned, query)
    const recall = this.deps.lineage
      ? { ...found, memories: leaveOutOtherBranches(threadId, found.memories, this.deps.lineage) }
      : found
    await countLongItems(recall.memories, tokenCounterFor(config.model))
    const files = await this.deps.attachments?.(threadId, turn.files, queryInContext(query))
    const tools = (await this.deps.tools?.(threadId, query.text)) ?? []
    return { recall, files, tools }
  }

  /** Memory search for one build: as many candidates as the retrieved section could place. */
  private async recall(
    turn: TurnData,
    config: ContextConfig,
    summary: ThreadSummary | null,
    pinned: Message[],
    query: RecallQuery
  ): Promise<Recall> {
    const { threadId, messages } = turn
    // None that the window sends anyway (recallRequest.ts).
    const request = recallRequest(config, messages, summary?.lastMessageSeq, {
      pinned,
      ...(turn.historyTokens !== undefined && { tokens: turn.historyTokens })
    })
    this.deps.probe?.(threadId, 'search_start')
    const { scope, fillSpare, minRelevance } = config.recall
    const recall = await recallMemories(this.deps.memory, query.text, {
      context: query.context,
      limit: request.limit,
      excludeMessageIds: request.excludeMessageIds,
      inputMessageIds: turn.notRecalled,
      timeoutMs: MEMORY_TIMEOUT_MS,
      threadId,
      scope,
      fillSpare,
      ...(minRelevance !== undefined && { minRelevance }),
      // What the summary covers was cut on purpose: recalling it would resend it verbatim.
      ...(summary && { summarizedThrough: summary.lastMessageSeq })
    })
    this.deps.probe?.(threadId, 'search_end')
    return recall
  }
}

/**
 * Counts long recalled items in slices ahead of the build, which counts every item it ranks
 * in one synchronous step: the counter remembers them (tokenCounter.ts), so the build finds
 * them counted. A recalled paste's 8,000-character excerpt of Chinese costs about 40 ms of
 * BPE, and a new thread can recall dozens of long messages.
 */
async function countLongItems(items: readonly MemoryCandidate[], counter: TokenCounter) {
  for (const item of items) {
    if (item.content.length < LONG_ITEM_CHARS) continue
    await runSliced(counter.countSteps(recalledLine(item)))
  }
}
