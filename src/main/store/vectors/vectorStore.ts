import type Database from 'better-sqlite3'
import { yieldToEventLoop } from '@shared/eventLoop'
import { admittedFor, ADMITTED_PER_RESULT, signCode } from './hammingScan'
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
 * vec_distance_cosine. Memories are fewer: all their vectors are held in memory, a Hamming
 * scan admits candidates only in large stores, and their cosine is exact (MemoryVectorIndex);
 * vec0 stores them. A build's two query vectors are searched in one scan. (Point reads from a
 * vec0 table cost about 0.5 ms each, far too slow for re-scoring hundreds of candidates; a
 * plain table answers 400 of them in about 1 ms.)
 */

/** One query of a search that runs several at once. */
export interface VectorQuery {
  vector: Float32Array
  k: number
}

/** A row of nearestMessagesEach's read: the id, and `d0`, `d1`, … one distance per query. */
type DistanceRow = { id: number } & Record<string, number>

export interface VectorHit {
  id: number
  /** Cosine distance as sqlite-vec reports it: 1 − cosine. */
  distance: number
}

/**
 * Of the codes a message search admits (hammingScan.ts), how many get their exact cosine from
 * the table: the 8-bit stage's best k × this, at least MIN_EXACT. Its cosines are off by about
 * 0.001, so only items at the edge of the k best trade places; the margin takes them all (the
 * store test compares with exact ranking).
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
    perResult = ADMITTED_PER_RESULT
  ): VectorHit[] {
    return this.nearestMessagesEach(space, [{ vector: query, k }], threadId, perResult)[0] ?? []
  }

  /** nearestMessages for several queries at once: one scan of the codes, one read of the rows. */
  nearestMessagesEach(
    space: VectorSpace,
    queries: readonly VectorQuery[],
    threadId?: string,
    perResult = ADMITTED_PER_RESULT
  ): VectorHit[][] {
    for (const { vector } of queries) this.check(space, vector)
    const lists = this.cache.codeIndex(space).nearest(
      queries.map(({ vector, k }) => ({
        code: signCode(vector),
        vector,
        limit: admittedFor(k, perResult),
        keep: Math.max(MIN_EXACT, Math.ceil(k * EXACT_PER_RESULT))
      })),
      threadId
    )
    const ids = [...new Set(lists.flat())]
    if (ids.length === 0) return queries.map(() => [])
    // The ids come from our own index (numbers), so they are inlined rather than bound.
    const distances = queries.map((_, q) => `vec_distance_cosine(embedding, ?) AS d${q}`)
    const rows = this.db
      .prepare(
        `SELECT message_id AS id, ${distances.join(', ')}
           FROM ${tables(space).messages} WHERE message_id IN (${ids.join(',')})`
      )
      .all(...queries.map(({ vector }) => blob(vector))) as DistanceRow[]
    if (rows.length < ids.length) this.cache.invalidateCodes(space.id) // deleted rows
    const byId = new Map(rows.map((row) => [row.id, row]))
    return queries.map(({ k }, q) => {
      const hits: VectorHit[] = []
      for (const id of lists[q] as number[]) {
        const row = byId.get(id)
        if (row) hits.push({ id, distance: row[`d${q}`] as number })
      }
      return hits.sort((a, b) => a.distance - b.distance).slice(0, k)
    })
  }

  /** Loads the space's message codes in the background (VectorIndexCache.preload). */
  preload(
    space: VectorSpace,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    return this.cache.preload(space, (id) => this.spaces.active()?.id === id, yieldToEvents)
  }

  /** The k nearest memory vectors (exact cosine), optionally of some categories. */
  nearestMemories(
    space: VectorSpace,
    query: Float32Array,
    k: number,
    categories?: readonly string[]
  ): VectorHit[] {
    return this.nearestMemoriesEach(space, [{ vector: query, k }], categories)[0] ?? []
  }

  /** nearestMemories for several queries at once: one scan of the index. */
  nearestMemoriesEach(
    space: VectorSpace,
    queries: readonly VectorQuery[],
    categories?: readonly string[]
  ): VectorHit[][] {
    for (const { vector } of queries) this.check(space, vector)
    const index = this.cache.memoryIndex(space)
    const present = this.db.prepare(
      'SELECT id FROM memories WHERE id IN (SELECT value FROM json_each(?))'
    )
    for (;;) {
      const lists = index.nearest(queries, categories)
      const ids = [...new Set(lists.flatMap((hits) => hits.map((hit) => hit.id)))]
      const found = new Set(present.pluck().all(JSON.stringify(ids)) as number[])
      if (found.size === ids.length) return lists
      // Memories deleted since (a trigger removed their vectors): out of the index for good,
      // and the search runs again so that k still come back.
      index.remove(ids.filter((id) => !found.has(id)))
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
