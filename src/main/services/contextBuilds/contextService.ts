import type {
  ActiveTaskState,
  BuiltContext,
  MemoryCandidate,
  StoredBuild,
  ThreadSummary,
  TokenCount,
  ToolInput
} from '@shared/context'
import type { ContextConfig, ContextConfigPatch, ContextConfigView } from '@shared/contextConfig'
import type { Message } from '@shared/domain'
import { yieldToEventLoop } from '@shared/eventLoop'
import { ActiveTaskTracker } from '../../context/activeTaskTracker'
import type { EngineRegistry } from '../../context/engine/engineRegistry'
import { recalledLine } from '../../context/sections/retrievedMemories'
import {
  estimateCounter,
  tokenCounterFor,
  type TokenCounter
} from '../../context/tokens/tokenCounter'
import { countOf, type TokenIndex } from '../../context/tokens/tokenIndex'
import { keepUnderSafetyLimit } from '../../context/windowSafetyNet'
import { recallMemories, type MemorySearch, type Recall } from '../../context/recall/memorySearch'
import { recallQuery, type RecallQuery } from '../../context/recall/recallQuery'
import { recallRequest } from '../../context/recall/recallRequest'
import { totalBudgetOf } from '../../context/budget'
import type { BuildRepository } from '../../store/buildRepository'
import type { MessageRepository } from '../../store/messageRepository'
import type { SettingsRepository } from '../../store/settingsRepository'
import type { ThreadRepository } from '../../store/threadRepository'
import { ContextSettings, type ChatModelLimits } from './contextSettings'
import type { Publish } from '../events'
import { withUnrankedFiles, type BuildAttachments } from '../files/fileService'
import type { TurnProbe } from '../turnProbe'
import { DraftCounts } from './draftCounts'
import { leaveOutOtherBranches, type ForkLineage } from '../memory/forkRecallFilter'
import { runSliced } from '../slicedWork'
import { firstAtOrAfter } from '@shared/messagePages'
import { sendsOutline, type ThreadMessageCache, type ThreadSnapshot } from '../threadMessageCache'

const MEMORY_TIMEOUT_MS = 500
export interface ContextServiceDeps {
  threads: ThreadRepository
  messages: MessageRepository
  cache: ThreadMessageCache
  settings: SettingsRepository
  builds: BuildRepository
  engines: EngineRegistry
  memory: MemorySearch
  systemPrompt: () => string
  now: () => number
  publish: Publish
  /**
   * The chat model of a thread, when a provider is configured: its id (the tokenizer and the
   * correction factor) over the user's settings, its window and max output under them.
   */
  chatModel?: (threadId: string) => ChatModelLimits | null
  /** The thread's stored summary for the builder's summary section. */
  summary?: (threadId: string) => ThreadSummary | null
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

export interface BuildTurnOptions {
  /** A fixed total budget (the context-length retry shrinks it). */
  totalBudget?: number
  /** A rebuild of the same turn: the active-task state has already seen the message. */
  retry?: boolean
}

/** A turn's request, built and not yet recorded. */
export interface PreparedTurn {
  threadId: string
  messageId: number
  createdAt: number
  context: BuiltContext
}

/** What one build reads from the thread, besides the configuration. */
interface TurnData {
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
}

/** What one input gathered from the services; the safety net's rebuilds reuse it. */
interface Gathered {
  recall: Recall
  files: BuildAttachments | undefined
  tools: ToolInput[]
}

/**
 * Gathers a thread's data, runs the configured engine and keeps what was sent. Previews and
 * real sends go through the same `build`, so the inspector never shows an approximation.
 */
export class ContextService {
  /** Counts of long drafts, kept between keystrokes. */
  readonly drafts = new DraftCounts()

  /** The configuration's layers, the token corrections and each thread's active-task state. */
  private readonly settings: ContextSettings

  constructor(private readonly deps: ContextServiceDeps) {
    this.settings = new ContextSettings(deps)
  }

  getConfig(threadId?: string): ContextConfigView {
    return this.settings.view(threadId)
  }

