/**
 * The first stage of a hybrid search: the ranked lists it fuses. The query (and the
 * conversation around it) embedded with a deadline, their nearest memories and messages, the
 * full-text list, and every candidate's cosine with the query's vectors. What becomes a hit is
 * decided after, in hybridSearch.ts.
 */
import type { MemoryCategory } from '@shared/domain'
import type { MemoryWarning } from '@shared/context'
import { DeadlineError, withDeadline } from '@shared/deadline'
import type { MemoryRepository } from '../../store/memoryRepository'
import type { RecallRepository } from '../../store/search/recallRepository'
import { fullTextIds, type FullTextQuery } from '../../store/search/fullTextIds'
import { dotAt } from '../../store/vectors/dotProduct'
import type { VectorHit, VectorStore } from '../../store/vectors/vectorStore'
import type { VectorSpace } from '../../store/vectors/vectorSpaces'
import type { ActiveModel, MemoryIndexer } from './memoryIndexer'
import { quotedTerms, recallTerms } from './memoryRanking'
import { inProcessMessageSearch, type MessageSearch } from './messageSearch'
import type { QueryRanker } from './queryRanker'

/**
 * Candidates each ranked list contributes before fusion. An ungated search with a longer
 * `limit` (the sidebar's, the opt-in fill) reads as many from each list, so every returned hit
 * can come from either (the recall limit is at most 400, recallRequest.ts); a gated one reads
 * this many whatever its limit (docs/EVALUATION.md, "Lists read as deep as the gate needs").
 */
export const CANDIDATES_PER_LIST = 50
/**
 * The conversation's vector list counts a quarter as much as the query's own in the fusion:
 * enough to lift what an implicit question refers to (dev set: 0.872 → 0.929 at 1,500 tokens),
 * little enough that a self-contained question is not pulled toward the previous turn (at 0.5
 * LoCoMo's single thread lost 0.035 at 2,000 tokens; docs/EVALUATION.md).
 */
export const CONTEXT_WEIGHT = 0.25
/** What a hybrid search reads from. */
export interface SearchSources {
  memories: MemoryRepository
  recall: RecallRepository
  vectors: VectorStore
  indexer: MemoryIndexer
  /** Where the nearest messages are searched (a worker in the app); default this thread. */
  messageSearch?: MessageSearch
  /** Embeds queries with a deadline, cached per vector space (shared with files and tools). */
  ranker: QueryRanker
}

interface Embedded {
  vector: Float32Array | null
  error: unknown
}

