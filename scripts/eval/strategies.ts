/**
 * What fills the retrieved section, per strategy. Every strategy builds through the app's own
 * `ContextBuildService` (default configuration, only the total budget varies); they differ only in
 * the `MemorySearch` port it reads:
 *
 * - `builder`: the app's port, `memoryRecall(MemoryService)`: hybrid vector + full-text recall
 *   fused by RRF over every thread's messages and the memories.
 * - `window`: no recall at all; the budget goes to the recent window (the baseline).
 * - `vector`: the same service's KNN list alone, ranked by cosine (ablation).
 * - `fts`: the same service with no embedding model, i.e. the app's full-text fallback (ablation).
 */
import type { MemoryCandidate } from '@shared/context'
import type {
  MemorySearch,
  MemorySearchOptions,
  MemorySearchOutcome
} from '../../src/main/context/recall/memorySearch'
import { memoryRecall, toCandidate } from '../../src/main/services/memory/memoryRecall'
import type { MemoryService } from '../../src/main/services/memory/memoryService'

export const STRATEGIES = ['builder', 'window', 'vector', 'fts'] as const
export type Strategy = (typeof STRATEGIES)[number]

/** memoryRecall's query-embedding deadline, kept for the ablations. */
const SEARCH_TIMEOUT_MS = 400

/** The KNN list of the hybrid search, ranked by cosine, nothing from full text. */
function vectorOnlyRecall(memory: MemoryService): MemorySearch {
  return {
    async search(query: string, options: MemorySearchOptions): Promise<MemorySearchOutcome> {
      const result = await memory.search(query, {
        // Every candidate of both lists, so the vector list is complete before filtering.
        limit: 1_000,
        scope: options.scope === 'all' || options.scope === undefined ? 'all' : 'thread',
        threadId: options.threadId,
        timeoutMs: SEARCH_TIMEOUT_MS
      })
      const hits = result.hits
        .filter((hit) => hit.matchedBy.includes('vector'))
        .sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0))
        .slice(0, options.limit)
      return {
        candidates: hits.map((hit) => ({
          ...toCandidate(hit),
          score: Math.round((hit.similarity ?? 0) * 1000) / 1000
        })),
        warnings: result.warnings.map((memory) => ({
          code: 'upstream' as const,
          message: memory.message,
          memory
        }))
      }
    }
  }
}

/**
 * The port handed to `createServices`: forwards to the current strategy's search and times
 * it, so the memory search is reported apart from the whole build. `limit` overrides what
 * ContextBuildService asks for (to measure a proposed change; unset: what recallRequest computes).
 */
export class StrategySwitch implements MemorySearch {
  strategy: Strategy = 'builder'
  lastSearchMs = 0
  private ports: Partial<Record<Strategy, MemorySearch>> = {
    window: { search: async () => [] }
  }

  constructor(private readonly limit?: number) {}

  /** The ports that need the store's services, once they exist. */
  attach(memory: MemoryService, textOnly: MemoryService): void {
    this.ports.builder = memoryRecall(memory)
    this.ports.vector = vectorOnlyRecall(memory)
    this.ports.fts = memoryRecall(textOnly)
  }

  async search(
    query: string,
    options: MemorySearchOptions
  ): Promise<MemoryCandidate[] | MemorySearchOutcome> {
    const port = this.ports[this.strategy]
    if (!port) throw new Error(`The ${this.strategy} strategy is not ready.`)
    const started = performance.now()
    try {
      return await port.search(query, {
        ...options,
        ...(this.limit === undefined ? {} : { limit: this.limit })
      })
    } finally {
      this.lastSearchMs = performance.now() - started
    }
  }
}
