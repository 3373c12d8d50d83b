/**
 * One reply at a time per thread, streamed: the request (through the tool loop when the build
 * sends tools), the context-length retry with a smaller budget, the reply stored with its usage
 * and cost, and the events the chat follows (`chat:delta`, `chat:done`, `chat:error`).
 */
import type { BuiltContext } from '@shared/context'
import type { Message, ReplyInfo, ReplyStatus } from '@shared/domain'
import type { ChatFinishReason, ChatUsage } from '@shared/providers'
import { AppError } from '@shared/result'
import { MAX_TOOL_STEPS } from '@shared/tools'
import { applyCacheBreakpoints } from '../../context/caching/promptCache'
import { countMessageTokens } from '../../context/tokens/messageTokens'
import { estimateTokens } from '../../context/tokens/tokenEstimate'
import type { ChatTarget } from '../providers/modelResolver'
import type { PendingBuild } from './pendingBuild'
import type { TurnServiceDeps } from './turnService'
import { toProviderError } from '../providers/errors'
import { streamChat } from '../providers/modelClient'
import { ProviderError } from '../providers/types'
import { costBreakdown } from '../providers/usage'
import { fitExchange, runToolLoop } from '../tools/toolLoop'
import { toolMessages } from '../tools/toolMessages'
import type { ToolRun } from '../tools/toolService'
import { hasVisibleText } from '../../context/emptyReplies'

/** The context-length retry rebuilds with this share of the failed build's budget. */
const RETRY_BUDGET_SHARE = 0.8

/**
 * A sent build is stored when the provider's response starts, or this long after the request
 * left if that comes first: a remote provider may take seconds to answer, and the inspector and
 * the send's answer wait for the stored build.
 */
const BUILD_STORE_DELAY_MS = 50

interface ActiveStream {
  streamId: string
  controller: AbortController
  done: Promise<void>
}

export interface StreamJob {
  threadId: string
  streamId: string
  /** The user message the reply answers. */
  input: Message
  /** Stored once the request has left (or failed before leaving). */
  build: PendingBuild
  target: ChatTarget
  /** Earlier replies to the same input (regenerate): superseded once the new one is stored. */
  replaces: Message[]
}

/** Tokens the tool loop's exchange may add to a build: what the window leaves after it. */
function exchangeAllowance(context: BuiltContext): number {
  const { contextWindow, outputReserve, total } = context.tokenStats
  return Math.max(1_000, Math.floor(contextWindow * 0.95) - outputReserve - total)
}

export class ReplyStreams {
  private readonly active = new Map<string, ActiveStream>()

  constructor(
    private readonly deps: TurnServiceDeps,
    /** TurnService's after-turn work, which never throws. */
    private readonly afterTurn: (
      threadId: string,
      build: BuiltContext,
      input: Message,
      target: ChatTarget | null
    ) => void
  ) {}

  isStreaming(threadId: string): boolean {
    return this.active.has(threadId)
  }

  /** Aborts the thread's streaming reply; its partial text is stored, marked `stopped`. */
  stop(threadId: string): { stopped: boolean } {
    const stream = this.active.get(threadId)
    if (!stream) return { stopped: false }
    stream.controller.abort()
    return { stopped: true }
  }

  /** Resolves once the thread has no streaming reply (tests, and quitting cleanly). */
  async settled(threadId?: string): Promise<void> {
    const streams = threadId === undefined ? [...this.active.values()] : [this.active.get(threadId)]
    await Promise.all(streams.map((s) => s?.done))
  }

  /** Starts streaming `job`'s reply in the background; returns its stream id. */
  start(job: StreamJob): string {
    const controller = new AbortController()
    const stream: ActiveStream = {
      streamId: job.streamId,
      controller,
      done: Promise.resolve()
    }
    this.active.set(job.threadId, stream)
    stream.done = this.run(job, controller.signal)
      .catch((error: unknown) => this.deps.log(`reply in ${job.threadId} failed`, error))
      .finally(() => {
        if (this.active.get(job.threadId) === stream) this.active.delete(job.threadId)
      })
    return job.streamId
  }

