import type { MemoryCandidate, RecallReport, RetrievedOrigin } from '@shared/context'
import type { RecallScope } from '@shared/contextConfig'
import type { MemorySearchHit, MemorySearchResult, MemorySearchScope } from '@shared/domain'
import type {
  MemorySearch,
  MemorySearchOptions,
  MemorySearchOutcome
} from '../../context/recall/memorySearch'
import { recalledExcerpt } from '../../context/recall/recallQuery'
import { previewOf } from '../../context/sections/retrievedMemories'
import type { MemoryService } from './memoryService'

/**
 * Leaves the service part of the build's 500 ms deadline (context/recall/memorySearch.ts) for
 * reading the results. The query's embedding and the full-text lists each get 80 % of this;
 * past that the build goes on with the other list and a warning.
 */
const SEARCH_TIMEOUT_MS = 400

/** What the inspector's retrieved section shows as an item's source. */
function sourceOf(hit: MemorySearchHit): string {
  if (hit.kind === 'memory') return `memory · ${hit.category ?? 'other'}`
  const title = hit.threadTitle ? ` in “${hit.threadTitle}”` : ''
  return `message #${hit.seq ?? '?'}${title}`
}

function originOf(hit: MemorySearchHit, threadId: string | undefined): RetrievedOrigin {
  return hit.kind === 'memory'
    ? { kind: 'memory', category: hit.category ?? 'other' }
    : {
        kind: 'message',
        seq: hit.seq,
        threadTitle: hit.threadTitle,
        otherThread: threadId !== undefined && hit.threadId !== threadId
      }
}

export function toCandidate(hit: MemorySearchHit, threadId?: string): MemoryCandidate {
  return {
    id: hit.ref,
    content: recalledExcerpt(hit.content, hit.omittedChars),
    score: Math.round(hit.score * 1000) / 1000,
    source: sourceOf(hit),
    origin: originOf(hit, threadId),
    // A recalled message carries its id so the builder does not send it twice.
    ...(hit.kind === 'message' ? { messageId: hit.id } : {}),
    ...(hit.relevance !== undefined && { relevance: hit.relevance })
  }
}

function recallReport(
  result: MemorySearchResult,
  options: MemorySearchOptions
): RecallReport | undefined {
  const scope = options.scope ?? 'all'
  const fillSpare = options.fillSpare === true
  if (fillSpare) return { scope, fillSpare, gates: null, passed: result.hits.length, rejected: [] }
  if (!result.gate) return undefined
  return {
    scope,
    fillSpare,
    gates: result.gate.gates,
    passed: result.gate.passed,
    rejected: result.gate.rejected.map(({ hit, gate, overLimit, overTokens }) => ({
      id: hit.ref,
      relevance: hit.relevance ?? 0,
      gate,
      ...(overLimit !== undefined && { overLimit }),
      ...(overTokens !== undefined && { overTokens }),
      preview: previewOf(hit.content),
      origin: originOf(hit, options.threadId)
    })),
    ...(result.gate.absentNames.length > 0 && { absentNames: result.gate.absentNames }),
    ...(result.gate.conversationBest !== null && {
      conversationBest: result.gate.conversationBest
    }),
    ...(result.gate.aboutTheUser !== null && { aboutTheUser: result.gate.aboutTheUser })
  }
}

/**
 * Where each scope searches: `thread` this thread's messages only; `thread_memories` those and
 * the memories; `all` every thread's messages and the memories.
 */
function scopeQuery(scope: RecallScope): {
  scope: MemorySearchScope
  kinds: ('memory' | 'message')[]
} {
  switch (scope) {
    case 'thread':
      return { scope: 'thread', kinds: ['message'] }
    case 'thread_memories':
      return { scope: 'thread', kinds: ['memory', 'message'] }
    case 'all':
      return { scope: 'all', kinds: ['memory', 'message'] }
  }
}

/** The port's message ids (stored ids are integers; anything else names no message). */
function messageIds(ids: readonly (string | number)[] | undefined): number[] {
  return (ids ?? []).map(Number).filter((id) => Number.isInteger(id))
}

/** The `MemorySearch` port over `MemoryService`: a build's recall, gated, in its scope. */
export function memoryRecall(memory: MemoryService): MemorySearch {
  return {
    prepare: (context) => memory.prepareConversation(context),
    prepareInput: (input) => memory.prepareQuery(input),
    async search(query: string, options: MemorySearchOptions): Promise<MemorySearchOutcome> {
      const scope = scopeQuery(options.scope ?? 'all')
      const fillSpare = options.fillSpare === true
      const result = await memory.search(query, {
        limit: options.limit,
        ...scope,
        threadId: options.threadId,
        context: options.context ?? undefined,
        ...(fillSpare
          ? { fillBudget: true }
          : {
              gate: options.minRelevance === undefined ? {} : { minRelevance: options.minRelevance }
            }),
        ...(options.summarizedThrough !== undefined && {
          summarizedThrough: options.summarizedThrough
        }),
        excludeMessageIds: messageIds(options.excludeMessageIds),
        inputMessageIds: messageIds(options.inputMessageIds),
        timeoutMs: SEARCH_TIMEOUT_MS
      })
      const report = recallReport(result, options)
      return {
        candidates: result.hits.map((hit) => toCandidate(hit, options.threadId)),
        warnings: result.warnings.map((memory) => ({
          code: 'upstream' as const,
          message: memory.message,
          memory
        })),
        ...(report && { report })
      }
    }
  }
}
