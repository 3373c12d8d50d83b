import type { BuildWarning, MemoryCandidate } from '@shared/context'

export interface MemorySearchOptions {
  limit: number
  /** The thread being built; `scope: 'thread'` limits recalled messages to it. */
  threadId?: string
  scope?: 'thread' | 'all'
  /** Messages the caller already sends verbatim, so they are not recalled as well. */
  excludeMessageIds?: readonly (string | number)[]
  minSimilarity?: number
  /** The conversation around the query (recallQuery.ts): a second, weaker query. */
  context?: string | null
}

/** What a search found, and why it may be incomplete (full text only, model missing...). */
export interface MemorySearchOutcome {
  candidates: MemoryCandidate[]
  warnings?: BuildWarning[]
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
}

export interface Recall {
  memories: MemoryCandidate[]
  /** Pass to `BuildRequest.warnings`: the inspector shows why memories are missing. */
  warnings: BuildWarning[]
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
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs)
  })
  try {
    const { limit, threadId, scope, excludeMessageIds, minSimilarity, context } = options
    const result = await Promise.race([
      search.search(query, { limit, threadId, scope, excludeMessageIds, minSimilarity, context }),
      deadline
    ])
    if (result === 'timeout') {
      return {
        memories: [],
        warnings: [
          {
            code: 'upstream',
            message: `Memory search took over ${options.timeoutMs} ms; sent without memories.`,
            memory: {
              code: 'search_timeout',
              message: `Memory search took over ${options.timeoutMs} ms.`,
              ms: options.timeoutMs
            }
          }
        ]
      }
    }
    if (Array.isArray(result)) return { memories: result, warnings: [] }
    return { memories: result.candidates, warnings: result.warnings ?? [] }
  } catch (error) {
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
  } finally {
    clearTimeout(timer)
  }
}
