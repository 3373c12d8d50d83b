import type {
  Memory,
  MemoryCategory,
  MemoryChange,
  MemoryListPage,
  MemoryOrigin,
  MemorySearchHit,
  MemorySearchResult,
  MemorySearchScope,
  MemoryStatus
} from '@shared/domain'
import { AppError } from '@shared/result'
import type { EmbeddingQueueRepository } from '../store/embeddingQueueRepository'
import { contentHash, normalizeMemoryText, type MemoryRepository } from '../store/memoryRepository'
import {
  RECALLED_ROLES,
  type RecallMessage,
  type RecallRepository
} from '../store/recallRepository'
import type { VectorHit, VectorSpace, VectorStore } from '../store/vectorStore'
import { calibratedSimilarity } from '../workers/embeddingModels'
import type { ActiveModel, MemoryIndexer } from './memoryIndexer'
import { hasStrongTerm, matchedShare, orExpression, recallTerms, rrfScore } from './memoryRanking'

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
}

export interface MemoryServiceDeps {
  memories: MemoryRepository
  recall: RecallRepository
  vectors: VectorStore
  queue: EmbeddingQueueRepository
  indexer: MemoryIndexer
  now: () => number
  log: (message: string, error: unknown) => void
  /** Tells the renderer a memory changed (the manager refreshes). */
  changed: (memoryId: number) => void
}

export const DEFAULT_MIN_SIMILARITY = 0.6
/** Raw cosine from which a new memory is taken to restate an existing one. */
export const DUPLICATE_COSINE = 0.92
const DEFAULT_LIMIT = 10
const DEFAULT_TIMEOUT_MS = 500
/** How long `create` waits for the new memory's vector to check for near-duplicates. */
const DEDUP_TIMEOUT_MS = 2_000
/** Candidates each ranked list contributes before fusion. */
const CANDIDATES_PER_LIST = 50
/**
 * Without a vector, a full-text hit needs this share of the query's terms, or one strong term
 * (a Chinese trigram or a word of 4+ letters): three-letter words alone are too common.
 */
const TEXT_ONLY_MIN_SHARE = 0.5
const QUERY_CACHE_SIZE = 64

class DeadlineError extends Error {}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError()), Math.max(0, ms))
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}

interface Probe {
  vector: Float32Array
  space: VectorSpace
  near: { memory: Memory; cosine: number } | null
}

interface Candidate {
  kind: 'memory' | 'message'
  id: number
  cosine: number | null
  vectorRank?: number
  textRank?: number
}

/**
 * Long-term memory: curated memories (create, dedup, edit, delete with undo, history) and
 * hybrid recall over memories and every stored message. Nothing leaves the machine: vectors
 * come from the local embedding worker and live in the same SQLite file as the messages.
 */
export class MemoryService {
  private readonly queryCache = new Map<string, Float32Array>()

  constructor(private readonly deps: MemoryServiceDeps) {}

  // ---- making memories ----------------------------------------------------------------------

  /**
   * Same text (by content hash) updates the existing memory instead of inserting; so does a
   * near-duplicate (cosine >= 0.92) when the model is loaded. Every change is in the history.
   */
  async create(input: {
    content: string
    category?: MemoryCategory
    sourceThreadId?: string | null
    sourceMessageId?: number | null
    reason?: string
  }): Promise<MemoryChange> {
    const content = normalizeMemoryText(input.content)
    if (!content) throw new AppError('invalid_input', 'A memory cannot be empty.')
    const category = input.category ?? 'other'
    const now = this.deps.now()

    const same = this.deps.memories.findByHash(contentHash(content))
    if (same) {
      if (same.category === category && same.content === content) {
        return { memory: same, action: 'unchanged', dedup: 'hash', similarity: null }
      }
      const updated = this.deps.memories.update(same.id, { content, category }, now, 'dedup_hash')
      this.afterWrite(same.id, category)
      return { memory: updated as Memory, action: 'updated', dedup: 'hash', similarity: null }
    }

    const probe = await this.probe(content)
    if (probe?.near) {
      const updated = this.deps.memories.update(
        probe.near.memory.id,
        { content, category },
        this.deps.now(),
        'dedup_similar'
      )
      if (!updated) throw new AppError('not_found', 'The memory changed while saving; try again.')
      this.storeVector(probe, updated.id)
      this.afterWrite(updated.id, category)
      return { memory: updated, action: 'updated', dedup: 'similar', similarity: probe.near.cosine }
    }

    const memory = this.deps.memories.insert({
      content,
      category,
      sourceThreadId: input.sourceThreadId ?? null,
      sourceMessageId: input.sourceMessageId ?? null,
      now: this.deps.now(),
      reason: input.reason ?? 'explicit'
    })
    this.storeVector(probe, memory.id)
    this.afterWrite(memory.id)
    return { memory, action: 'created', dedup: null, similarity: null }
  }

