import type {
  MemoryCategory,
  MemorySearchHit,
  MemorySearchResult,
  MemorySearchScope
} from '@shared/domain'
import type { MemoryWarning } from '@shared/context'
import { yieldToEventLoop } from '@shared/eventLoop'
import { AppError } from '@shared/result'
import { RECALL_SAMPLE_CHARS } from '../../context/recall/recallQuery'
import { RECALLED_ROLES, type RecallMessage } from '../../store/search/recallRepository'
import { calibratedSimilarity } from '../../workers/embedding/embeddingModels'
import {
  CANDIDATES_PER_LIST,
  gatherCandidates,
  unavailableWarning,
  type SearchSources
} from './searchCandidates'
import { isStrong, textSupport, toHit, withinCaps, withinItems } from './searchHits'
import { matchedShare } from './memoryRanking'
import {
  applyGate,
  gateCalibration,
  relevanceOf,
  withMinRelevance,
  type GateKind
} from './relevanceGate'
import { cjkWeight } from '../../workers/embedding/centering'

export interface MemorySearchOptions {
  limit?: number
  /** On the model's calibrated scale (see workers/embeddingModels.ts). Default 0.6. */
  minSimilarity?: number
  categories?: readonly MemoryCategory[]
  /** `thread`: only messages of `threadId` (memories are global either way). Default `all`. */
  scope?: MemorySearchScope
  threadId?: string
  excludeMessageIds?: readonly number[]
  /** Search memories, messages or both. Default both. */
  kinds?: readonly ('memory' | 'message')[]
  /** The query embedding gets at most this long; after it, full text only. Default 500. */
  timeoutMs?: number
  /**
   * The conversation around the query (context/recall/recallQuery.ts): a second vector query whose
   * list is fused at CONTEXT_WEIGHT, and whose cosine counts for the floor like the query's.
   */
  context?: string
  /**
   * The opt-in "fill spare budget" of a build: also return vector-list items under the floor
   * (after every supported hit, `matchedBy: ['nearest']`) and the turns next to every recalled
   * message (`neighbour`). Interactive searches leave it off and get supported hits only.
   */
  fillBudget?: boolean
  /**
   * A build's default: only candidates whose relevance passes the model's gate
   * (relevanceGate.ts; `minRelevance` replaces it), neighbours only beside strong hits, and
   * the best of the rest reported as `rejected`. Ignored with `fillBudget`.
   */
  gate?: { minRelevance?: number }
  /** This thread's messages up to this seq are covered by its summary: never recalled. */
  summarizedThrough?: number
}

const DEFAULT_MIN_SIMILARITY = 0.6
const DEFAULT_LIMIT = 10
const DEFAULT_TIMEOUT_MS = 500
/**
 * A vector-list item under the floor and without text support is not evidence, but when the
 * budget has room it is the best guess left: such items come after every supported hit,
 * nearest first, down to this calibrated similarity (0.5 ≈ cosine 0.0 after centering for
 * bge-small-zh, where unrelated pairs sit; calibrated on the dev set, docs/EVALUATION.md).
 */
const NEAREST_FLOOR = 0.5
/**
 * Scores of those items: calibrated similarity (under 0.6) × this, so under 0.012: below any
 * supported hit's fused score (a conversation-only rank of 400 still scores 0.0166).
 */
const NEAREST_SCORE = 0.02
/**
 * A build's per-model rank floor (EmbeddingModelSpec.rankFloor) applies while its budget holds
 * at most this many items: there a weak vector-only hit takes the place of a text-supported one
 * one for one. With room for hundreds, demoting those hits to fill pushed evidence past the
 * limit instead (LoCoMo per session at 8,000 tokens: −0.016 with the floor at 0.7; the
 * variants are in docs/EVALUATION.md).
 */
const RANK_FLOOR_LIMIT = 100
/** A neighbour's score as a share of its hit's: just under the hits ranked near it. */
const NEIGHBOUR_WEIGHT = 0.5
/** How many of the best candidates under the gate a build reports (the inspector's "why not"). */
const REJECTED_REPORTED = 5

/** A thread's messages up to `seq`, which its summary covers. */
interface SummarizedThrough {
  threadId: string
  seq: number
}

/**
 * Hybrid recall over memories and every stored message: KNN over the active vector space and
 * BM25 over the trigram FTS indexes, fused by reciprocal rank (docs/MEMORY.md, "How it is
 * found"). Each list is evidence on its own: an item the vector list supports (calibrated
 * similarity at least `minSimilarity`) competes on both ranks; an item only the full-text list
 * found competes on its text rank alone, if enough of the query's terms occur in it. A vector
 * hit under the floor is never returned on its vector alone. Without a model, or when the
 * query cannot be embedded in time, the result is full text only and says so.
 */
export class HybridSearch {
  constructor(private readonly deps: SearchSources) {}

