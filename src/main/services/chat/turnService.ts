/**
 * One turn: the user's message stored, the request built and sent, the reply streamed
 * (replyStream.ts); edit-and-resend and regenerate start one the same way, and `stop` aborts
 * it. Reading and flagging stored messages is MessageService.
 */
import { randomUUID } from 'node:crypto'
import type { BuiltContext, StoredBuild } from '@shared/context'
import type { Message, SendOutcome } from '@shared/domain'
import { yieldToEventLoop } from '@shared/eventLoop'
import { firstAtOrAfter } from '@shared/messagePages'
import { AppError } from '@shared/result'
import type { CacheTtl } from '../../context/caching/promptCache'
import type { TokenCounter } from '../../context/tokens/tokenCounter'
import { countOf } from '../../context/tokens/tokenIndex'
import { estimateSteps } from '../../context/tokens/tokenEstimate'
import type { MessageRepository } from '../../store/messageRepository'
import type { ContextBuildService, PreparedTurn } from '../contextBuilds/contextBuildService'
import type { Publish } from '../events'
import type { ChatTarget, ModelResolver } from '../providers/modelResolver'
import type { StreamTimeouts } from '../providers/modelClient'
import type { ProviderService } from '../providers/providerService'
import type { ThreadMessageCache } from './threadMessageCache'
import type { ThreadService } from '../threads/threadService'
import type { ToolExecutor } from '../tools/toolMessages'
import type { TurnProbe } from './turnProbe'
import { runSliced } from '../slicedWork'
import { PendingBuild } from './pendingBuild'
import { ReplyStreams } from './replyStream'

export interface TurnServiceDeps {
  messages: MessageRepository
  cache: ThreadMessageCache
  threads: ThreadService
  /** Builds each turn's request and stores it once the request has left. */
  context: ContextBuildService
  now: () => number
  tokens: TokenCounter
  publish: Publish
  log: (message: string, error: unknown) => void
  providers: ProviderService
  /** Which model answers a thread. */
  models: ModelResolver
  cacheTtl: () => CacheTtl
  newId?: () => string
  /** Stall limits for streams (tests shorten them). */
  timeouts?: Partial<StreamTimeouts>
  /** A user message was stored (the composer's draft files become its attachments). */
  userMessageStored?: (message: Message) => void
  /** Runs a tool call after the user's approval (services/tools); without it no tool runs. */
  tools?: ToolExecutor
  /** A stored message was edited (resent): what the summary says about it may no longer hold. */
  messageChanged?: (threadId: string, seq: number) => void
  /** The moments of a turn (the whole-turn benchmark). */
  probe?: TurnProbe
  /** After each turn (summary, memory extraction: background work); must not throw or block. */
  afterTurn?: (
    threadId: string,
    build: BuiltContext,
    input: Message,
    target: ChatTarget | null
  ) => void
}

/**
 * The model reply the user message first in `turn` currently has (not replaced by a regenerate),
 * if any: `turn` runs from that message on, and its answer ends at the next user message.
 */
function currentReplyTo(turn: readonly Message[]): Message | undefined {
  for (const message of turn.slice(1)) {
    if (message.role === 'user') return undefined
    if (message.role === 'assistant' && message.reply && !message.reply.supersededBy) return message
  }
  return undefined
}

/**
 * Texts up to this long are counted before they are stored: at worst (Chinese) about 50 ms,
 * in slices. Longer ones are stored first (storeUser).
 */
const COUNT_BEFORE_STORING = 50_000

export class TurnService {
  private readonly streams: ReplyStreams
  private readonly newId: () => string
  /** Per thread, the counts of long messages stored with their estimate (`recount`). */
  private readonly recounts = new Map<string, Promise<void>>()

  constructor(private readonly deps: TurnServiceDeps) {
    this.newId = deps.newId ?? randomUUID
    this.streams = new ReplyStreams(deps, (...args) => this.afterTurn(...args))
  }

  /**
   * The user's words are written first, before anything that can fail. Then the request is
   * built exactly as it will be sent. With a model configured the reply streams in the
   * background (`chat:delta`, then `chat:done` or `chat:error`); without one the outcome says
   * so instead of inventing a reply.
   */
  async send(threadId: string, content: string): Promise<SendOutcome> {
    this.deps.threads.get(threadId)
    this.requireIdle(threadId)
    // From the start: a thread opened a moment ago is loading in slices that would compete.
    const release = this.deps.cache.holdForTurn()
    try {
      const stored = await this.storeUser(threadId, content, (tokenCount) =>
        this.appendUser(threadId, content, tokenCount)
      )
      try {
        // Writing a long paste is a send's longest synchronous step (about 0.1 s at 2 M
        // characters); the build starts on the next turn of the event loop, not behind it.
        await yieldToEventLoop()
        return await this.answerAndAnnounce(threadId, stored.message)
      } finally {
        if (!stored.counted) this.recount(stored.message)
      }
    } finally {
      release()
    }
  }

