import type {
  Memory,
  MemoryCategory,
  MemoryChange,
  MemoryListPage,
  MemoryOrigin,
  MemorySearchResult,
  MemoryStatus
} from '@shared/domain'
import { AppError } from '@shared/result'
import type { EmbeddingQueueRepository } from '../../store/embeddingQueueRepository'
import {
  contentHash,
  normalizeMemoryText,
  type MemoryRepository
} from '../../store/memoryRepository'
import type { RecallRepository } from '../../store/search/recallRepository'
import type { VectorStore } from '../../store/vectors/vectorStore'
import type { VectorSpace } from '../../store/vectors/vectorSpaces'
import { withDeadline } from '@shared/deadline'
import { HybridSearch, type MemorySearchOptions } from './hybridSearch'
import type { QueryRanker } from './queryRanker'
import type { ActiveModel, MemoryIndexer } from './memoryIndexer'
import { inProcessMessageSearch, type MessageSearch } from './messageSearch'

export type { MemorySearchOptions } from './hybridSearch'

export interface MemoryServiceDeps {
  memories: MemoryRepository
  recall: RecallRepository
  vectors: VectorStore
  /** Where the nearest messages are searched and their index loads (a worker in the app). */
  messageSearch?: MessageSearch
  /** Embeds queries with a deadline, cached per vector space (shared with files and tools). */
  ranker: QueryRanker
  queue: EmbeddingQueueRepository
  indexer: MemoryIndexer
  now: () => number
  log: (message: string, error: unknown) => void
  /** Tells the renderer a memory changed (the manager refreshes). */
  changed: (memoryId: number) => void
}

/** How long `create` waits for the new memory's vector to check for near-duplicates. */
const DEDUP_TIMEOUT_MS = 2_000
/** A warm-up text past the model's 512-token limit, in both scripts users write. */
const WARM_UP_LONG = 'We talked about the trip and the budget. 我们讨论了行程和预算。'.repeat(40)

interface Probe {
  vector: Float32Array
  space: VectorSpace
  near: { memory: Memory; cosine: number } | null
}

/**
 * Long-term memory: curated memories (create, dedup, edit, delete with undo, history) and
 * hybrid recall over memories and every stored message. Nothing leaves the machine: vectors
 * come from the local embedding worker and live in the same SQLite file as the messages.
 */
export class MemoryService {
  private readonly hybrid: HybridSearch
  private warming: Promise<void> = Promise.resolve()
  /** What a thread opened before any model was ready asked to prepare (`prepareConversation`). */
  private waitingConversation: string | null = null

  constructor(private readonly deps: MemoryServiceDeps) {
    this.hybrid = new HybridSearch(deps)
  }

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

  /** Hybrid recall over memories and messages (hybridSearch.ts). */
  search(query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    return this.hybrid.search(query, options)
  }

  /**
   * Embeds a conversation (the active task and the newest turns, recallQuery.ts) in the
   * background, so the search that reads the next input in it finds its vector cached and
   * embeds only the input (issue #21). A thread opened while the model still loads (the
   * last-open one at start-up) has it embedded by the warm-up, once the model is ready.
   */
  prepareConversation(context: string): void {
    const text = context.trim()
    if (!text) return
    if (this.deps.indexer.active()) this.prepareQuery(text)
    else this.waitingConversation = text
  }

  /**
   * Embeds a text a search will read as a query, in the background, into the query cache: the
   * search finds it there, or waits for this embedding instead of starting its own. Nothing to
   * do without a model: the search then reads full text only.
   */
  prepareQuery(query: string): void {
    const text = query.trim()
    const model = this.deps.indexer.active()
    if (!text || !model) return
    this.deps.ranker
      .embed(model, text)
      .catch((error: unknown) => this.deps.log('embedding a query ahead failed', error))
  }

  /**
   * Readies search for the model that just became active, in the background: the message code
   * index loads in slices, the model answers a short query and one as long as it reads (its
   * first run at a length costs a few hundred ms more than the next: ONNX Runtime sizes its
   * buffers then, and the conversation query of a first send is a few hundred tokens), the
   * conversation of a thread opened meanwhile is embedded, and one search runs.
   */
  warmUp(model: ActiveModel): Promise<void> {
    this.warming = (async () => {
      try {
        const messages = this.deps.messageSearch ?? inProcessMessageSearch(this.deps.vectors)
        await messages.preload(model.space)
        await this.deps.vectors.loadMemories(model.space)
        // Through the query cache, so the search below finds both and embeds neither again.
        await this.deps.ranker.embed(model, 'warm-up')
        await this.deps.ranker.embed(model, WARM_UP_LONG)
        const waiting = this.waitingConversation
        this.waitingConversation = null
        if (waiting) await this.deps.ranker.embed(model, waiting)
        // One search as a build makes it, so its code (compiled on first use: the 8-bit stage
        // ran 20 times slower on a first send) and statements are ready too.
        await this.hybrid.search('warm-up', { limit: 400, fillBudget: true, context: WARM_UP_LONG })
      } catch (error) {
        this.deps.log('warming up memory search failed; the first search will be slower', error)
      }
    })()
    return this.warming
  }

  /** Resolves once the newest warm-up is done (tests, the evaluator). */
  warmedUp(): Promise<void> {
    return this.warming
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
        reembedding: this.deps.vectors.retired().length > 0,
        ...this.deps.indexer.throughput(queued.messages + queued.memories)
      },
      warning: active ? null : this.hybrid.unavailableWarning()
    }
  }

  // ---- internals ----------------------------------------------------------------------------

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
        nearest && 1 - nearest.distance >= model.spec.duplicateCosine
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
