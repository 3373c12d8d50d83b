import type Database from 'better-sqlite3'
import { yieldToEventLoop } from '@shared/eventLoop'
import { blob, floats } from './vectorBlobs'
import { VectorIndexCache, type IndexedVector } from './vectorIndexCache'
import { tables, VectorSpaces, type VectorSpace } from './vectorSpaces'

/**
 * Reads and writes the vectors of the spaces `VectorSpaces` keeps (schema and tables there),
 * searching through the in-memory copies `VectorIndexCache` keeps in step with every write.
 *
 * Messages can number in the hundreds of thousands, so their search is staged: a Hamming
 * scan of binary codes in memory, an approximate cosine from 8-bit copies of the candidates'
 * vectors (both in MessageCodeIndex), then the exact cosine of the best few with sqlite-vec's
 * vec_distance_cosine. Memories are few: all their vectors are held in memory and searched
 * exactly in one pass (MemoryVectorIndex); vec0 stores them. (Point reads from a vec0 table
 * cost about 0.5 ms each, far too slow for re-scoring hundreds of candidates; a plain table
 * answers 400 of them in about 1 ms.)
 */

export interface VectorHit {
  id: number
  /** Cosine distance as sqlite-vec reports it: 1 − cosine. */
  distance: number
}

/**
 * Candidates re-scored per message search: at least this many, and this many per result, so
 * re-scoring grows with what the build can hold (issue #16: a list of 100 re-scored 4,000).
 * Measured on 100,000 clustered 512-d vectors: 400 candidates give recall@10 of 1.00 against
 * exact search (200 give 0.90); deeper lists need fewer per result (docs/MEMORY.md).
 */
const MIN_CANDIDATES = 400
const CANDIDATES_PER_RESULT = 20
/**
 * Re-scoring more codes than this costs more than it finds: k = 200 already re-scores 4,000,
 * and recall asks for up to 400 (what lies past the first 100 is filler for large budgets).
 */
const MAX_CANDIDATES = 4_000
/**
 * Of those, how many get their exact cosine from the table: the 8-bit stage's best k × this,
 * at least MIN_EXACT. Its cosines are off by about 0.001, so only items at the edge of the k
 * best trade places; the margin takes them all (the store test compares with exact ranking).
 */
const EXACT_PER_RESULT = 1.5
const MIN_EXACT = 100

export class VectorStore {
  private readonly cache: VectorIndexCache
  private readonly spaces: VectorSpaces

  /** Told what putMessages wrote, when another thread holds the code index (a worker). */
  private forward: ((spaceId: number, rows: IndexedVector[]) => void) | null = null

  constructor(private readonly db: Database.Database) {
    this.cache = new VectorIndexCache(db)
    this.spaces = new VectorSpaces(db, (spaceId) => this.cache.forget(spaceId))
  }

  /** Sends every message vector written from now on to `listener` (the worker's index). */
  forwardIndexedTo(listener: (spaceId: number, rows: IndexedVector[]) => void): void {
    this.forward = listener
  }

  active(): VectorSpace | undefined {
    return this.spaces.active()
  }

  retired(): VectorSpace[] {
    return this.spaces.retired()
  }

  activate(...args: Parameters<VectorSpaces['activate']>): ReturnType<VectorSpaces['activate']> {
    return this.spaces.activate(...args)
  }

  dropRetired(): number {
    return this.spaces.dropRetired()
  }

  counts(space: VectorSpace): { messages: number; memories: number } {
    return this.spaces.counts(space)
  }

  /**
   * Writes vectors for messages that still exist (a message deleted while its batch was in the
   * worker is skipped) and removes them from the queue, in one transaction.
   */
  putMessages(space: VectorSpace, rows: readonly { id: number; vector: Float32Array }[]): number {
    const t = tables(space)
    const remove = this.db.prepare(`DELETE FROM ${t.messages} WHERE message_id = ?`)
    const insert = this.db.prepare(
      `INSERT INTO ${t.messages} (message_id, thread_id, embedding, code)
       SELECT id, thread_id, @vector, vec_quantize_binary(@vector) FROM messages WHERE id = @id
       RETURNING thread_id, code`
    )
    const dequeue = this.db.prepare(
      "DELETE FROM embedding_queue WHERE kind = 'message' AND item_id = ?"
    )
    const written = this.db.transaction(() => {
      const stored: IndexedVector[] = []
      for (const row of rows) {
        this.check(space, row.vector)
        remove.run(BigInt(row.id))
        const added = insert.get({ vector: blob(row.vector), id: row.id }) as
          { thread_id: string; code: Buffer } | undefined
        if (added) {
          stored.push({
            id: row.id,
            threadId: added.thread_id,
            code: added.code,
            vector: row.vector
          })
        }
        dequeue.run(row.id)
      }
      return stored
    })()
    // After the commit, so the in-memory index never holds a code the table rolled back.
    this.cache.indexMessages(space.id, written)
    this.forward?.(space.id, written)
    return written.length
  }

