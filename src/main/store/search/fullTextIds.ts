import type { MemoryRepository } from '../memoryRepository'
import type { RecallRepository } from './recallRepository'

/** A full-text search of memories and recallable messages (searchCandidates.ts). */
export interface FullTextQuery {
  /** Quoted FTS5 literals (memoryRanking.ts). */
  terms: string[]
  limit: number
  kinds: ('memory' | 'message')[]
  threadId?: string
}

/** Each index's best ids, best first. */
export interface FullTextIds {
  memory: number[]
  message: number[]
}

/** The full-text lists of a search, on whichever connection the repositories hold. */
export function fullTextIds(
  memories: MemoryRepository,
  recall: RecallRepository,
  { terms, limit, kinds, threadId }: FullTextQuery
): FullTextIds {
  return {
    memory: kinds.includes('memory') ? memories.ftsSearch(terms, limit) : [],
    message: kinds.includes('message') ? recall.ftsMessages(terms, limit, threadId) : []
  }
}