  private async run(job: StreamJob, signal: AbortSignal): Promise<void> {
    const { threadId, streamId, target } = job
    let build: { context: BuiltContext } = job.build
    let text = ''
    let usage: ChatUsage | null = null
    let finish: ChatFinishReason | null = null
    let retried = false
    try {
      const apiKey = this.key(target)
      const stored = toolMessages(this.deps.messages, this.deps.cache, this.deps, job, () => build)
      for (;;) {
        try {
          const ttl = this.deps.cacheTtl()
          const reserve = build.context.tokenStats.outputReserve
          // What the builder chose to send (the tools section), in its order.
          const tools = this.deps.tools ? build.context.tools : []
          // The tool loop (services/tools/toolLoop.ts); without tools it is one request.
          const result = await runToolLoop({
            maxSteps: MAX_TOOL_STEPS,
            signal,
            request: (exchange, final) =>
              streamChat({
                provider: target.provider,
                modelId: target.ref.modelId,
                ...(apiKey !== undefined && { apiKey }),
                messages: [...build.context.messages, ...exchange],
                ...(reserve > 0 && { maxOutputTokens: reserve }),
                signal,
                anthropicCache: (messages) =>
                  applyCacheBreakpoints(messages, {
                    ttl,
                    stablePrefixMessages: build.context.window.stablePrefixMessages
                  }),
                ...(this.deps.timeouts && { timeouts: this.deps.timeouts }),
                onRequest: () => {
                  this.deps.probe?.(threadId, 'request_sent')
                  // Storing a 1 MB build holds this thread for tens of ms, and fetch writes the
                  // body from it: store once the response starts (the body is out), or after
                  // BUILD_STORE_DELAY_MS should the provider take longer to answer.
                  setTimeout(() => job.build.store(), BUILD_STORE_DELAY_MS)
                },
                onResponse: () => job.build.store(),
                ...(tools.length > 0 && { tools, ...(final && { toolChoice: 'none' as const }) })
              }),
            onText: (delta) => {
              text += delta
              this.deps.publish('chat:delta', { threadId, messageId: streamId, delta })
            },
            storeCalls: (stepText, calls, stepUsage, stepFinish) => {
              stored.calls(stepText, calls, stepUsage, stepFinish)
              text = ''
            },
            // Without tools declared a call can only be made up by the model: never run.
            run: (call): Promise<ToolRun> =>
              this.deps.tools && tools.length > 0
                ? this.deps.tools.execute(threadId, call, signal)
                : Promise.resolve({
                    content: 'Error: no tools are available.',
                    isError: true,
                    denied: false
                  }),
            storeResult: (call, run) => stored.result(call, run),
            // An estimate: a guard against overflowing the window, run on every step.
            fit: (exchange) =>
              fitExchange(exchange, exchangeAllowance(build.context), estimateTokens)
          })
          usage = result.usage
          finish = result.finish
          break
        } catch (error) {
          // Failed before or after sending: the build is stored either way.
          job.build.store()
          const failure = toProviderError(error)
          // Too long for the model: rebuild with a smaller budget and try once more.
          if (failure.kind === 'context_length' && !retried && text === '' && !stored.any()) {
            retried = true
            const budget = Math.max(
              1,
              Math.floor(build.context.tokenStats.budget * RETRY_BUDGET_SHARE)
            )
            const rebuilt = await this.deps.context.buildTurn(threadId, job.input, {
              totalBudget: budget,
              retry: true
            })
            build = rebuilt
            this.deps.publish('chat:retry', {
              threadId,
              streamId,
              reason: 'context_length',
              budget,
              build: rebuilt
            })
            continue
          }
          throw failure
        }
      }
      job.build.store()
      // A reply without any text is stored as what it is: shown with Retry, never sent back.
      const empty = !hasVisibleText(text)
      const message = this.storeReply(job, build, text, empty ? 'empty' : 'complete', usage, finish)
      if (usage) {
        try {
          this.deps.context.recordUsage(threadId, build.context, usage)
        } catch (error) {
          this.deps.log(`calibration after message ${message.id} failed`, error)
        }
      }
      this.deps.publish('chat:done', { threadId, streamId, message })
      if (!empty) this.afterTurn(threadId, build.context, job.input, target)
    } catch (error) {
      job.build.store()
      const failure = error instanceof ProviderError ? error : toProviderError(error)
      // The thread was deleted while the reply streamed: nothing to store or report.
      if (!this.deps.threads.list().some((t) => t.id === threadId)) return
      const status: ReplyStatus = failure.kind === 'aborted' ? 'stopped' : 'failed'
      const message =
        text.length > 0 ? this.storeReply(job, build, text, status, usage, finish) : null
      if (failure.kind === 'aborted' && message) {
        this.deps.publish('chat:done', { threadId, streamId, message })
      } else {
        this.deps.publish('chat:error', { threadId, streamId, error: failure.toJSON(), message })
      }
    }
  }

  /** The decrypted key for this call; an unreadable key is an auth failure the user can fix. */
  private key(target: ChatTarget): string | undefined {
    try {
      return this.deps.providers.resolve(target.ref.providerId, target.ref.modelId).apiKey
    } catch (error) {
      if (error instanceof AppError)
        throw new ProviderError({ kind: 'auth', message: error.message })
      throw error
    }
  }

  private storeReply(
    job: StreamJob,
    build: { context: BuiltContext },
    text: string,
    status: ReplyStatus,
    usage: ChatUsage | null,
    finish: ChatFinishReason | null
  ): Message {
    // Priced by part at today's prices and kept: a later price change must not rewrite history.
    const costParts = usage ? costBreakdown(usage, job.target.model) : null
    const reply: ReplyInfo = {
      providerId: job.target.ref.providerId,
      modelId: job.target.ref.modelId,
      status,
      usage,
      cost: costParts?.total ?? null,
      ...(costParts && { costParts }),
      estimatedPromptTokens: build.context.tokenStats.total,
      finishReason: finish,
      supersededBy: null
    }
    const message = this.deps.messages.appendReply(
      {
        threadId: job.threadId,
        role: 'assistant',
        content: text,
        tokenCount: countMessageTokens(this.deps.tokens, { content: text }),
        createdAt: this.deps.now()
      },
      reply
    )
    this.deps.cache.appended(message)
    for (const old of job.replaces) {
      const updated =
        old.role === 'tool'
          ? this.deps.messages.setFlags(old.id, { excluded: true })
          : this.deps.messages.supersede(old.id, message.id)
      if (updated) this.deps.cache.updated(updated)
    }
    this.deps.publish('threads:changed', { threadId: job.threadId })
    return message
  }
}
