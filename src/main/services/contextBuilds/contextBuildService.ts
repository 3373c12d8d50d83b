import type { BuiltContext, StoredBuild, ThreadSummary, TokenCount } from '@shared/context'
import type { ContextConfig, ContextConfigPatch } from '@shared/contextConfig'
import type { Message } from '@shared/domain'
import { yieldToEventLoop } from '@shared/eventLoop'
import { firstAtOrAfter } from '@shared/messagePages'
import { ActiveTaskTracker } from '../../context/sections/activeTaskTracker'
import { totalBudgetOf } from '../../context/budget'
import { conversationQuery, inputQuery } from '../../context/recall/recallQuery'
import type { EngineRegistry } from '../../context/engine/engineRegistry'
import { estimateCounter, tokenCounterFor } from '../../context/tokens/tokenCounter'
import { countOf } from '../../context/tokens/tokenIndex'
import { inputEndsNeeded, keepUnderSafetyLimit } from '../../context/windowSafetyNet'
import type { BuildRepository } from '../../store/buildRepository'
import type { MessageRepository } from '../../store/messageRepository'
import type { Publish } from '../events'
import { withUnrankedFiles } from '../files/fileService'
import { runSliced } from '../slicedWork'
import {
  sendsOutline,
  type ThreadMessageCache,
  type ThreadSnapshot
} from '../chat/threadMessageCache'
import { BuildInputs, type BuildInputsDeps, type Gathered, type TurnData } from './buildInputs'
import type { ContextConfigService } from './contextConfigService'
import { DraftCounts } from './draftCounts'

export interface ContextBuildServiceDeps extends BuildInputsDeps {
  messages: MessageRepository
  cache: ThreadMessageCache
  builds: BuildRepository
  engines: EngineRegistry
  /** The configuration's layers, the token corrections and each thread's active-task state. */
  config: ContextConfigService
  systemPrompt: () => string
  now: () => number
  publish: Publish
  /** The thread's stored summary for the builder's summary section. */
  summary?: (threadId: string) => ThreadSummary | null
}

export interface BuildTurnOptions {
  /** A fixed total budget (the context-length retry shrinks it). */
  totalBudget?: number
  /** A rebuild of the same turn: the active-task state has already seen the message. */
  retry?: boolean
}

/** Messages read for a conversation query: enough to find two turns among tool steps. */
const NEWEST_READ = 20

/** A turn's request, built and not yet recorded. */
export interface PreparedTurn {
  threadId: string
  messageId: number
  createdAt: number
  context: BuiltContext
}

/**
 * Gathers a thread's data, runs the configured engine and keeps what was sent. Previews and
 * real sends go through the same `build`, so the inspector never shows an approximation.
 */
export class ContextBuildService {
  /** Counts of long drafts, kept between keystrokes. */
  readonly drafts = new DraftCounts()

  /** Recalled items, files and tools for an input (buildInputs.ts). */
  private readonly inputs: BuildInputs

  constructor(private readonly deps: ContextBuildServiceDeps) {
    this.inputs = new BuildInputs(deps)
  }

  /** The build the draft would get if sent now; `whatIf` is applied without being saved. */
  async preview(
    threadId: string,
    draft: string,
    whatIf?: ContextConfigPatch
  ): Promise<BuiltContext> {
    const config = this.deps.config.forThread(threadId, whatIf ?? {})
    const inputIndex = await this.drafts.index(threadId, draft, tokenCounterFor(config.model))
    return this.fromThread(threadId, config, (thread) =>
      this.build(
        {
          threadId,
          messages: thread.messages,
          input: draft,
          inputIndex,
          taskState: this.deps.config.taskState(threadId),
          notRecalled: [],
          files: 'draft',
          historyTokens: thread.tokens.at(-1) as number,
          emptyReplies: thread.emptyReplies
        },
        config
      )
    )
  }

  /**
   * The build the thread would get now with an empty draft, or null when that build fails: a
   * compression sizes its protected tail by it and falls back to a default tail without it.
   */
  currentBuild(threadId: string): Promise<BuiltContext | null> {
    return this.preview(threadId, '').catch(() => null)
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
    // Embedded while the thread is read (a thread just opened is first read as an outline,
    // about 100 ms at 100,000 messages), so the search finds the input's vector at hand.
    this.deps.memory.prepareInput?.(inputQuery(message.content))
    const config = this.deps.config.forThread(
      threadId,
      options.totalBudget === undefined ? {} : { totalBudget: options.totalBudget }
    )
    // Everything before the input; a regenerated turn's earlier replies come after it. Neither
    // the input nor those replies may come back as recalled messages.
    const before = this.deps.config.taskState(threadId)
    // A draft's count is taken as it is; a long paste nobody previewed is counted from its
    // ends as far as this model's window needs (the rest after the request has left).
    const inputIndex = await this.drafts.exact(
      threadId,
      message.content,
      tokenCounterFor(config.model),
      inputEndsNeeded(config)
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
          historyTokens: thread.tokens[end] as number,
          emptyReplies: thread.emptyReplies.filter((index) => index < end)
        },
        config
      )
    })
    this.deps.probe?.(threadId, 'built')

    if (!options.retry) {
      const tasks = new ActiveTaskTracker(before)
      tasks.observe(message.content, message.seq)
      this.deps.config.saveTaskState(threadId, tasks.state)
    }
    return { threadId, messageId: message.id, createdAt: this.deps.now(), context }
  }

  /**
   * Readies the conversation the thread's next input will be read in (recallQuery.ts) in the
   * background, when a reply ends and when the thread opens, so the send embeds only its
   * input (issue #21). `newest`: the thread's newest messages, oldest first, when at hand; else
   * they come from the cache or, for a thread not cached, one indexed read of a page.
   */
  prepareRecall(threadId: string, newest?: readonly Message[]): void {
    const messages =
      newest ??
      (this.deps.cache.has(threadId)
        ? this.deps.cache.get(threadId)
        : this.deps.messages.pageBefore(threadId, null, NEWEST_READ).messages)
    const conversation = conversationQuery(messages, this.deps.config.taskState(threadId))
    if (conversation) this.deps.memory.prepare?.(conversation)
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
    const config = this.deps.config.forThread(threadId, patch)
    const all = this.deps.cache.get(threadId)
    return this.build(
      {
        threadId,
        messages: all.filter((m) => m.id !== message.id && m.seq < message.seq),
        input: message.content,
        taskState: this.deps.config.taskState(threadId),
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
   * model's token correction factor is calibrated (ContextConfigService.calibrate). Returns the new
   * factor.
   */
  recordUsage(
    threadId: string,
    build: BuiltContext,
    usage: { promptTokens: number; completionTokens: number }
  ): number | null {
    const config = this.deps.config.forThread(threadId, {})
    const { engine } = this.deps.engines.select(config.engine)
    engine.updateModel(build.metadata.model, build.tokenStats.contextWindow)
    engine.updateFromResponse(usage)
    return this.deps.config.calibrate(build, usage, config)
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
    const gathered = reuse ?? (await this.inputs.gather(turn, config, summary, pinned))
    // Search and build are each tens of ms with a long paste; the event loop turns between.
    if (!reuse) await yieldToEventLoop()
    const { recall, files, tools } = gathered
    const built = await this.deps.engines.build(
      {
        systemPrompt: this.deps.systemPrompt(),
        summary,
        memories: recall.memories,
        messages,
        ...(turn.emptyReplies && { emptyReplies: turn.emptyReplies }),
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
}
