import type { BuildWarning, MemoryCandidate, RecallReport } from '@shared/context'
import { DeadlineError, withDeadline } from '@shared/deadline'
import type { RecallScope } from '@shared/contextConfig'

export interface MemorySearchOptions {
  /** At most this many candidates: a cap, not a quota (the gate decides what is relevant). */
  limit: number
  /** The thread being built: the scope is relative to it. */
  threadId?: string
  /** Default `all`: this thread's older messages, the memories and every other thread. */
  scope?: RecallScope
  /** Messages the caller already sends verbatim, so they are not recalled as well. */
  excludeMessageIds?: readonly (string | number)[]
  /**
   * The input being answered, once stored, and anything after it: never recalled, and not
   * part of the conversation other threads are weighed against.
   */
  inputMessageIds?: readonly (string | number)[]
  /**
   * This thread's messages up to this seq are covered by its summary and were cut by the
   * window on purpose: recalling them would resend what the cut dropped (and move the cut).
   */
  summarizedThrough?: number
  /** Replaces the model's relevance gate (0-1). */
  minRelevance?: number
  /** Also send what fails the gate, nearest first, and the turns around every hit (opt-in). */
  fillSpare?: boolean
  /** The conversation around the query (recallQuery.ts): a second, weaker query. */
  context?: string | null
}

/** What a search found, and why it may be incomplete (full text only, model missing...). */
export interface MemorySearchOutcome {
  candidates: MemoryCandidate[]
  warnings?: BuildWarning[]
  /** The gate and what it turned away, for the inspector. */
  report?: RecallReport
}

/**
 * The port the memory service implements (local vector + full-text search). A plain array is
 * a complete result; an outcome can also carry warnings, which the build records.
 */
export interface MemorySearch {
  search(
    query: string,
    options: MemorySearchOptions
  ): Promise<MemoryCandidate[] | MemorySearchOutcome>
  /**
   * Readies a conversation (`MemorySearchOptions.context`) for the searches that will read an
   * input in it, in the background: the send then embeds only its input.
   */
  prepare?(context: string): void
  /**
   * Embeds a send's input (`inputQuery`) in the background while the build reads the thread,
   * so the search finds its vector at hand.
   */
  prepareInput?(input: string): void
}

export interface Recall {
  memories: MemoryCandidate[]
  /** Pass to `BuildRequest.warnings`: the inspector shows why memories are missing. */
  warnings: BuildWarning[]
  /** Pass to `BuildRequest.recall`. */
  report?: RecallReport
}

/**
 * Searches with a deadline. A slow or failing search degrades the build (no memories, a
 * warning) instead of holding up the user's message.
 */
export async function recallMemories(
  search: MemorySearch,
  query: string,
  options: MemorySearchOptions & { timeoutMs: number }
): Promise<Recall> {
  const { timeoutMs, ...searchOptions } = options
  try {
    const result = await withDeadline(search.search(query, searchOptions), timeoutMs)
    if (Array.isArray(result)) return { memories: result, warnings: [] }
    return {
      memories: result.candidates,
      warnings: result.warnings ?? [],
      ...(result.report && { report: result.report })
    }
  } catch (error) {
    if (error instanceof DeadlineError) {
      return {
        memories: [],
        warnings: [
          {
            code: 'upstream',
            message: `Memory search took over ${timeoutMs} ms; sent without memories.`,
            memory: {
              code: 'search_timeout',
              message: `Memory search took over ${timeoutMs} ms.`,
              ms: timeoutMs
            }
          }
        ]
      }
    }
    const reason = error instanceof Error ? error.message : String(error)
    return {
      memories: [],
      warnings: [
        {
          code: 'upstream',
          message: `Memory search failed (${reason}); sent without memories.`,
          memory: { code: 'search_failed', message: `Memory search failed (${reason}).`, reason }
        }
      ]
    }
  }
}