  /**
   * Edit-and-resend: the edited text is stored as a new user message; the original and the
   * messages after it stay stored, excluded from later requests (the conversation branches).
   * The original's current reply is marked superseded by the new message: the link the chat
   * needs to show the two as versions of one turn (a user message has no reply row to hold it).
   */
  async editResend(id: number, content: string): Promise<SendOutcome> {
    const original = this.deps.messages.get(id)
    if (!original) throw new AppError('not_found', 'This message no longer exists.')
    if (original.role !== 'user') {
      throw new AppError('invalid_input', 'Only your own messages can be edited and resent.')
    }
    const threadId = original.threadId
    this.requireIdle(threadId)
    const all = await this.deps.cache.load(threadId)
    const stored = await this.storeUser(threadId, content, (tokenCount) => {
      const later = all.slice(firstAtOrAfter(all, original.seq))
      const answer = currentReplyTo(later)
      for (const next of later) {
        if (next.excluded) continue
        const updated = this.deps.messages.setFlags(next.id, { excluded: true })
        if (updated) this.deps.cache.updated(updated)
      }
      this.deps.messageChanged?.(threadId, original.seq)
      const stored = this.appendUser(threadId, content, tokenCount)
      const superseded = answer && this.deps.messages.supersede(answer.id, stored.id)
      if (superseded) this.deps.cache.updated(superseded)
      return stored
    })
    try {
      return await this.answerAndAnnounce(threadId, stored.message)
    } finally {
      if (!stored.counted) this.recount(stored.message)
    }
  }

  /** A new reply to the last user message; the earlier replies are kept and marked superseded. */
  async regenerate(threadId: string): Promise<{ streamId: string; build: StoredBuild }> {
    this.deps.threads.get(threadId)
    this.requireIdle(threadId)
    const all = await this.deps.cache.load(threadId)
    this.requireIdle(threadId)
    const input = all.findLast((m) => m.role === 'user')
    if (!input) throw new AppError('invalid_input', 'There is no message to answer yet.')
    const target = this.deps.models.targetFor(threadId)
    if (!target) {
      throw new AppError('invalid_input', 'No model is configured; add a provider in Settings.')
    }
    // Earlier replies, with the tool steps they took (their results go with their calls).
    const replaces = all
      .slice(firstAtOrAfter(all, input.seq + 1))
      .filter(
        (m) =>
          (m.role === 'assistant' && !m.reply?.supersededBy) || (m.role === 'tool' && !m.excluded)
      )
    await this.countsSettled(threadId)
    const prepared = await this.deps.context.prepareTurn(threadId, input, { retry: true })
    const build = new PendingBuild(prepared.context, () => this.deps.context.saveTurn(prepared))
    const streamId = this.streams.start({
      threadId,
      streamId: this.newId(),
      input,
      build,
      target,
      replaces
    })
    return { streamId, build: await build.saved }
  }

  /** Aborts the thread's streaming reply; its partial text is stored, marked `stopped`. */
  stop(threadId: string): { stopped: boolean } {
    return this.streams.stop(threadId)
  }

  /** Resolves once the thread has no streaming reply (tests, and quitting cleanly). */
  async settled(threadId?: string): Promise<void> {
    await this.streams.settled(threadId)
  }

  /**
   * Resolves once every message stored with its estimate has its exact count (tests and the
   * bench). Quitting does not wait for it: such a message keeps its estimate.
   */
  async recounted(): Promise<void> {
    while (this.recounts.size > 0) await Promise.all(this.recounts.values())
  }

  private afterTurn(
    threadId: string,
    build: BuiltContext,
    input: Message,
    target: ChatTarget | null
  ): void {
    try {
      this.deps.afterTurn?.(threadId, build, input, target)
    } catch (error) {
      this.deps.log(`after-turn work for ${threadId} failed`, error)
    }
  }

  private requireIdle(threadId: string): void {
    if (this.streams.isStreaming(threadId)) {
      throw new AppError('invalid_input', 'A reply is still streaming; stop it first.')
    }
  }

