/**
 * Thread summaries, kept in the background. After a turn, once the messages that fell out of
 * the window and are not yet summarized hold enough tokens, the stored summary is updated
 * iteratively (the previous summary plus the new turns) by the thread's model, or by the
 * extractive fallback without one. Never on the send path: a send never waits for it. Auth
 * and network failures leave the stored summary unchanged (the next turn tries again).
 *
 * "/compress [focus]" (`compress`) does the same at once, for everything before a protected
 * tail, with the focus topic. Every job remembers the version it started from and drops its
 * result if the summary changed meanwhile (the user's edit wins; the next turn re-plans from it).
 */
import type { BuiltContext, ThreadSummary } from '@shared/context'
import type { ThreadSummaryView } from '@shared/domain'
import { AppError } from '@shared/result'
import type { SummaryCompressResult } from '@shared/summaryCompression'
import { planManualCompression, TAIL_BUDGET_RATIO } from '../context/summary/manualCompression'
import {
  FallbackSummarizer,
  SummarizerError,
  fallbackSummary,
  prepareSummaryRequest,
  summarizeWithFallback,
  type Summarizer,
  type SummaryRequest
} from '../context/summary/summarizer'
import {
  planSummaryUpdate,
  toProviderMessage,
  windowStartSeq
} from '../context/summary/summaryUpdate'
import type { SummaryRepository } from '../store/summaryRepository'
import type { ChatTarget } from './chatService'
import type { Publish } from './events'
import { streamChat } from './providers/modelClient'
import type { ProviderService } from './providers/providerService'
import { ProviderError } from './providers/types'
import type { ThreadMessageCache } from './threadMessageCache'

/** Update once the unsummarized messages outside the window hold this many tokens. */
export const SUMMARY_MIN_TOKENS = 2_000
/** The summary's target length. */
export const SUMMARY_MAX_TOKENS = 1_200

export interface SummaryServiceDeps {
  summaries: SummaryRepository
  cache: ThreadMessageCache
  providers: ProviderService
  publish: Publish
  now: () => number
  log: (message: string, error: unknown) => void
  minTokens?: number
}

/** The thread's chat model as a Summarizer: one streamed completion of the summary prompt. */
export function providerSummarizer(providers: ProviderService, target: ChatTarget): Summarizer {
  return {
    source: 'model',
    async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
      let text = ''
      try {
        const { apiKey } = providers.resolve(target.ref.providerId, target.ref.modelId)
        for await (const event of streamChat({
          provider: target.provider,
          modelId: target.ref.modelId,
          ...(apiKey !== undefined && { apiKey }),
          messages: [{ role: 'user', content: request.prompt }],
          maxOutputTokens: Math.min(target.model.maxOutput, Math.ceil(request.maxTokens * 1.25)),
          ...(signal && { signal })
        })) {
          if (event.type === 'text') text += event.delta
        }
      } catch (error) {
        const kind = error instanceof ProviderError ? error.kind : 'other'
        const failure =
          kind === 'auth'
            ? 'auth'
            : kind === 'network' || kind === 'timeout' || kind === 'rate_limit'
              ? 'network'
              : 'other'
        const message = error instanceof Error ? error.message : String(error)
        throw new SummarizerError(message, failure, { cause: error })
      }
      return text
    }
  }
}

interface SummaryJob {
  kind: 'background' | 'compress'
  promise: Promise<unknown>
  controller: AbortController
}

export interface CompressOptions {
  /** What most of the summary should be about ("/compress database migration"). */
  focusTopic?: string | null
  /** A build for the thread as it is now (a preview): its budget sizes the tail, its window limits it. */
  build: BuiltContext | null
  /** The thread's model; null: the extractive summary. */
  target: ChatTarget | null
}

export class SummaryService {
  private readonly running = new Map<string, SummaryJob>()

  constructor(private readonly deps: SummaryServiceDeps) {}

  get(threadId: string): ThreadSummaryView | null {
    return this.deps.summaries.get(threadId)
  }

  /** For the builder's summary section. */
  forBuild(threadId: string): ThreadSummary | null {
    const stored = this.deps.summaries.get(threadId)
    return stored && stored.content.trim()
      ? { content: stored.content, lastMessageSeq: stored.lastMessageSeq }
      : null
  }

  /**
   * The user's edit: the text changes, what it covers does not (0 for a first summary). A
   * model update still running was planned from the text before the edit: it is stopped, and
   * its result would be dropped anyway (see `saveIfUnchanged`).
   */
  update(threadId: string, content: string): ThreadSummaryView {
    const current = this.deps.summaries.get(threadId)
    const stored = this.deps.summaries.put(
      threadId,
      { content, lastMessageSeq: current?.lastMessageSeq ?? 0, source: 'user' },
      this.deps.now()
    )
    if (!stored) throw new Error('This conversation no longer exists.')
    this.running.get(threadId)?.controller.abort()
    this.deps.publish('summary:changed', stored)
    return stored
  }