export interface Candidate {
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

/** A query vector and the list it makes: 0 the input's, 1 the conversation's. */
interface VectorList {
  query: Float32Array
  list: 0 | 1
}

/** One search's query and where it looks. */
export interface CandidateQuery {
  text: string
  /** The conversation around it (recallQuery.ts), or null. */
  context: string | null
  model: ActiveModel | null
  timeoutMs: number
  /** Items each list reads. */
  perList: number
  kinds: ReadonlySet<string>
  threadFilter: string | undefined
  categories: readonly MemoryCategory[] | undefined
}

export interface GatheredCandidates {
  candidates: Candidate[]
  /** The query's full-text terms (memoryRanking.ts). */
  terms: string[]
  /** The query's vector; null when the search is full text only. */
  vector: Float32Array | null
  warnings: MemoryWarning[]
  timings: { embedMs: number; contextEmbedMs: number; textMs: number; vectorMs: number }
}

export async function gatherCandidates(
  deps: SearchSources,
  { text, context, model, timeoutMs, perList, kinds, threadFilter, categories }: CandidateQuery
): Promise<GatheredCandidates> {
  const warnings: MemoryWarning[] = []
  // The embedding worker embeds the query, then the conversation, while this thread reads
  // the full-text list and then the query's vector lists (issue #16). Apart, not as one
  // batch: a batch pads the short query to the conversation's length, and the query's lists
  // wait only for the query.
  const embedStarted = performance.now()
  const timings = { embedMs: 0, contextEmbedMs: 0, textMs: 0, vectorMs: 0 }
  const embed = (input: string, done: (ms: number) => void): Promise<Embedded> | null =>
    model
      ? deps.ranker
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
    model && deps.indexer.active()?.space.id === model.space.id ? model.space : null

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
  // The nearest messages come from the search worker while this thread finds the nearest
  // memories (and, when the query's vector is at hand, reads the full-text list). Lists
  // asked for together share one scan of each index (issue #21).
  const messageSearch = deps.messageSearch ?? inProcessMessageSearch(deps.vectors)
  // The lists run at once: their wall time, from the first one's start to the last one's end.
  let vectorsStarted: number | null = null
  const vectorLists = async (space: VectorSpace, lists: readonly VectorList[]) => {
    vectorsStarted ??= performance.now()
    const queries = lists.map(({ query, list }) => ({
      vector: query,
      k: list === 0 ? perList : contextDepth(perList)
    }))
    const none = (): VectorHit[][] => queries.map(() => [])
    const messages = kinds.has('message')
      ? messageSearch.nearest(space, queries, threadFilter)
      : Promise.resolve(none())
    const memories = kinds.has('memory')
      ? deps.vectors.nearestMemoriesEach(space, queries, categories)
      : none()
    const messageLists = await messages
    timings.vectorMs = performance.now() - (vectorsStarted as number)
    return () =>
      lists.forEach(({ list }, q) => {
        const hits = [
          ...(memories[q] ?? []).map((hit) => ({ kind: 'memory' as const, hit })),
          ...(messageLists[q] ?? []).map((hit) => ({ kind: 'message' as const, hit }))
        ]
        hits.sort((a, b) => a.hit.distance - b.hit.distance)
        hits.forEach(({ kind, hit }, index) => {
          const candidate = upsert(kind, hit.id)
          candidate.cosine = Math.max(candidate.cosine ?? -1, 1 - hit.distance)
          if (list === 0) {
            candidate.vectorRank = index + 1
            candidate.inputCosine = 1 - hit.distance
          } else candidate.contextRank = index + 1
        })
      })
  }
  // The input's lists, with the conversation's when its vector is at hand (embedded ahead).
  const inputLists = (space: VectorSpace, input: Float32Array) => {
    const conversation = model && context ? deps.ranker.cached(model, context) : null
    const blended = conversation ? blendQueries(input, conversation) : null
    const lists: VectorList[] = [{ query: input, list: 0 }]
    if (blended) lists.push({ query: blended, list: 1 })
    return { blended, lists: vectorLists(space, lists) }
  }

  const cached = model ? deps.ranker.cached(model, text) : null
  const early = cached && current() ? inputLists(current() as VectorSpace, cached) : null
  // Awaited below unless the model changes meanwhile; a failure then is nobody's to report.
  early?.lists.catch(() => undefined)
  const terms = recallTerms(text)
  const textStarted = performance.now()
  const textList = withDeadline(
    fullTextList(deps, messageSearch, terms, perList, kinds, threadFilter),
    timeoutMs * 0.8
  )
    .catch((error: unknown) => {
      warnings.push(textWarning(error, Math.round(timeoutMs * 0.8)))
      return []
    })
    .finally(() => (timings.textMs = performance.now() - textStarted))

  let vector: Float32Array | null = null
  if (model && queryEmbedding) {
    const { vector: embedded, error } = await queryEmbedding
    vector = embedded
    if (error) warnings.push(embedWarning(error, Math.round(timeoutMs * 0.8)))
  } else {
    warnings.push(unavailableWarning(deps.indexer))
  }
  const space = vector ? current() : null
  if (!space) vector = null

  const queryVectors: Float32Array[] = []
  if (space && vector) {
    queryVectors.push(vector)
    const first = early ?? inputLists(space, vector)
    // A conversation still being embedded (a thread just opened) gets its lists when its
    // vector comes; one that came too late (or not at all) only leaves its list out: the
    // input's own lists are there, so the result is still hybrid and says so.
    let later: { blended: Float32Array; lists: ReturnType<typeof vectorLists> } | null = null
    if (!first.blended && contextEmbedding) {
      const conversation = (await contextEmbedding).vector
      if (conversation && current()?.id === space.id) {
        const blended = blendQueries(vector, conversation)
        later = { blended, lists: vectorLists(space, [{ query: blended, list: 1 }]) }
      }
    }
    // Awaited below unless the input's list fails first; then its failure is the one reported.
    later?.lists.catch(() => undefined)
    ;(await first.lists)()
    if (first.blended) queryVectors.push(first.blended)
    if (later) {
      queryVectors.push(later.blended)
      ;(await later.lists)()
    }
  }

  ;(await textList).forEach(({ kind, id }, index) => {
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
      const stored = deps.vectors.vectors(
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

  return { candidates: [...candidates.values()], terms, vector, warnings, timings }
}

/**
 * How much of the input the conversation's vector takes in (`blendQueries`). The input has
 * its own list; the conversation's list is the conversation nudged toward it. Picked on the dev
 * set and LoCoMo (docs/EVALUATION.md, "The conversation embedded ahead"): at 1 (the plain mean)
 * the dev set sends 14 % more recalled tokens at the default budget and LoCoMo's recall@5 falls
 * 0.336 → 0.304; at 0 it loses 0.02 of the dev set's recall.
 */
export const INPUT_IN_CONVERSATION = 0.1

/**
 * The input read in its conversation: the conversation's unit vector plus a tenth of the
 * input's, normalised. It stands for embedding the two as one text, which the search did
 * before issue #21, and needs only the input embedded on send: the conversation's vector was
 * made when the last reply ended or the thread opened (ContextBuildService.prepareRecall).
 */
export function blendQueries(input: Float32Array, conversation: Float32Array): Float32Array {
  const blended = new Float32Array(input.length)
  let norm = 0
  for (let i = 0; i < input.length; i++) {
    const sum = INPUT_IN_CONVERSATION * (input[i] as number) + (conversation[i] as number)
    blended[i] = sum
    norm += sum * sum
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < blended.length; i++) blended[i] = (blended[i] as number) * scale
  return blended
}

/**
 * Full-text list: the best of both indexes (store/search/fullTextTopK.ts), interleaved by rank.
 * Read in a worker of its own in the app (SearchWorkers), so a query that runs long holds up
 * neither the main thread nor, past its deadline, the build.
 */
async function fullTextList(
  deps: SearchSources,
  messageSearch: MessageSearch,
  terms: readonly string[],
  perList: number,
  kinds: ReadonlySet<string>,
  threadFilter: string | undefined
): Promise<{ kind: Candidate['kind']; id: number }[]> {
  if (terms.length === 0) return []
  const query: FullTextQuery = {
    terms: quotedTerms(terms),
    limit: perList,
    kinds: (['memory', 'message'] as const).filter((kind) => kinds.has(kind)),
    ...(threadFilter !== undefined && { threadId: threadFilter })
  }
  const ids = await messageSearch.fullText(query, () =>
    fullTextIds(deps.memories, deps.recall, query)
  )
  const interleaved: { kind: Candidate['kind']; id: number }[] = []
  for (let i = 0; i < Math.max(ids.memory.length, ids.message.length); i++) {
    if (i < ids.memory.length) interleaved.push({ kind: 'memory', id: ids.memory[i] as number })
    if (i < ids.message.length) interleaved.push({ kind: 'message', id: ids.message[i] as number })
  }
  return interleaved
}

/** Why search is full text only right now (the inspector and the memory manager say it). */
export function unavailableWarning(indexer: MemoryIndexer): MemoryWarning {
  const status = indexer.embedder()?.status()
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

/** The warning a build shows when the full-text lists did not come: by meaning only. */
function textWarning(error: unknown, ms: number): MemoryWarning {
  if (error instanceof DeadlineError) {
    return {
      code: 'text_slow',
      message: `Full-text search did not finish within ${ms} ms; results by meaning only.`,
      ms
    }
  }
  const reason = error instanceof Error ? error.message : String(error)
  return {
    code: 'text_failed',
    message: `Full-text search failed (${reason}); results by meaning only.`,
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
