/**
 * Thread summaries, kept in the background. After a turn, once the messages that fell out of
 * the window and are not yet summarized hold enough tokens, the stored summary is updated
 * iteratively (the previous summary plus the new turns) by the thread's model, or by the
 * extractive fallback without one. Never on the send path: a send never waits for it. Auth
 * and network failures leave the stored summary unchanged (the next turn tries again).
 */
import type { BuiltContext, ThreadSummary } from '@shared/context'
import type { ThreadSummaryView } from '@shared/domain'
import {
  FallbackSummarizer,
  SummarizerError,
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

export class SummaryService {
  private readonly running = new Map<string, Promise<void>>()

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

  /** The user's edit: the text changes, what it covers does not (0 for a first summary). */
  update(threadId: string, content: string): ThreadSummaryView {
    const current = this.deps.summaries.get(threadId)
    const stored = this.deps.summaries.put(
      threadId,
      { content, lastMessageSeq: current?.lastMessageSeq ?? 0, source: 'user' },
      this.deps.now()
    )
    if (!stored) throw new Error('This conversation no longer exists.')
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
    const job = summarizeWithFallback(summarizer, request)
      .then((outcome) => {
        if (outcome.status !== 'updated') {
          this.deps.log(`summary of ${threadId} postponed: ${outcome.error}`, null)
          return
        }
        const saved = this.deps.summaries.put(
          threadId,
          { content: outcome.text, lastMessageSeq: plan.lastMessageSeq, source: outcome.source },
          this.deps.now()
        )
        if (saved) this.deps.publish('summary:changed', saved)
      })
      .catch((error: unknown) => this.deps.log(`summary of ${threadId} failed`, error))
      .finally(() => this.running.delete(threadId))
    this.running.set(threadId, job)
  }

  async settled(threadId?: string): Promise<void> {
    const jobs = threadId === undefined ? [...this.running.values()] : [this.running.get(threadId)]
    await Promise.all(jobs)
  }
}