  /**
   * Each list reads max(50, limit) items. Excluded messages are filtered out of them, not
   * replaced by reading deeper: on LoCoMo, lists read deeper to make up for a window's worth
   * of exclusions let weak items into the fused top and cost 1-3 points of evidence recall.
   */
  async search(query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    const started = performance.now()
    const limit = options.limit ?? DEFAULT_LIMIT
    const perList = Math.max(CANDIDATES_PER_LIST, limit)
    const model = this.deps.indexer.active()
    const minSimilarity =
      options.minSimilarity ??
      (options.fillBudget && limit <= RANK_FLOOR_LIMIT ? model?.spec.rankFloor : undefined) ??
      DEFAULT_MIN_SIMILARITY
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const kinds = new Set(options.kinds ?? ['memory', 'message'])
    const threadFilter = options.scope === 'thread' ? options.threadId : undefined
    if (options.scope === 'thread' && !options.threadId) {
      throw new AppError('invalid_input', 'A thread-scoped search needs the thread.')
    }
    const exclude = new Set(options.excludeMessageIds ?? [])
    const summarized =
      options.threadId !== undefined && options.summarizedThrough !== undefined
        ? { threadId: options.threadId, seq: options.summarizedThrough }
        : undefined
    const text = query.trim()
    if (!text) return { hits: [], mode: 'text_only', warnings: [], tookMs: 0 }

    const context = options.context?.trim() || null
    const {
      candidates: all,
      terms,
      vector,
      warnings,
      timings
    } = await gatherCandidates(this.deps, {
      text,
      context,
      model,
      timeoutMs,
      perList,
      kinds,
      threadFilter,
      categories: options.categories
    })
    // The lists' reads and the candidates' rows with their scoring are each tens of ms in a
    // large store; the event loop turns between them.
    await yieldToEventLoop()
    const memories = this.deps.memories.getMany(
      all.filter((c) => c.kind === 'memory').map((c) => c.id)
    )
    const messages = this.deps.recall.messages(
      all.filter((c) => c.kind === 'message').map((c) => c.id),
      RECALL_SAMPLE_CHARS
    )
    const categories =
      options.categories && options.categories.length > 0 ? new Set(options.categories) : null
    const related = model?.spec.relatedCosine ?? 0.6

    const hits: MemorySearchHit[] = []
    const gated = options.gate && !options.fillBudget ? options.gate : null
    const calibration = withMinRelevance(
      gateCalibration(model?.spec.id, context !== null),
      gated?.minRelevance
    )
    const queryCjk = cjkWeight(text)
    /** Gated candidates with a relevance: the gate is applied once all are scored. */
    const scored: MemorySearchHit[] = []
    /** Gated candidates without a vector (model missing or slow, item not embedded yet). */
    const wordsOnly: MemorySearchHit[] = []
    for (const candidate of all) {
      const memory = candidate.kind === 'memory' ? memories.get(candidate.id) : undefined
      const message = candidate.kind === 'message' ? messages.get(candidate.id) : undefined
      // Another conversation's message is recalled on what the user asks now, not on where
      // this conversation has drifted: chat about one's week resembles every other such chat.
      const cosine =
        gated && message && message.threadId !== options.threadId
          ? candidate.inputCosine
          : candidate.cosine
      const similarity = cosine === null ? null : calibratedSimilarity(cosine, related)
      const content = memory?.content ?? message?.content
      if (content === undefined) continue
      if (memory && categories && !categories.has(memory.category)) continue
      if (message && !this.recallable(message, exclude, threadFilter, summarized)) continue
      const inVectorList = candidate.vectorRank !== undefined || candidate.contextRank !== undefined
      if (gated) {
        const relevance = relevanceOf(
          { similarity, textShare: matchedShare(content, terms), queryCjk, itemText: content },
          calibration
        )
        const matchedBy: MemorySearchHit['matchedBy'] = inVectorList ? ['vector'] : []
        if (candidate.textRank !== undefined) matchedBy.push('text')
        const hit = toHit(candidate, content, similarity, matchedBy, memory, message)
        if (relevance !== null) scored.push({ ...hit, relevance })
        // Without a vector the text rule decides, as in a search without a model (capped below).
        else if (textSupport(content, terms, candidate)) wordsOnly.push(hit)
        continue
      }
      const vectorSupport = inVectorList && similarity !== null && similarity >= minSimilarity
      const matchedBy: MemorySearchHit['matchedBy'] = []
      if (vectorSupport) matchedBy.push('vector')
      if (candidate.textRank !== undefined) matchedBy.push('text')
      if (vectorSupport || textSupport(content, terms, candidate)) {
        hits.push(toHit(candidate, content, similarity, matchedBy, memory, message))
      } else if (
        options.fillBudget &&
        inVectorList &&
        similarity !== null &&
        similarity >= NEAREST_FLOOR
      ) {
        const hit = toHit(candidate, content, similarity, ['nearest'], memory, message)
        hits.push({ ...hit, score: similarity * NEAREST_SCORE })
      }
    }

    const kindOf = (hit: MemorySearchHit): GateKind =>
      hit.kind === 'memory' ? 'memory' : hit.threadId === options.threadId ? 'thread' : 'message'
    const gate = gated ? applyGate(scored, kindOf, (hit) => hit.relevance ?? 0, calibration) : null
    if (gate) hits.push(...gate.passed, ...withinCaps(wordsOnly, kindOf, calibration))
    hits.sort((a, b) => b.score - a.score || (b.similarity ?? 0) - (a.similarity ?? 0))
    // A message that a returned memory was made from adds nothing the memory does not say.
    const sources = new Set(
      hits.filter((h) => h.kind === 'memory' && h.messageId !== null).map((h) => h.messageId)
    )
    const unique = hits.filter((h) => h.kind === 'memory' || !sources.has(h.id))
    const top = options.fillBudget ? withinItems(unique, limit) : unique.slice(0, limit)
    const neighbours = (parents: MemorySearchHit[]) =>
      this.addNeighbours(parents, top, exclude, threadFilter, sources, summarized)
    return {
      hits: options.fillBudget
        ? neighbours(top)
        : gate
          ? neighbours(top.filter((hit) => isStrong(hit, gate.gates[kindOf(hit)], calibration)))
          : top,
      mode: vector ? 'hybrid' : 'text_only',
      warnings,
      tookMs: performance.now() - started,
      timings,
      ...(gate && {
        gate: {
          gates: vector ? gate.gates : null,
          passed: unique.length,
          rejected: gate.rejected
            .sort((a, b) => (b.item.relevance ?? 0) - (a.item.relevance ?? 0))
            .slice(0, REJECTED_REPORTED)
            .map(({ item, gate }) => ({ hit: item, gate }))
        }
      })
    }
  }