  /** Validated against every layer it affects (see ContextSettings.update). */
  updateConfig(
    scope: 'global' | 'thread',
    change: ContextConfigPatch,
    threadId?: string
  ): ContextConfigView {
    this.settings.update(scope, change, threadId)
    return this.getConfig(threadId)
  }

  /** The build the draft would get if sent now; `whatIf` is applied without being saved. */
  async preview(
    threadId: string,
    draft: string,
    whatIf?: ContextConfigPatch
  ): Promise<BuiltContext> {
    const config = this.settings.forThread(threadId, whatIf ?? {})
    const inputIndex = await this.drafts.index(threadId, draft, tokenCounterFor(config.model))
    return this.fromThread(threadId, config, (thread) =>
      this.build(
        {
          threadId,
          messages: thread.messages,
          input: draft,
          inputIndex,
          taskState: this.settings.taskState(threadId),
          notRecalled: [],
          files: 'draft',
          historyTokens: thread.tokens.at(-1) as number
        },
        config
      )
    )
  }

  /**
   * Builds the request for a user message that is already stored (it is the input, so it is
   * not also a window candidate), records it as sent and pushes it to the inspector.
   */
  async buildTurn(
    threadId: string,
    message: Message,
    options: BuildTurnOptions = {}
  ): Promise<StoredBuild> {
    return this.saveTurn(await this.prepareTurn(threadId, message, options))
  }

  /**
   * The request for a stored user message, not yet recorded: a send stores it with
   * `saveTurn` once the request has left. Reads the thread from the cache by position (the
   * input and anything after it, a regenerated turn's earlier replies, are found by binary
   * search), so nothing here passes over the whole thread.
   */
  async prepareTurn(
    threadId: string,
    message: Message,
    options: BuildTurnOptions = {}
  ): Promise<PreparedTurn> {
    const config = this.settings.forThread(
      threadId,
      options.totalBudget === undefined ? {} : { totalBudget: options.totalBudget }
    )
    // Everything before the input; a regenerated turn's earlier replies come after it. Neither
    // the input nor those replies may come back as recalled messages.
    const before = this.settings.taskState(threadId)
    // The send counted this text to store it; a regenerated turn's text was counted before.
    const inputIndex = await this.drafts.exact(
      threadId,
      message.content,
      tokenCounterFor(config.model)
    )
    const context = await this.fromThread(threadId, config, (thread) => {
      const end = firstAtOrAfter(thread.messages, message.seq)
      const notRecalled = thread.messages.slice(end).map((m) => m.id)
      if (!notRecalled.includes(message.id)) notRecalled.push(message.id)
      return this.build(
        {
          threadId,
          messages: thread.messages.slice(0, end),
          input: message.content,
          inputIndex,
          taskState: before,
          notRecalled,
          files: { messageId: message.id },
          historyTokens: thread.tokens[end] as number
        },
        config
      )
    })
    this.deps.probe?.(threadId, 'built')

    if (!options.retry) {
      const tasks = new ActiveTaskTracker(before)
      tasks.observe(message.content, message.seq)
      this.settings.saveTaskState(threadId, tasks.state)
    }
    return { threadId, messageId: message.id, createdAt: this.deps.now(), context }
  }

  /** Records a prepared build as sent and pushes it to the inspector. */
  saveTurn(turn: PreparedTurn): StoredBuild {
    const stored = this.deps.builds.add(turn)
    this.deps.probe?.(turn.threadId, 'saved')
    this.deps.publish('context:built', stored)
    return stored
  }

  /**
   * The request a stored user message would get now under `patch` (its history as it is, the
   * current summary), neither stored nor published: the cost what-if replays turns with it.
   */
  async replayTurn(
    threadId: string,
    message: Message,
    patch: ContextConfigPatch
  ): Promise<BuiltContext> {
    const config = this.settings.forThread(threadId, patch)
    const all = this.deps.cache.get(threadId)
    return this.build(
      {
        threadId,
        messages: all.filter((m) => m.id !== message.id && m.seq < message.seq),
        input: message.content,
        taskState: this.settings.taskState(threadId),
        notRecalled: all.filter((m) => m.seq >= message.seq).map((m) => m.id),
        files: { messageId: message.id }
      },
      config
    )
  }

  builds(threadId: string): StoredBuild[] {
    return this.deps.builds.list(threadId)
  }

