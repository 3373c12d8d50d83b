/**
 * Thread summaries, kept in the background. After a turn at the window's cut, once the messages
 * that fell out of the window and are not yet summarized hold enough tokens (more once a summary
 * exists: see summaries/summaryAutomation.ts), the stored summary is updated iteratively (the
 * previous summary plus the new turns) by the thread's model, or by the extractive fallback
 * without one. Never on the send path: a send never waits for it. Auth and network failures
 * and summaries not smaller than what they replace leave the stored summary unchanged and count
 * toward the three that stop automation until Retry.
 *
 * "/compress [focus]" (`compress`) does the same at once, for everything before a protected
 * tail, with the focus topic. Every job remembers the version it started from and drops its
 * result if the summary changed meanwhile (the user's edit wins; the next turn re-plans from it).
 * Every version is kept: the user can compare one with what it replaced and restore it.
 * Messages the user exempted never reach the summarizer; editing or excluding a covered message
 * marks the summary stale, and the next turn rewrites it from the messages as they are now.
 */
import type { BuiltContext, ThreadSummary } from '@shared/context'
import type { ContextMessage } from '@shared/context'
import type { Message, ThreadSummaryView } from '@shared/domain'
import { AppError } from '@shared/result'
import type {
  SummaryAutomationStatus,
  SummaryComparison,
  SummaryCompressResult,
  SummaryVersionKind,
  SummaryVersionView
} from '@shared/summaryCompression'
import { planManualCompression, TAIL_BUDGET_RATIO } from '../../context/summary/manualCompression'
import { planSummaryUpdate, windowStartSeq } from '../../context/summary/summaryUpdate'
import { o200kCounter, type TokenCounter } from '../../context/tokens/tokenCounter'
import type { SummaryRepository, SummaryWrite } from '../../store/summaryRepository'
import type { ChatTarget } from '../providers/modelResolver'
import type { Publish } from '../events'
import type { ProviderService } from '../providers/providerService'
import { foldSummary, type FoldOutcome } from './foldSummary'
import { summarizerFor } from './providerSummarizer'
import { SummaryAutomation } from './summaryAutomation'
import { SummaryVersions } from './summaryVersions'
import type { ThreadMessageCache } from '../chat/threadMessageCache'

/** Update once the unsummarized messages outside the window hold this many tokens. */
const SUMMARY_UPDATE_MIN_TOKENS = 2_000
/**
 * The rolling summary's target length (a compression's summary has its own, larger budget:
 * COMPRESSION_SUMMARY_MAX_TOKENS in context/compressor/compressTranscript.ts).
 */
const ROLLING_SUMMARY_MAX_TOKENS = 1_200

export interface SummaryServiceDeps {
  summaries: SummaryRepository
  cache: ThreadMessageCache
  providers: ProviderService
  publish: Publish
  now: () => number
  log: (message: string, error: unknown) => void
  minTokens?: number
  /** Counts summaries against what they replace (o200k unless a test says otherwise). */
  tokens?: TokenCounter
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

/** What the summarizer may read: never what the user excluded or exempted. */
const summarizable = (m: Message | ContextMessage): boolean =>
  !m.excluded && !(m as Message).summaryExempt

export class SummaryService {
  private readonly running = new Map<string, SummaryJob>()
  private readonly automation = new SummaryAutomation()
  private readonly tokens: TokenCounter

  /** The stored text and its versions, which the user reads, edits and restores. */
  private readonly userVersions: SummaryVersions

  constructor(private readonly deps: SummaryServiceDeps) {
    this.tokens = deps.tokens ?? o200kCounter
    this.userVersions = new SummaryVersions({
      ...deps,
      tokens: this.tokens,
      // A job still running was planned from another text: stopped.
      stopJob: (threadId) => this.running.get(threadId)?.controller.abort()
    })
  }

  get(threadId: string): ThreadSummaryView | null {
    return this.userVersions.get(threadId)
  }

  /** For the builder's summary section. */
  forBuild(threadId: string): ThreadSummary | null {
    return this.userVersions.forBuild(threadId)
  }

  versions(threadId: string): SummaryVersionView[] {
    return this.userVersions.versions(threadId)
  }

  compare(threadId: string, version: number): SummaryComparison {
    return this.userVersions.compare(threadId, version)
  }

  restore(threadId: string, version: number): ThreadSummaryView {
    return this.userVersions.restore(threadId, version)
  }

