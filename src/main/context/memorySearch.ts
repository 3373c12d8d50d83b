import type { BuildWarning, MemoryCandidate } from '@shared/context'

/** The port the memory service implements (local vector + full-text search). */
export interface MemorySearch {
  search(query: string, options: { limit: number; threadId?: string }): Promise<MemoryCandidate[]>
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
  options: { limit: number; timeoutMs: number; threadId?: string }
): Promise<Recall> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs)
  })
  try {
    const result = await Promise.race([
      search.search(query, { limit: options.limit, threadId: options.threadId }),
      deadline
    ])
    if (result === 'timeout') {
      return {
        memories: [],
        warnings: [
          {
            code: 'upstream',
            message: `Memory search took over ${options.timeoutMs} ms; sent without memories.`
          }
        ]
      }
    }
    return { memories: result, warnings: [] }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {
      memories: [],
      warnings: [
        { code: 'upstream', message: `Memory search failed (${reason}); sent without memories.` }
      ]
    }
  } finally {
    clearTimeout(timer)
  }
}