  /**
   * After a reply with provider usage: the engine hears it (`updateFromResponse`), and the
   * model's token correction factor is calibrated (ContextSettings.calibrate). Returns the new
   * factor.
   */
  recordUsage(
    threadId: string,
    build: BuiltContext,
    usage: { promptTokens: number; completionTokens: number }
  ): number | null {
    const config = this.settings.forThread(threadId, {})
    const { engine } = this.deps.engines.select(config.engine)
    engine.updateModel(build.metadata.model, build.tokenStats.contextWindow)
    engine.updateFromResponse(usage)
    return this.settings.calibrate(build, usage, config)
  }

  /**
   * A build from the thread without waiting for it to load: a thread still loading is read as
   * its outline with the newest messages whole (ThreadMessageCache.forBuild), enough for any
   * window this budget holds, even with a correction below 1. A build that would send a
   * message it had only in outline is made again from the whole thread.
   */
  private async fromThread(
    threadId: string,
    config: ContextConfig,
    build: (thread: ThreadSnapshot) => Promise<BuiltContext>
  ): Promise<BuiltContext> {
    const correction = Math.min(1, config.tokenCorrections[config.model] ?? 1)
    const tailTokens = Math.ceil(totalBudgetOf(config) / correction)
    const thread = await this.deps.cache.forBuild(threadId, tailTokens)
    const context = await build(thread)
    return sendsOutline(thread, context.trace)
      ? build(await this.deps.cache.whole(threadId))
      : context
  }

  /** The build, kept under SAFETY_SHARE of the model's window (windowSafetyNet.ts). */
  private async build(turn: TurnData, config: ContextConfig): Promise<BuiltContext> {
    // The input is counted in slices that yield (a paste can take seconds), once per text,
    // and trimmed from the same index; a preview's estimate is trimmed with the estimate.
    const model = tokenCounterFor(config.model)
    const index = turn.inputIndex ?? (await runSliced(model.indexSteps(turn.input, null)))
    const counter = index.encoding === model.encoding ? model : estimateCounter
    const inputCount = countOf(index)
    const { context: first, gathered } = await this.buildOnce(turn, config, inputCount)
    return keepUnderSafetyLimit(
      first,
      config,
      { text: turn.input, index, count: inputCount, counter },
      async (input, capped, count) =>
        (await this.buildOnce({ ...turn, input }, capped, count, gathered)).context
    )
  }

  /**
   * One build. The safety net's rebuilds pass the first build's `gathered`: the same input asks
   * the same question, and a second memory search (a few hundred ms in a large store), file
   * ranking or tool ranking (an embedding each) would only shift what sits near the edges.
   */
  private async buildOnce(
    turn: TurnData,
    config: ContextConfig,
    inputCount: TokenCount,
    reuse?: Gathered
  ): Promise<{ context: BuiltContext; gathered: Gathered }> {
    const { threadId, messages, input, taskState } = turn
    const summary = this.deps.summary?.(threadId) ?? null
    const pinned = this.deps.messages.listPinned(threadId)
    const gathered = reuse ?? (await this.gather(turn, config, summary, pinned))
    // Search and build are each tens of ms with a long paste; the event loop turns between.
    if (!reuse) await yieldToEventLoop()
    const { recall, files, tools } = gathered
    const built = await this.deps.engines.build(
      {
        systemPrompt: this.deps.systemPrompt(),
        summary,
        memories: recall.memories,
        messages,
        pinned,
        input,
        inputCount,
        taskState,
        warnings: recall.warnings,
        ...(recall.report && { recall: recall.report }),
        ...(files && files.attachments.length > 0 && { attachments: files.attachments }),
        tools
      },
      config
    )
    const context = files ? withUnrankedFiles(built, files.notEmbedded) : built
    return { context, gathered }
  }

  /** What a build asks the services for about its input: recalled items, files and tools. */
  private async gather(
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
    const files = await this.deps.attachments?.(threadId, turn.files, query.context ?? query.text)
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
      excludeMessageIds: [...request.excludeMessageIds, ...turn.notRecalled],
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

/** Items at least this long are counted before the build, in slices. */
const LONG_ITEM_CHARS = 2_000

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