  update(threadId: string, content: string): ThreadSummaryView {
    return this.userVersions.update(threadId, content)
  }

  /**
   * A message was edited, excluded or exempted: a summary that covers it may state what is no
   * longer so. It is marked stale and rewritten after the next turn (the status says so).
   */
  messageChanged(threadId: string, seq: number): void {
    const stale = this.deps.summaries.markStale(threadId, seq)
    if (!stale) return
    this.deps.publish('summary:changed', stale)
    this.publishStatus(threadId)
  }

  status(threadId: string): SummaryAutomationStatus {
    const { failures, lastError } = this.automation.failures(threadId)
    const stored = this.deps.summaries.get(threadId)
    const stale = stored?.staleSinceSeq != null
    const paused = this.automation.paused(threadId)
    return {
      threadId,
      failures,
      paused,
      lastError,
      stale,
      scheduled: stale && !paused,
      running: this.running.get(threadId)?.kind === 'background'
    }
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
    const atCut = this.automation.observeTurn(threadId, build)
    if (this.running.has(threadId) || this.automation.paused(threadId)) return
    this.startUpdate(threadId, build, inputSeq, target, { atCut })
  }

  /** Retry after automation stopped: the count starts over and an update runs now if one is due. */
  retry(
    threadId: string,
    build: BuiltContext | null,
    target: ChatTarget | null
  ): SummaryAutomationStatus {
    this.automation.resume(threadId)
    if (build && !this.running.has(threadId)) {
      const last = this.deps.cache.get(threadId).at(-1)
      this.startUpdate(threadId, build, (last?.seq ?? 0) + 1, target, { atCut: true })
    }
    this.publishStatus(threadId)
    return this.status(threadId)
  }

  private startUpdate(
    threadId: string,
    build: BuiltContext,
    inputSeq: number,
    target: ChatTarget | null,
    { atCut }: { atCut: boolean }
  ): void {
    const stored = this.deps.summaries.get(threadId)
    const messages = this.deps.cache.get(threadId)
    const minTokens = this.deps.minTokens ?? SUMMARY_UPDATE_MIN_TOKENS
    const plan = planSummaryUpdate({
      messages,
      summary: stored && { content: stored.content, lastMessageSeq: stored.lastMessageSeq },
      // The turn's input (and its reply) are current, never "outside the window".
      windowStartSeq: Math.min(windowStartSeq(build) ?? inputSeq, inputSeq),
      minTokens: this.automation.threshold(minTokens, stored !== null)
    })
    const stale = stored?.staleSinceSeq != null
    let work: { previous: string | null; messages: ContextMessage[]; lastMessageSeq: number }
    if (stale) {
      // Rewritten from the messages as they are now, not from the text that is out of date:
      // from the newest version written before the changed message, else from the start.
      const lastMessageSeq = Math.max(stored.lastMessageSeq, plan.lastMessageSeq)
      const base = this.deps.summaries.newestVersionBefore(threadId, stored.staleSinceSeq!)
      const from = base?.lastMessageSeq ?? 0
      work = {
        previous: base?.content ?? null,
        messages: messages.filter(
          (m) => m.seq > from && m.seq <= lastMessageSeq && summarizable(m)
        ),
        lastMessageSeq
      }
    } else {
      if (!plan.due || !atCut) return
      work = {
        previous: stored?.content ?? null,
        messages: plan.messages.filter(summarizable),
        lastMessageSeq: plan.lastMessageSeq
      }
    }
    if (work.messages.length === 0) return
    const controller = new AbortController()
    const job: SummaryJob = {
      kind: 'background',
      controller,
      promise: foldSummary(summarizerFor(this.deps.providers, target), this.tokens, {
        previousSummary: work.previous,
        messages: work.messages,
        maxTokens: ROLLING_SUMMARY_MAX_TOKENS,
        contextWindow: target?.model.contextWindow ?? null,
        mode: 'background',
        signal: controller.signal
      })
        .then((outcome) => {
          if (controller.signal.aborted) {
            this.deps.log(`summary of ${threadId} dropped: the summary changed while it ran`, null)
            return
          }
          if (outcome.status !== 'folded') {
            this.backgroundFailed(threadId, outcome)
            return
          }
          const saved = this.saveIfUnchanged(threadId, stored?.version ?? 0, {
            content: outcome.text,
            lastMessageSeq: work.lastMessageSeq,
            source: outcome.source,
            kind: 'auto',
            foldedIds: work.messages.map((m) => Number(m.id)),
            replacedTokens: outcome.replacedTokens,
            summaryTokens: outcome.summaryTokens
          })
          if (saved) this.automation.succeeded(threadId)
          else
            this.deps.log(`summary of ${threadId} dropped: the summary changed while it ran`, null)
        })
        .catch((error: unknown) => {
          this.deps.log(`summary of ${threadId} failed`, error)
          this.backgroundFailed(threadId, {
            status: 'failed',
            error: error instanceof Error ? error.message : String(error)
          })
        })
        .finally(() => {
          this.finished(threadId, job)
          this.publishStatus(threadId)
        })
    }
    this.running.set(threadId, job)
    this.publishStatus(threadId)
  }