  putMemories(space: VectorSpace, rows: readonly { id: number; vector: Float32Array }[]): number {
    const t = tables(space)
    const remove = this.db.prepare(`DELETE FROM ${t.memories} WHERE memory_id = ?`)
    const category = this.db.prepare('SELECT category FROM memories WHERE id = ?').pluck()
    const insert = this.db.prepare(
      `INSERT INTO ${t.memories} (memory_id, embedding, category) VALUES (?, ?, ?)`
    )
    const dequeue = this.db.prepare(
      "DELETE FROM embedding_queue WHERE kind = 'memory' AND item_id = ?"
    )
    const written = this.db.transaction(() => {
      const stored: { id: number; vector: Float32Array; category: string }[] = []
      for (const row of rows) {
        this.check(space, row.vector)
        remove.run(BigInt(row.id))
        const current = category.get(row.id) as string | undefined
        if (current !== undefined) {
          insert.run(BigInt(row.id), blob(row.vector), current)
          stored.push({ id: row.id, vector: row.vector, category: current })
        }
        dequeue.run(row.id)
      }
      return stored
    })()
    // After the commit, as for messages.
    this.cache.indexMemories(space.id, written)
    return written.length
  }

  /** Keeps the category filter of memory KNN in step with an edited memory. */
  setMemoryCategory(memoryId: number, category: string): void {
    for (const space of [this.spaces.active(), ...this.spaces.retired()]) {
      if (!space) continue
      this.db
        .prepare(`UPDATE ${tables(space).memories} SET category = ? WHERE memory_id = ?`)
        .run(category, BigInt(memoryId))
      this.cache.setMemoryCategory(space.id, memoryId, category)
    }
  }

  /** Adds message vectors committed elsewhere (by main, seen from a worker) to the index. */
  indexMessages(spaceId: number, rows: readonly IndexedVector[]): void {
    this.cache.indexMessages(spaceId, rows)
  }

  /**
   * The k nearest message vectors (cosine), optionally within one thread: Hamming candidates
   * from the in-memory codes, ranked by their 8-bit vectors, the best re-scored exactly. Exact
   * whenever the candidates cover every eligible message (small threads, small stores).
   */
  nearestMessages(
    space: VectorSpace,
    query: Float32Array,
    k: number,
    threadId?: string,
    /** Codes re-scored per result (the benchmark measures the old 40 beside today's). */
    perResult = CANDIDATES_PER_RESULT
  ): VectorHit[] {
    this.check(space, query)
    const t = tables(space)
    const queryBlob = blob(query)
    const code = this.db.prepare('SELECT vec_quantize_binary(?)').pluck().get(queryBlob) as Buffer
    const limit = Math.max(MIN_CANDIDATES, Math.min(MAX_CANDIDATES, k * perResult))
    const keep = Math.max(MIN_EXACT, Math.ceil(k * EXACT_PER_RESULT))
    const ids = this.cache.codeIndex(space).nearest(code, query, limit, keep, { threadId })
    if (ids.length === 0) return []
    // The ids come from our own index (numbers), so they are inlined rather than bound.
    const rows = this.db
      .prepare(
        `SELECT message_id AS id, vec_distance_cosine(embedding, ?) AS distance
           FROM ${t.messages} WHERE message_id IN (${ids.join(',')})`
      )
      .all(queryBlob) as VectorHit[]
    if (rows.length < ids.length) this.cache.invalidateCodes(space.id) // deleted rows
    return rows.sort((a, b) => a.distance - b.distance).slice(0, k)
  }

  /** Loads the space's message codes in the background (VectorIndexCache.preload). */
  preload(
    space: VectorSpace,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    return this.cache.preload(space, (id) => this.spaces.active()?.id === id, yieldToEvents)
  }

  /** The k nearest memory vectors (cosine, exact), optionally of some categories. */
  nearestMemories(
    space: VectorSpace,
    query: Float32Array,
    k: number,
    categories?: readonly string[]
  ): VectorHit[] {
    this.check(space, query)
    const index = this.cache.memoryIndex(space)
    const present = this.db.prepare(
      'SELECT id FROM memories WHERE id IN (SELECT value FROM json_each(?))'
    )
    for (;;) {
      const hits = index.nearest(query, k, categories)
      const found = new Set(present.pluck().all(JSON.stringify(hits.map((h) => h.id))) as number[])
      if (found.size === hits.length) return hits
      // Memories deleted since (a trigger removed their vectors): out of the index for good,
      // and the search runs again so that k still come back.
      index.remove(hits.filter((h) => !found.has(h.id)).map((h) => h.id))
    }
  }

  /** Loads the space's memory vectors in the background (VectorIndexCache.loadMemories). */
  loadMemories(
    space: VectorSpace,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    return this.cache.loadMemories(space, yieldToEvents)
  }

  /** Stored vectors by id, to score full-text hits the KNN did not return. */
  vectors(
    space: VectorSpace,
    kind: 'message' | 'memory',
    ids: readonly number[]
  ): Map<number, Float32Array> {
    if (ids.length === 0) return new Map()
    const t = tables(space)
    const [table, column] =
      kind === 'message' ? [t.messages, 'message_id'] : [t.memories, 'memory_id']
    const rows = this.db
      .prepare(
        `SELECT ${column} AS id, embedding FROM ${table} WHERE ${column} IN (${ids.map(() => '?').join(',')})`
      )
      .all(...ids.map((id) => BigInt(id))) as { id: number; embedding: Buffer }[]
    return new Map(rows.map((row) => [row.id, floats(row.embedding)]))
  }

  private check(space: VectorSpace, vector: Float32Array): void {
    if (vector.length !== space.dimension) {
      throw new Error(
        `A ${vector.length}-dimensional vector cannot go into the ${space.dimension}-dimensional space of ${space.modelId}.`
      )
    }
  }
}