  /**
   * Called after a turn with the build that was sent and the seq of its input; starts an update in the background when
   * one is due (at most one per thread at a time). Returns at once.
   */
  afterTurn(
    threadId: string,
    build: BuiltContext,
    inputSeq: number,
    target: ChatTarget | null
  ): void {
    if (this.running.has(threadId)) return
    const stored = this.deps.summaries.get(threadId)
    const plan = planSummaryUpdate({
      messages: this.deps.cache.get(threadId),
      summary: stored && { content: stored.content, lastMessageSeq: stored.lastMessageSeq },
      // The turn's input (and its reply) are current, never "outside the window".
      windowStartSeq: Math.min(windowStartSeq(build) ?? inputSeq, inputSeq),
      minTokens: this.deps.minTokens ?? SUMMARY_MIN_TOKENS
    })
    if (!plan.due) return
    const request = prepareSummaryRequest({
      previousSummary: stored?.content ?? null,
      newMessages: plan.messages.map(toProviderMessage),
      maxTokens: SUMMARY_MAX_TOKENS
    })
    const summarizer = target
      ? providerSummarizer(this.deps.providers, target)
      : new FallbackSummarizer()
    const controller = new AbortController()
    const job: SummaryJob = {
      kind: 'background',
      controller,
      promise: summarizeWithFallback(summarizer, request, controller.signal)
        .then((outcome) => {
          if (controller.signal.aborted) {
            this.deps.log(`summary of ${threadId} dropped: the summary changed while it ran`, null)
            return
          }
          if (outcome.status !== 'updated') {
            this.deps.log(`summary of ${threadId} postponed: ${outcome.error}`, null)
            return
          }
          const saved = this.saveIfUnchanged(threadId, stored?.version ?? 0, {
            content: outcome.text,
            lastMessageSeq: plan.lastMessageSeq,
            source: outcome.source
          })
          if (!saved) {
            this.deps.log(`summary of ${threadId} dropped: the summary changed while it ran`, null)
          }
        })
        .catch((error: unknown) => this.deps.log(`summary of ${threadId} failed`, error))
        .finally(() => this.finished(threadId, job))
    }
    this.running.set(threadId, job)
  }

  /**
   * "/compress [focus]": folds every message after what the summary covers and before the
   * protected tail (`planManualCompression`) into the summary now, iteratively, with the focus
   * topic. The user asked for it, so any model failure (auth and network included) falls back
   * to the extractive summary, and says so. A background update still running is stopped: it
   * was planned from an older summary. Messages are never touched, only what the summary covers.
   */
  async compress(threadId: string, options: CompressOptions): Promise<SummaryCompressResult> {
    const running = this.running.get(threadId)
    if (running?.kind === 'compress') {
      throw new AppError('invalid_input', 'This conversation is already being compressed.')
    }
    running?.controller.abort()
    const stored = this.deps.summaries.get(threadId)
    const build = options.build
    const plan = planManualCompression({
      messages: this.deps.cache.get(threadId),
      summary: stored && { content: stored.content, lastMessageSeq: stored.lastMessageSeq },
      tailTokens: build
        ? Math.floor(build.tokenStats.budget * TAIL_BUDGET_RATIO)
        : SUMMARY_MIN_TOKENS,
      windowStartSeq: build ? windowStartSeq(build) : null
    })
    if (plan.nothing) {
      return {
        status: 'nothing_to_compress',
        reason: plan.nothing,
        tailMessages: plan.tailMessages
      }
    }
    const focusTopic = options.focusTopic?.trim() || null
    const request = prepareSummaryRequest({
      previousSummary: stored?.content ?? null,
      newMessages: plan.messages.map(toProviderMessage),
      focusTopic,
      maxTokens: SUMMARY_MAX_TOKENS
    })
    const summarizer = options.target
      ? providerSummarizer(this.deps.providers, options.target)
      : new FallbackSummarizer()
    const controller = new AbortController()
    const work = summarizeNow(summarizer, request, controller.signal)
    const job: SummaryJob = { kind: 'compress', controller, promise: work }
    this.running.set(threadId, job)
    try {
      const outcome = await work
      if (controller.signal.aborted) return { status: 'superseded' }
      const saved = this.saveIfUnchanged(threadId, stored?.version ?? 0, {
        content: outcome.text,
        lastMessageSeq: plan.lastMessageSeq,
        source: outcome.source
      })
      if (!saved) return { status: 'superseded' }
      if (outcome.modelError) {
        this.deps.log(`compression of ${threadId} used the extractive summary`, outcome.modelError)
      }
      return {
        status: 'compressed',
        summary: saved,
        compressedMessages: plan.messages.length,
        compressedTokens: plan.tokens,
        tailMessages: plan.tailMessages,
        focusTopic,
        modelError: outcome.modelError
      }
    } finally {
      this.finished(threadId, job)
    }
  }

  /**
   * Writes a job's summary unless the stored one changed since the job read it (a user edit,
   * or another job): a result planned from an older summary must not overwrite a newer one.
   * better-sqlite3 is synchronous, so nothing can write between the read and the write.
   */
  private saveIfUnchanged(
    threadId: string,
    startVersion: number,
    value: { content: string; lastMessageSeq: number; source: ThreadSummaryView['source'] }
  ): ThreadSummaryView | null {
    const current = this.deps.summaries.get(threadId)
    if ((current?.version ?? 0) !== startVersion) return null
    const saved = this.deps.summaries.put(threadId, value, this.deps.now())
    if (!saved) return null
    this.deps.publish('summary:changed', saved)
    return saved
  }

  private finished(threadId: string, job: SummaryJob): void {
    if (this.running.get(threadId) === job) this.running.delete(threadId)
  }

  async settled(threadId?: string): Promise<void> {
    const jobs = threadId === undefined ? [...this.running.values()] : [this.running.get(threadId)]
    await Promise.all(jobs.map((job) => job?.promise.catch(() => undefined)))
  }
}

/** A summary now: the model's, or the extractive one on any failure or an empty reply. */
async function summarizeNow(
  summarizer: Summarizer,
  request: SummaryRequest,
  signal: AbortSignal
): Promise<{ text: string; source: 'model' | 'fallback'; modelError: string | null }> {
  let modelError: string
  try {
    const text = (await summarizer.summarize(request, signal)).trim()
    if (text) return { text, source: summarizer.source, modelError: null }
    modelError = 'The model returned an empty summary.'
  } catch (error) {
    modelError = error instanceof Error ? error.message : String(error)
  }
  return { text: fallbackSummary(request), source: 'fallback', modelError }
}
