import type {
  Memory,
  MemoryCategory,
  MemorySearchHit,
  MemorySearchResult,
  MemorySearchScope
} from '@shared/domain'
import type { MemoryWarning } from '@shared/context'
import { DeadlineError } from '@shared/deadline'
import { AppError } from '@shared/result'
import type { MemoryRepository } from '../../store/memoryRepository'
import {
  RECALLED_ROLES,
  type RecallMessage,
  type RecallRepository
} from '../../store/search/recallRepository'
import { dotAt } from '../../store/vectors/dotProduct'
import type { VectorHit, VectorSpace, VectorStore } from '../../store/vectors/vectorStore'
import { calibratedSimilarity } from '../../workers/embedding/embeddingModels'
import type { MemoryIndexer } from './memoryIndexer'
import { inProcessMessageSearch, type MessageVectorSearch } from './messageVectorSearch'
import type { QueryRanker } from './queryRanker'
import { hasStrongTerm, matchedShare, quotedTerms, recallTerms, rrfScore } from './memoryRanking'
import {
  applyGate,
  gateCalibration,
  relevanceOf,
  withMinRelevance,
  type GateCalibration,
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

export interface HybridSearchDeps {
  memories: MemoryRepository
  recall: RecallRepository
  vectors: VectorStore
  indexer: MemoryIndexer
  /** Where the nearest messages are searched (a worker in the app); default this thread. */
  messageSearch?: MessageVectorSearch
  /** Embeds queries with a deadline, cached per vector space (shared with files and tools). */
  ranker: QueryRanker
}

const DEFAULT_MIN_SIMILARITY = 0.6
const DEFAULT_LIMIT = 10
const DEFAULT_TIMEOUT_MS = 500
/**
 * Candidates each ranked list contributes before fusion, at least; a longer `limit` reads as
 * many from each list, so every returned hit can come from either (the recall limit is at most
 * 400, recallRequest.ts).
 */
const CANDIDATES_PER_LIST = 50
/**
 * Without vector support (no vector yet, or one under the floor), a full-text hit needs this
 * share of the query's terms, or one strong term (a Chinese trigram or a word of 4+ letters):
 * three-letter words alone are too common.
 */
const TEXT_ONLY_MIN_SHARE = 0.5
/**
 * The conversation's vector list counts a quarter as much as the query's own in the fusion:
 * enough to lift what an implicit question refers to (dev set: 0.872 → 0.929 at 1,500 tokens),
 * little enough that a self-contained question is not pulled toward the previous turn (at 0.5
 * LoCoMo's single thread lost 0.035 at 2,000 tokens; docs/EVALUATION.md).
 */
const CONTEXT_WEIGHT = 0.25
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

interface Embedded {
  vector: Float32Array | null
  error: unknown
}

interface Candidate {
  kind: 'memory' | 'message'
  id: number
  /** The best cosine over the query vectors (the input's, the conversation's). */
  cosine: number | null
  /** The cosine with the input's own vector: what other threads' messages are judged on. */
  inputCosine: number | null
  /** Rank in the input's vector list, and in the conversation's. */
  vectorRank?: number
  contextRank?: number
  textRank?: number
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
  constructor(private readonly deps: HybridSearchDeps) {}

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
    const warnings: MemoryWarning[] = []
    const text = query.trim()
    if (!text) return { hits: [], mode: 'text_only', warnings, tookMs: 0 }

    const context = options.context?.trim() || null
    // The embedding worker embeds the query, then the conversation, while this thread reads
    // the full-text list and then the query's vector lists (issue #16). Apart, not as one
    // batch: a batch pads the short query to the conversation's length, and the query's lists
    // wait only for the query.
    const embedStarted = performance.now()
    const timings = { embedMs: 0, contextEmbedMs: 0, textMs: 0, vectorMs: 0 }
    const embed = (input: string, done: (ms: number) => void): Promise<Embedded> | null =>
      model
        ? this.deps.ranker
            .embedWithin(model, input, timeoutMs * 0.8)
            .then(
              (vector) => ({ vector, error: null }),
              (error: unknown) => ({ vector: null, error })
            )
            .finally(() => done(performance.now() - embedStarted))
        : null
    const queryEmbedding = embed(text, (ms) => (timings.embedMs = ms))
    const contextEmbedding = context ? embed(context, (ms) => (timings.contextEmbedMs = ms)) : null
    // The model may have been replaced while a query was embedded: never mix spaces.
    const current = () =>
      model && this.deps.indexer.active()?.space.id === model.space.id ? model.space : null

    const candidates = new Map<string, Candidate>()
    const upsert = (kind: Candidate['kind'], id: number): Candidate => {
      const key = `${kind}:${id}`
      let candidate = candidates.get(key)
      if (!candidate) {
        candidate = { kind, id, cosine: null, inputCosine: null }
        candidates.set(key, candidate)
      }
      return candidate
    }

    // Vector lists, one per query vector: memories and messages share one space, so their
    // cosines rank together. The conversation's list counts a quarter, and is read as deep.
    // The nearest messages come from the vector worker while this thread finds the nearest
    // memories (and, when the query's vector is at hand, reads the full-text list).
    const messageSearch = this.deps.messageSearch ?? inProcessMessageSearch(this.deps.vectors)
    const vectorList = async (space: VectorSpace, query: Float32Array, list: 0 | 1) => {
      const vectorStarted = performance.now()
      const depth = list === 0 ? perList : contextDepth(perList)
      const messages = kinds.has('message')
        ? messageSearch.nearest(space, query, depth, threadFilter)
        : Promise.resolve([])
      const hits: { kind: Candidate['kind']; hit: VectorHit }[] = []
      if (kinds.has('memory')) {
        for (const hit of this.deps.vectors.nearestMemories(
          space,
          query,
          depth,
          options.categories
        )) {
          hits.push({ kind: 'memory', hit })
        }
      }
      for (const hit of await messages) hits.push({ kind: 'message', hit })
      timings.vectorMs += performance.now() - vectorStarted
      return () => {
        hits.sort((a, b) => a.hit.distance - b.hit.distance)
        hits.forEach(({ kind, hit }, index) => {
          const candidate = upsert(kind, hit.id)
          candidate.cosine = Math.max(candidate.cosine ?? -1, 1 - hit.distance)
          if (list === 0) {
            candidate.vectorRank = index + 1
            candidate.inputCosine = 1 - hit.distance
          } else candidate.contextRank = index + 1
        })
      }
    }

    const cached = model ? this.deps.ranker.cached(model, text) : null
    const early = cached && current() ? vectorList(current() as VectorSpace, cached, 0) : null
    // Awaited below unless the model changes meanwhile; a failure then is nobody's to report.
    early?.catch(() => undefined)
    const textStarted = performance.now()
    const terms = recallTerms(text)
    const textList = this.textList(terms, perList, kinds, threadFilter)
    timings.textMs = performance.now() - textStarted

    let vector: Float32Array | null = null
    if (model && queryEmbedding) {
      const { vector: embedded, error } = await queryEmbedding
      vector = embedded
      if (error) warnings.push(embedWarning(error, Math.round(timeoutMs * 0.8)))
    } else {
      warnings.push(this.unavailableWarning())
    }
    const space = vector ? current() : null
    if (!space) vector = null

    const queryVectors: Float32Array[] = []
    if (space && vector) {
      queryVectors.push(vector)
      const inputList = early ?? vectorList(space, vector, 0)
      // A conversation vector that came too late (or not at all) only leaves its list out:
      // the input's own lists are there, so the result is still hybrid and says so.
      const contextVector = contextEmbedding ? (await contextEmbedding).vector : null
      const place = await inputList
      place()
      if (contextVector && current()?.id === space.id) {
        queryVectors.push(contextVector)
        ;(await vectorList(space, contextVector, 1))()
      }
    }

    textList.forEach(({ kind, id }, index) => {
      upsert(kind, id).textRank = index + 1
    })

    // Hits the input's KNN did not return (full-text hits, the conversation's list): score
    // them against their stored vector, if any.
    const input = queryVectors[0]
    if (space && input) {
      for (const kind of ['memory', 'message'] as const) {
        const missing = [...candidates.values()].filter(
          (c) => c.kind === kind && c.inputCosine === null
        )
        const stored = this.deps.vectors.vectors(
          space,
          kind,
          missing.map((c) => c.id)
        )
        for (const candidate of missing) {
          const v = stored.get(candidate.id)
          if (!v) continue
          candidate.inputCosine = dotAt(input, v, 0, input.length)
          candidate.cosine ??= Math.max(...queryVectors.map((q) => dotAt(q, v, 0, q.length)))
        }
      }
    }

    const all = [...candidates.values()]
    const memories = this.deps.memories.getMany(
      all.filter((c) => c.kind === 'memory').map((c) => c.id)
    )
    const messages = this.deps.recall.messages(
      all.filter((c) => c.kind === 'message').map((c) => c.id)
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

  /** Full-text list: the best of both indexes (store/search/fullTextTopK.ts), interleaved by rank. */
  private textList(
    terms: readonly string[],
    perList: number,
    kinds: ReadonlySet<string>,
    threadFilter: string | undefined
  ): { kind: Candidate['kind']; id: number }[] {
    if (terms.length === 0) return []
    const match = quotedTerms(terms)
    const memoryIds = kinds.has('memory') ? this.deps.memories.ftsSearch(match, perList) : []
    const messageIds = kinds.has('message')
      ? this.deps.recall.ftsMessages(match, perList, threadFilter)
      : []
    const interleaved: { kind: Candidate['kind']; id: number }[] = []
    for (let i = 0; i < Math.max(memoryIds.length, messageIds.length); i++) {
      if (i < memoryIds.length) interleaved.push({ kind: 'memory', id: memoryIds[i] as number })
      if (i < messageIds.length) interleaved.push({ kind: 'message', id: messageIds[i] as number })
    }
    return interleaved
  }

  /** Why search is full text only right now (the inspector and the memory manager say it). */
  unavailableWarning(): MemoryWarning {
    const status = this.deps.indexer.embedder()?.status()
    const wordsOnly = 'memory search uses full text only.'
    switch (status?.state) {
      case undefined:
      case 'idle':
        return { code: 'no_model', message: `No embedding model is configured; ${wordsOnly}` }
      case 'loading':
        return { code: 'loading', message: `The embedding model is still loading; ${wordsOnly}` }
      case 'downloading':
        return {
          code: 'downloading',
          message: `The embedding model is being downloaded; ${wordsOnly}`
        }
      case 'unavailable': {
        const reason = status.error ?? 'unknown error'
        return {
          code: 'unavailable',
          message: `The embedding model could not be loaded (${reason}); ${wordsOnly}`,
          reason
        }
      }
      case 'ready':
        return {
          code: 'indexing',
          message: `The embedding model is preparing its index; ${wordsOnly}`
        }
    }
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
    for (const message of this.deps.recall.neighbours(parents)) {
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

/** The warning a build shows when the query could not be embedded: full text only. */
function embedWarning(error: unknown, ms: number): MemoryWarning {
  if (error instanceof DeadlineError) {
    return {
      code: 'embed_slow',
      message: `The query could not be embedded within ${ms} ms; full-text results only.`,
      ms
    }
  }
  const reason = error instanceof Error ? error.message : String(error)
  return {
    code: 'embed_failed',
    message: `The query could not be embedded (${reason}); full-text results only.`,
    reason
  }
}

/**
 * How deep the conversation's vector list is read: a quarter of the input's (its weight in the
 * fusion), at least CANDIDATES_PER_LIST. Its deep ranks score under a quarter of a text rank of
 * the same depth, so reading them cost re-scoring (issue #16) and found little.
 */
function contextDepth(perList: number): number {
  return Math.max(CANDIDATES_PER_LIST, Math.ceil(perList * CONTEXT_WEIGHT))
}

/**
 * Words-only candidates of a gated search, best text rank first, at most each kind's cap: a
 * slow or missing model must not turn a focused request into every message that shares a
 * word with the question.
 */
function withinCaps(
  hits: MemorySearchHit[],
  kindOf: (hit: MemorySearchHit) => GateKind,
  calibration: GateCalibration
): MemorySearchHit[] {
  const taken = { memory: 0, thread: 0, message: 0 }
  return hits
    .sort((a, b) => b.score - a.score)
    .filter((hit) => taken[kindOf(hit)]++ < calibration[kindOf(hit)].cap)
}

/**
 * A message far enough over its own kind's gate (this thread's history, or other threads')
 * that the turns around it are worth sending too. This thread's hits once answered to other
 * threads' bar, so raising that bar in a running conversation took LoCoMo's neighbours with it
 * (docs/EVALUATION.md). (The gate decides what is sent; what passes is still ordered by the
 * fused ranks: ranking by relevance instead cost LoCoMo's single thread 0.06 of recall at
 * 4,000 tokens.)
 */
function isStrong(hit: MemorySearchHit, gate: number, calibration: GateCalibration): boolean {
  return hit.kind === 'message' && (hit.relevance ?? 0) >= gate + calibration.strongMargin
}

/**
 * The best hits that make `limit` items once each recalled message has brought its neighbour:
 * a message counts twice, a memory once. So a budget that holds 100 items asks for 50 messages
 * (and their replies) or 100 memories.
 */
function withinItems(hits: readonly MemorySearchHit[], limit: number): MemorySearchHit[] {
  const out: MemorySearchHit[] = []
  let items = 0
  for (const hit of hits) {
    items += hit.kind === 'message' ? 2 : 1
    if (items > limit) break
    out.push(hit)
  }
  return out
}

/**
 * Whether the text alone justifies returning an item: it holds every query term, or the
 * full-text list found it and it holds half of them or one strong term. A vector under the
 * floor neither helps nor vetoes.
 */
function textSupport(content: string, terms: readonly string[], candidate: Candidate): boolean {
  if (terms.length === 0) return false
  const share = matchedShare(content, terms)
  if (share === 1) return true
  if (candidate.textRank === undefined) return false
  return share >= TEXT_ONLY_MIN_SHARE || hasStrongTerm(content, terms)
}

function toHit(
  candidate: Candidate,
  content: string,
  similarity: number | null,
  matchedBy: MemorySearchHit['matchedBy'],
  memory: Memory | undefined,
  message: RecallMessage | undefined
): MemorySearchHit {
  return {
    kind: candidate.kind,
    ref: `${candidate.kind}:${candidate.id}`,
    id: candidate.id,
    content,
    // A list that does not support the item contributes nothing to its fused score.
    score: rrfScore(
      matchedBy.includes('vector')
        ? [
            { rank: candidate.vectorRank },
            { rank: candidate.contextRank, weight: CONTEXT_WEIGHT },
            { rank: candidate.textRank }
          ]
        : [{ rank: candidate.textRank }],
      2
    ),
    similarity,
    cosine: candidate.cosine,
    matchedBy,
    category: memory?.category ?? null,
    threadId: memory?.sourceThreadId ?? message?.threadId ?? null,
    threadTitle: message?.threadTitle ?? null,
    messageId: memory?.sourceMessageId ?? message?.id ?? null,
    seq: message?.seq ?? null,
    role: message?.role ?? null,
    createdAt: memory?.updatedAt ?? message?.createdAt ?? 0
  }
}