  /** "Remember this" on a message: its text becomes a memory that links back to it. */
  async rememberMessage(messageId: number, category?: MemoryCategory): Promise<MemoryChange> {
    return this.createFromMessage(messageId, { category })
  }

  /** A memory made from (part of) a message, linked to it; the text defaults to the message's. */
  async createFromMessage(
    messageId: number,
    input: { content?: string; category?: MemoryCategory }
  ): Promise<MemoryChange> {
    const message = this.deps.recall.messages([messageId]).get(messageId)
    if (!message) throw new AppError('not_found', 'This message no longer exists.')
    return this.create({
      content: input.content ?? message.content,
      category: input.category ?? (message.role === 'user' ? 'user_preference' : 'fact'),
      sourceThreadId: message.threadId,
      sourceMessageId: message.id,
      reason: 'remember_message'
    })
  }

  update(id: number, change: { content?: string; category?: MemoryCategory }): Memory {
    const content = change.content === undefined ? undefined : normalizeMemoryText(change.content)
    if (content === '') throw new AppError('invalid_input', 'A memory cannot be empty.')
    if (content !== undefined) {
      const other = this.deps.memories.findByHash(contentHash(content))
      if (other && other.id !== id) {
        throw new AppError('invalid_input', `Memory ${other.id} already says this.`)
      }
    }
    const memory = this.deps.memories.update(
      id,
      { content, category: change.category },
      this.deps.now(),
      'edit'
    )
    if (!memory) throw new AppError('not_found', 'This memory no longer exists.')
    this.afterWrite(id, change.category)
    return memory
  }

  /** The history keeps the deleted memory; `restore(id)` is the undo. */
  delete(id: number): { deleted: true; id: number } {
    const memory = this.deps.memories.delete(id, this.deps.now(), 'user_delete')
    if (!memory) throw new AppError('not_found', 'This memory no longer exists.')
    this.deps.changed(id)
    return { deleted: true, id }
  }

  restore(id: number): Memory {
    if (this.deps.memories.get(id)) return this.deps.memories.get(id) as Memory
    const history = this.deps.memories.history(id)
    const last = history.at(-1)
    if (!last || last.action !== 'delete') {
      throw new AppError('not_found', 'There is no deleted memory to restore.')
    }
    const clash = this.deps.memories.findByHash(contentHash(last.content))
    if (clash) {
      throw new AppError(
        'invalid_input',
        `Memory ${clash.id} already says this; nothing to restore.`
      )
    }
    const memory = this.deps.memories.restore(id, this.deps.now())
    if (!memory) throw new AppError('not_found', 'There is no deleted memory to restore.')
    this.afterWrite(id)
    return memory
  }

  list(filter: {
    category?: MemoryCategory
    query?: string
    limit?: number
    offset?: number
  }): MemoryListPage {
    return this.deps.memories.list({
      category: filter.category,
      text: filter.query,
      limit: filter.limit ?? 100,
      offset: filter.offset ?? 0
    })
  }

  origin(id: number): MemoryOrigin {
    const memory = this.deps.memories.get(id)
    const history = this.deps.memories.history(id)
    if (!memory) {
      const last = history.at(-1)
      if (!last) throw new AppError('not_found', 'This memory does not exist.')
      throw new AppError('not_found', 'This memory was deleted; restore it to see its origin.')
    }
    return { memory, source: this.deps.memories.sourceMessage(memory), history }
  }

  // ---- recall -------------------------------------------------------------------------------