  private backgroundFailed(threadId: string, outcome: Exclude<FoldOutcome, { status: 'folded' }>) {
    const error =
      outcome.status === 'failed'
        ? outcome.error
        : `The summary (${outcome.summaryTokens} tokens) was not smaller than what it replaces (${outcome.replacedTokens} tokens).`
    this.deps.log(`summary of ${threadId} postponed: ${error}`, null)
    if (this.automation.failed(threadId, error)) {
      this.deps.log(`automatic summaries of ${threadId} stopped after repeated failures`, null)
    }
  }

  /**
   * "/compress [focus]": folds every message after what the summary covers and before the
   * protected tail (`planManualCompression`) into the summary now, iteratively, with the focus
   * topic, in batches that fit the model's window (headroom). The user asked for it, so any
   * model failure (auth and network included) falls back to the extractive summary, and says so.
   * A background update still running is stopped: it was planned from an older summary.
   * Messages are never touched, only what the summary covers.
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
        : SUMMARY_UPDATE_MIN_TOKENS,
      windowStartSeq: build ? windowStartSeq(build) : null
    })
    if (plan.nothing) {
      return {
        status: 'nothing_to_compress',
        reason: plan.nothing,
        tailMessages: plan.tailMessages
      }
    }
    const folded = plan.messages.filter(summarizable)
    const focusTopic = options.focusTopic?.trim() || null
    const controller = new AbortController()
    const work = foldSummary(summarizerFor(this.deps.providers, options.target), this.tokens, {
      previousSummary: stored?.content ?? null,
      messages: folded,
      focusTopic,
      maxTokens: ROLLING_SUMMARY_MAX_TOKENS,
      contextWindow: options.target?.model.contextWindow ?? null,
      mode: 'now',
      signal: controller.signal
    })
    const job: SummaryJob = { kind: 'compress', controller, promise: work }
    this.running.set(threadId, job)
    try {
      const outcome = await work
      if (controller.signal.aborted) return { status: 'superseded' }
      if (outcome.status === 'not_smaller') return outcome
      if (outcome.status === 'failed') throw new Error(outcome.error)
      const saved = this.saveIfUnchanged(threadId, stored?.version ?? 0, {
        content: outcome.text,
        lastMessageSeq: plan.lastMessageSeq,
        source: outcome.source,
        kind: 'compress',
        foldedIds: folded.map((m) => Number(m.id)),
        replacedTokens: outcome.replacedTokens,
        summaryTokens: outcome.summaryTokens
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
    value: SummaryWrite & { kind: SummaryVersionKind }
  ): ThreadSummaryView | null {
    const current = this.deps.summaries.get(threadId)
    if ((current?.version ?? 0) !== startVersion) return null
    const saved = this.deps.summaries.put(threadId, value, this.deps.now())
    if (!saved) return null
    this.deps.publish('summary:changed', saved)
    return saved
  }

  private publishStatus(threadId: string): void {
    // A job may end after the store closed (quitting mid-summary): nothing is left to report.
    try {
      this.deps.publish('summary:status', this.status(threadId))
    } catch (error) {
      this.deps.log(`summary status of ${threadId} not published`, error)
    }
  }

  private finished(threadId: string, job: SummaryJob): void {
    if (this.running.get(threadId) === job) this.running.delete(threadId)
  }

  async settled(threadId?: string): Promise<void> {
    const jobs = threadId === undefined ? [...this.running.values()] : [this.running.get(threadId)]
    await Promise.all(jobs.map((job) => job?.promise.catch(() => undefined)))
  }
}