  /** Why search is full text only right now (the inspector and the memory manager say it). */
  unavailableWarning(): MemoryWarning {
    return unavailableWarning(this.deps.indexer)
  }

  /**
   * The turns right before and after each recalled message (the question an answer replied
   * to, the reply a question got), scored at NEIGHBOUR_WEIGHT × the hit they belong to: under
   * the hits ranked near it, so they fill what budget is left rather than displace hits. A
   * neighbour that is already a weaker hit (a `nearest` one, say) is lifted to that score.
   */
  private addNeighbours(
    from: MemorySearchHit[],
    top: MemorySearchHit[],
    exclude: Set<number>,
    threadFilter: string | undefined,
    sources: Set<number | null>,
    summarized: SummarizedThrough | undefined
  ): MemorySearchHit[] {
    const parents = from.filter(
      (h): h is MemorySearchHit & { threadId: string; seq: number } =>
        h.kind === 'message' && h.threadId !== null && h.seq !== null
    )
    const found = new Map(top.filter((h) => h.kind === 'message').map((h) => [h.id, h]))
    const bySeat = new Map(parents.map((p) => [`${p.threadId}\u0000${p.seq}`, p]))
    const added: MemorySearchHit[] = []
    for (const message of this.deps.recall.neighbours(parents, RECALL_SAMPLE_CHARS)) {
      if (sources.has(message.id)) continue
      if (!this.recallable(message, exclude, threadFilter, summarized)) continue
      const around = [message.seq + 1, message.seq - 1]
        .map((seq) => bySeat.get(`${message.threadId}\u0000${seq}`)?.score ?? 0)
        .filter((score) => score > 0)
      if (around.length === 0) continue
      const score = Math.max(...around) * NEIGHBOUR_WEIGHT
      const existing = found.get(message.id)
      if (existing) {
        if (existing.score < score) {
          existing.score = score
          existing.matchedBy = [...existing.matchedBy.filter((m) => m !== 'nearest'), 'neighbour']
        }
        continue
      }
      const hit = {
        ...toHit(
          { kind: 'message', id: message.id, cosine: null, inputCosine: null },
          message.content,
          null,
          ['neighbour'],
          undefined,
          message
        ),
        score
      }
      found.set(message.id, hit)
      added.push(hit)
    }
    return [...top, ...added].sort((a, b) => b.score - a.score)
  }

  private recallable(
    message: RecallMessage,
    exclude: Set<number>,
    threadId: string | undefined,
    summarized: SummarizedThrough | undefined
  ): boolean {
    return (
      !message.excluded &&
      !exclude.has(message.id) &&
      RECALLED_ROLES.includes(message.role) &&
      (threadId === undefined || message.threadId === threadId) &&
      !(summarized && message.threadId === summarized.threadId && message.seq <= summarized.seq)
    )
  }
}