  /**
   * The count cached with a user message, in slices that yield. A draft counted while it was
   * typed is not counted again, nor is the text again for the build
   * (ContextBuildService.prepareTurn).
   */
  private async countUserText(threadId: string, content: string): Promise<number> {
    return countOf(await this.deps.context.drafts.exact(threadId, content, this.deps.tokens)).tokens
  }

  /**
   * Stores the user's message by `write` (one synchronous step: a send appends; an
   * edit-and-resend also sets the branch's flags), with its exact count when that is cheap or
   * at hand. A long text whose count is not at hand (a paste nobody previewed: seconds of BPE
   * at 2 M characters) is stored first, with its estimate, so nothing the user wrote waits on
   * the count; the build counts what it needs of it (its ends, when it is far over the window),
   * and `recount` replaces the estimate once the request has left. Should the app stop in
   * between, the message keeps its estimate.
   */
  private async storeUser(
    threadId: string,
    content: string,
    write: (tokenCount: number) => Message
  ): Promise<{ message: Message; counted: boolean }> {
    const { drafts } = this.deps.context
    const counted =
      content.length <= COUNT_BEFORE_STORING ||
      drafts.counted(threadId, content, this.deps.tokens) !== null
    const tokenCount = counted
      ? await this.countUserText(threadId, content)
      : (await runSliced(estimateSteps(content))).tokens
    // Another turn may have started while the text was being counted.
    this.requireIdle(threadId)
    return { message: write(tokenCount), counted }
  }

  /**
   * The exact count of a message stored with its estimate, in the background, after the
   * thread's earlier ones. The thread's next build waits for it (`countsSettled`): the window
   * would otherwise cut by an estimate (on base64, 2.3x under the count) and could send more
   * than the model takes.
   */
  private recount(message: Message): void {
    const { threadId } = message
    const recount = (this.recounts.get(threadId) ?? Promise.resolve())
      .then(() => this.countUserText(threadId, message.content))
      .then((tokenCount) => {
        if (
          tokenCount === message.tokenCount ||
          !this.deps.messages.setTokenCount(message.id, tokenCount)
        ) {
          return
        }
        this.deps.cache.recounted({ ...message, tokenCount })
      })
      .catch((error: unknown) => this.deps.log(`counting message ${message.id} failed`, error))
      .finally(() => {
        if (this.recounts.get(threadId) === recount) this.recounts.delete(threadId)
      })
    this.recounts.set(threadId, recount)
  }

  /** Resolves once the thread's messages stored with their estimate have their exact counts. */
  private async countsSettled(threadId: string): Promise<void> {
    await this.recounts.get(threadId)
  }

  private appendUser(threadId: string, content: string, tokenCount: number): Message {
    const message = this.deps.messages.append({
      threadId,
      role: 'user',
      content,
      tokenCount,
      createdAt: this.deps.now()
    })
    this.deps.cache.appended(message)
    this.deps.userMessageStored?.(message)
    this.deps.threads.adoptTitleFrom(threadId, content)
    return message
  }

  /**
   * `threads:changed` (the sidebar's refresh, and the embedding indexer's wake-up) goes out
   * once the request has left: the work it starts would otherwise compete with the turn.
   */
  private async answerAndAnnounce(threadId: string, message: Message): Promise<SendOutcome> {
    try {
      return await this.answer(threadId, message)
    } finally {
      this.deps.publish('threads:changed', { threadId })
    }
  }

  private async answer(threadId: string, message: Message): Promise<SendOutcome> {
    const target = this.deps.models.targetFor(threadId)
    let prepared: PreparedTurn
    try {
      await this.countsSettled(threadId)
      prepared = await this.deps.context.prepareTurn(threadId, message)
      if (!target) {
        const build = this.deps.context.saveTurn(prepared)
        this.afterTurn(threadId, build.context, message, null)
        return { message, status: 'no_model_configured', build, buildError: null }
      }
    } catch (error) {
      this.deps.log(`context build for message ${message.id} failed`, error)
      const reason = error instanceof Error ? error.message : String(error)
      return target
        ? { message, status: 'build_failed', model: target.ref, build: null, buildError: reason }
        : { message, status: 'no_model_configured', build: null, buildError: reason }
    }
    const build = new PendingBuild(prepared.context, () => this.deps.context.saveTurn(prepared))
    const streamId = this.streams.start({
      threadId,
      streamId: this.newId(),
      input: message,
      build,
      target,
      replaces: []
    })
    // The request is on its way; a build that cannot be stored now (a full disk) fails the
    // send with the storage error while the reply goes on.
    const stored = await build.saved
    return {
      message,
      status: 'streaming',
      streamId,
      model: target.ref,
      build: stored,
      buildError: null
    }
  }
}