  /**
   * Hybrid recall: exact KNN over the active vector space and BM25 over the trigram FTS
   * indexes, fused by reciprocal rank. Items with a vector must reach `minSimilarity`
   * (calibrated), unless every query term occurs in them; items not embedded yet compete on
   * full text alone. Without a model, or when the query cannot be embedded in time, the result
   * is full text only and says so.
   */
  async search(query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    const started = performance.now()
    const limit = options.limit ?? DEFAULT_LIMIT
    const minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const kinds = new Set(options.kinds ?? ['memory', 'message'])
    const threadFilter = options.scope === 'thread' ? options.threadId : undefined
    if (options.scope === 'thread' && !options.threadId) {
      throw new AppError('invalid_input', 'A thread-scoped search needs the thread.')
    }
    const exclude = new Set(options.excludeMessageIds ?? [])
    const warnings: string[] = []
    const text = query.trim()
    if (!text) return { hits: [], mode: 'text_only', warnings, tookMs: 0 }

    const model = this.deps.indexer.active()
    let vector: Float32Array | null = null
    if (model) {
      try {
        vector = await withDeadline(this.embedQuery(model, text), timeoutMs * 0.8)
      } catch (error) {
        warnings.push(
          error instanceof DeadlineError
            ? `The query could not be embedded within ${Math.round(timeoutMs * 0.8)} ms; full-text results only.`
            : `The query could not be embedded (${error instanceof Error ? error.message : String(error)}); full-text results only.`
        )
      }
    } else {
      warnings.push(this.unavailableWarning())
    }
    // The model may have been replaced while the query was embedded: never mix spaces.
    const space =
      vector && model && this.deps.indexer.active()?.space.id === model.space.id
        ? model.space
        : null
    if (!space) vector = null

    const candidates = new Map<string, Candidate>()
    const upsert = (kind: Candidate['kind'], id: number): Candidate => {
      const key = `${kind}:${id}`
      let candidate = candidates.get(key)
      if (!candidate) {
        candidate = { kind, id, cosine: null }
        candidates.set(key, candidate)
      }
      return candidate
    }

    // Vector list: memories and messages share one space, so their cosines rank together.
    if (vector && space) {
      const hits: { kind: Candidate['kind']; hit: VectorHit }[] = []
      if (kinds.has('memory')) {
        for (const hit of this.deps.vectors.nearestMemories(
          space,
          vector,
          CANDIDATES_PER_LIST,
          options.categories
        )) {
          hits.push({ kind: 'memory', hit })
        }
      }
      if (kinds.has('message')) {
        const k = CANDIDATES_PER_LIST + exclude.size
        for (const hit of this.deps.vectors.nearestMessages(
          space,
          vector,
          Math.min(k, 4096),
          threadFilter
        )) {
          hits.push({ kind: 'message', hit })
        }
      }
      hits.sort((a, b) => a.hit.distance - b.hit.distance)
      hits.forEach(({ kind, hit }, index) => {
        const candidate = upsert(kind, hit.id)
        candidate.cosine = 1 - hit.distance
        candidate.vectorRank = index + 1
      })
    }

    // Full-text list: BM25 of both indexes, interleaved by rank.
    const terms = recallTerms(text)
    if (terms.length > 0) {
      const match = orExpression(terms)
      const memoryIds = kinds.has('memory')
        ? this.deps.memories.ftsSearch(match, CANDIDATES_PER_LIST)
        : []
      const messageIds = kinds.has('message')
        ? this.deps.recall.ftsMessages(match, CANDIDATES_PER_LIST + exclude.size, threadFilter)
        : []
      const interleaved: { kind: Candidate['kind']; id: number }[] = []
      for (let i = 0; i < Math.max(memoryIds.length, messageIds.length); i++) {
        if (i < memoryIds.length) interleaved.push({ kind: 'memory', id: memoryIds[i] as number })
        if (i < messageIds.length)
          interleaved.push({ kind: 'message', id: messageIds[i] as number })
      }
      interleaved.forEach(({ kind, id }, index) => {
        upsert(kind, id).textRank = index + 1
      })
    }

    // Full-text hits the KNN did not return: score them against their stored vector, if any.
    if (vector && space) {
      for (const kind of ['memory', 'message'] as const) {
        const missing = [...candidates.values()].filter((c) => c.kind === kind && c.cosine === null)
        const stored = this.deps.vectors.vectors(
          space,
          kind,
          missing.map((c) => c.id)
        )
        for (const candidate of missing) {
          const v = stored.get(candidate.id)
          if (v) candidate.cosine = dot(vector, v)
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
    for (const candidate of all) {
      const similarity =
        candidate.cosine === null ? null : calibratedSimilarity(candidate.cosine, related)
      const memory = candidate.kind === 'memory' ? memories.get(candidate.id) : undefined
      const message = candidate.kind === 'message' ? messages.get(candidate.id) : undefined
      const content = memory?.content ?? message?.content
      if (content === undefined) continue
      if (memory && categories && !categories.has(memory.category)) continue
      if (message && !this.recallable(message, exclude, threadFilter)) continue
      const share = matchedShare(content, terms)
      const allTerms = terms.length > 0 && share === 1
      if (similarity !== null) {
        if (similarity < minSimilarity && !allTerms) continue
      } else if (share < TEXT_ONLY_MIN_SHARE && !hasStrongTerm(content, terms)) {
        continue
      }
      const matchedBy: MemorySearchHit['matchedBy'] = []
      if (candidate.vectorRank !== undefined && similarity !== null && similarity >= minSimilarity)
        matchedBy.push('vector')
      if (candidate.textRank !== undefined) matchedBy.push('text')
      hits.push({
        kind: candidate.kind,
        ref: `${candidate.kind}:${candidate.id}`,
        id: candidate.id,
        content,
        score: rrfScore(
          [matchedBy.includes('vector') ? candidate.vectorRank : undefined, candidate.textRank],
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
      })
    }

    hits.sort((a, b) => b.score - a.score || (b.similarity ?? 0) - (a.similarity ?? 0))
    // A message that a returned memory was made from adds nothing the memory does not say.
    const sources = new Set(
      hits.filter((h) => h.kind === 'memory' && h.messageId !== null).map((h) => h.messageId)
    )
    const unique = hits.filter((h) => h.kind === 'memory' || !sources.has(h.id))
    return {
      hits: unique.slice(0, limit),
      mode: vector ? 'hybrid' : 'text_only',
      warnings,
      tookMs: performance.now() - started
    }
  }

  // ---- status -------------------------------------------------------------------------------

  status(): MemoryStatus {
    const embedder = this.deps.indexer.embedder()
    const model = embedder?.status()
    const active = this.deps.indexer.active()
    const queued = this.deps.queue.counts()
    const totals = this.deps.recall.totals()
    const indexed = active ? this.deps.vectors.counts(active.space) : { messages: 0, memories: 0 }
    return {
      model: {
        state: model?.state ?? 'idle',
        id: model?.modelId ?? null,
        dimension: model?.dimension ?? null,
        progress: model?.progress ?? [],
        error: model?.error ?? null
      },
      index: {
        pendingMessages: queued.messages,
        pendingMemories: queued.memories,
        failed: queued.failed,
        indexedMessages: indexed.messages,
        indexedMemories: indexed.memories,
        totalMessages: totals.messages,
        totalMemories: totals.memories,
        reembedding: this.deps.vectors.retired().length > 0
      },
      warning: active ? null : this.unavailableWarning()
    }
  }

  // ---- internals ----------------------------------------------------------------------------

  private recallable(message: RecallMessage, exclude: Set<number>, threadId?: string): boolean {
    return (
      !message.excluded &&
      !exclude.has(message.id) &&
      RECALLED_ROLES.includes(message.role) &&
      (threadId === undefined || message.threadId === threadId)
    )
  }

  private unavailableWarning(): string {
    const status = this.deps.indexer.embedder()?.status()
    switch (status?.state) {
      case undefined:
      case 'idle':
        return 'No embedding model is configured; memory search uses full text only.'
      case 'loading':
        return 'The embedding model is still loading; memory search uses full text only.'
      case 'downloading':
        return 'The embedding model is being downloaded; memory search uses full text only.'
      case 'unavailable':
        return `The embedding model could not be loaded (${status.error ?? 'unknown error'}); memory search uses full text only.`
      case 'ready':
        return 'The embedding model is preparing its index; memory search uses full text only.'
    }
  }

  private async embedQuery(model: ActiveModel, text: string): Promise<Float32Array> {
    const key = `${model.space.key}\u0000${text}`
    const cached = this.queryCache.get(key)
    if (cached) return cached
    const [vector] = await model.embedder.embed([text], { priority: 'query' })
    if (!vector) throw new Error('the model returned no vector')
    this.queryCache.set(key, vector)
    if (this.queryCache.size > QUERY_CACHE_SIZE) {
      this.queryCache.delete(this.queryCache.keys().next().value as string)
    }
    return vector
  }

  /**
   * Embeds a new memory's text and finds the closest existing memory if it is a near-duplicate.
   * Null when no model is ready (then only the content hash deduplicates, and the indexer
   * embeds the memory later).
   */
  private async probe(content: string): Promise<Probe | null> {
    const model = this.deps.indexer.active()
    if (!model) return null
    try {
      const [vector] = await withDeadline(
        model.embedder.embed([content], { priority: 'query' }),
        DEDUP_TIMEOUT_MS
      )
      if (!vector || this.deps.indexer.active()?.space.id !== model.space.id) return null
      const [nearest] = this.deps.vectors.nearestMemories(model.space, vector, 1)
      const memory =
        nearest && 1 - nearest.distance >= DUPLICATE_COSINE
          ? this.deps.memories.get(nearest.id)
          : undefined
      return {
        vector,
        space: model.space,
        near: nearest && memory ? { memory, cosine: 1 - nearest.distance } : null
      }
    } catch (error) {
      this.deps.log('near-duplicate check skipped', error)
      return null
    }
  }

  /** The vector computed for the dedup check is the memory's vector: no second pass needed. */
  private storeVector(probe: Probe | null, memoryId: number): void {
    if (!probe || this.deps.indexer.active()?.space.id !== probe.space.id) return
    this.deps.vectors.putMemories(probe.space, [{ id: memoryId, vector: probe.vector }])
  }

  private afterWrite(memoryId: number, category?: MemoryCategory): void {
    if (category) this.deps.vectors.setMemoryCategory(memoryId, category)
    this.deps.indexer.wake()
    this.deps.changed(memoryId)
  }
}
