/**
 * A thread's stored summary and its versions as the user sees them: the text the builder sends,
 * every version, a version beside what it replaced, a restore and the user's own edit. Both
 * writes stop a background job of SummaryService that was planned from the text before them.
 */
import type { ThreadSummary } from '@shared/context'
import type { ThreadSummaryView } from '@shared/domain'
import { AppError } from '@shared/result'
import type { SummaryComparison, SummaryVersionView } from '@shared/summaryCompression'
import type { TokenCounter } from '../../context/tokens/tokenCounter'
import type { SummaryRepository, SummaryWrite } from '../../store/summaryRepository'
import type { Publish } from '../events'
import type { ThreadMessageCache } from '../chat/threadMessageCache'

export interface SummaryVersionsDeps {
  summaries: SummaryRepository
  cache: ThreadMessageCache
  publish: Publish
  now: () => number
  tokens: TokenCounter
  /** Stops the thread's running summary job, if any. */
  stopJob: (threadId: string) => void
}

export class SummaryVersions {
  constructor(private readonly deps: SummaryVersionsDeps) {}

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

  /** Every version, newest first. */
  versions(threadId: string): SummaryVersionView[] {
    return this.deps.summaries.versions(threadId)
  }

  /** A version beside what it replaced: the version before it and the messages it folded in. */
  compare(threadId: string, version: number): SummaryComparison {
    const found = this.deps.summaries.version(threadId, version)
    if (!found) throw new AppError('not_found', 'This summary version no longer exists.')
    const ids = new Set(found.foldedIds)
    return {
      version: found,
      previous: this.deps.summaries.previousVersion(threadId, version),
      replaced: this.deps.cache.get(threadId).filter((m) => ids.has(m.id))
    }
  }

  /**
   * Brings an older version back as the newest one (its text and what it covers); the versions
   * in between stay in the history. A job still running was planned from another text: stopped.
   */
  restore(threadId: string, version: number): ThreadSummaryView {
    const found = this.deps.summaries.version(threadId, version)
    if (!found) throw new AppError('not_found', 'This summary version no longer exists.')
    this.deps.stopJob(threadId)
    return this.write(threadId, {
      content: found.content,
      lastMessageSeq: found.lastMessageSeq,
      source: found.source,
      kind: 'restore',
      summaryTokens: this.deps.tokens.count(found.content)
    })
  }

  /**
   * The user's edit: the text changes, what it covers does not (0 for a first summary). A
   * model update still running was planned from the text before the edit: it is stopped, and
   * its result would be dropped anyway (see SummaryService's `saveIfUnchanged`).
   */
  update(threadId: string, content: string): ThreadSummaryView {
    const current = this.deps.summaries.get(threadId)
    this.deps.stopJob(threadId)
    return this.write(threadId, {
      content,
      lastMessageSeq: current?.lastMessageSeq ?? 0,
      source: 'user',
      kind: 'edit',
      summaryTokens: this.deps.tokens.count(content)
    })
  }

  private write(threadId: string, value: SummaryWrite): ThreadSummaryView {
    const stored = this.deps.summaries.put(threadId, value, this.deps.now())
    if (!stored) throw new AppError('not_found', 'This conversation no longer exists.')
    this.deps.publish('summary:changed', stored)
    return stored
  }
}
