import type { MemoryCandidate } from '@shared/context'
import type { MemorySearchHit } from '@shared/domain'
import type {
  MemorySearch,
  MemorySearchOptions,
  MemorySearchOutcome
} from '../../context/recall/memorySearch'
import type { MemoryService } from './memoryService'

/**
 * Leaves the service part of ContextService's 500 ms deadline for reading the results: past
 * this the query embedding is abandoned and the build gets full-text results plus a warning.
 */
const SEARCH_TIMEOUT_MS = 400

/** What the inspector's retrieved section shows as an item's source. */
function sourceOf(hit: MemorySearchHit): string {
  if (hit.kind === 'memory') return `memory · ${hit.category ?? 'other'}`
  const title = hit.threadTitle ? ` in “${hit.threadTitle}”` : ''
  return `message #${hit.seq ?? '?'}${title}`
}

export function toCandidate(hit: MemorySearchHit): MemoryCandidate {
  return {
    id: hit.ref,
    content: hit.content,
    score: Math.round(hit.score * 1000) / 1000,
    source: sourceOf(hit),
    origin:
      hit.kind === 'memory'
        ? { kind: 'memory', category: hit.category ?? 'other' }
        : { kind: 'message', seq: hit.seq, threadTitle: hit.threadTitle },
    // A recalled message carries its id so the builder does not send it twice.
    ...(hit.kind === 'message' ? { messageId: hit.id } : {})
  }
}

/** The `MemorySearch` port over `MemoryService`: memories and messages from every thread. */
export function memoryRecall(memory: MemoryService): MemorySearch {
  return {
    async search(query: string, options: MemorySearchOptions): Promise<MemorySearchOutcome> {
      const result = await memory.search(query, {
        limit: options.limit,
        scope: options.scope ?? 'all',
        threadId: options.threadId,
        minSimilarity: options.minSimilarity,
        context: options.context ?? undefined,
        fillBudget: true,
        excludeMessageIds: (options.excludeMessageIds ?? [])
          .map(Number)
          .filter((id) => Number.isInteger(id)),
        timeoutMs: SEARCH_TIMEOUT_MS
      })
      return {
        candidates: result.hits.map(toCandidate),
        warnings: result.warnings.map((memory) => ({
          code: 'upstream' as const,
          message: memory.message,
          memory
        }))
      }
    }
  }
}
