import type Database from 'better-sqlite3'
import { yieldToEventLoop } from '@shared/eventLoop'
import { MemoryVectorIndex } from './memoryVectorIndex'
import { MessageCodeIndex } from './messageCodeIndex'

/**
 * Vector tables, one pair per vector space. A space is one model with one pooling and one
 * dimension; vectors of different spaces are never compared. Searches read only the active
 * space; switching model makes a new active space, re-queues everything, and drops the old
 * space's tables once the new one is complete.
 *
 *   message_vectors_<space>(message_id PK, thread_id, embedding float32 BLOB, code BLOB)
 *   vec_memories_<space>(memory_id PK, embedding float[D] cosine, category metadata)  -- vec0
 *
 * Messages can number in the hundreds of thousands, so their search is staged: a Hamming
 * scan of binary codes in memory, an approximate cosine from 8-bit copies of the candidates'
 * vectors (both in MessageCodeIndex), then the exact cosine of the best few with sqlite-vec's
 * vec_distance_cosine. Memories are few: all their vectors are held in memory and searched
 * exactly in one pass (MemoryVectorIndex); vec0 stores them. (Point reads from a vec0 table
 * cost about 0.5 ms each, far too slow for re-scoring hundreds of candidates; a plain table
 * answers 400 of them in about 1 ms.)
 *
 * Triggers on `messages` and `memories` delete a row's vector with the row, so a deleted
 * thread's messages stop being recalled in the same transaction that deletes them.
 */

export interface VectorSpace {
  id: number
  key: string
  modelId: string
  dimension: number
  state: 'active' | 'retired'
}

interface SpaceRow {
  id: number
  key: string
  model_id: string
  dimension: number
  state: 'active' | 'retired'
}

const toSpace = (row: SpaceRow): VectorSpace => ({
  id: row.id,
  key: row.key,
  modelId: row.model_id,
  dimension: row.dimension,
  state: row.state
})

export interface VectorHit {
  id: number
  /** Cosine distance as sqlite-vec reports it: 1 − cosine. */
  distance: number
}

const blob = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

/** A stored float32 blob as a vector (copied: a blob's bytes need not be 4-byte aligned). */
const floats = (embedding: Buffer): Float32Array =>
  new Float32Array(
    embedding.buffer.slice(embedding.byteOffset, embedding.byteOffset + embedding.byteLength)
  )

/** A message vector as written: what a code index (here or in a worker) takes. */
export interface IndexedVector {
  id: number
  threadId: string
  code: Uint8Array
  vector: Float32Array
}

type IndexedMessage = Omit<IndexedVector, 'id'>

/** message_id, thread_id, code, embedding */
type IndexRow = [number, string, Buffer, Buffer]
/** memory_id, embedding, category */
type MemoryRow = [number, Buffer, string]

const tables = (space: { id: number }) => ({
  messages: `message_vectors_${space.id}`,
  memories: `vec_memories_${space.id}`
})

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
/** Rows read per slice when the code index loads in the background (about 5 ms each). */
const PRELOAD_SLICE = 5_000
/** Memory rows read per slice of their load (vec0 reads them slower: about 20 ms each). */
const MEMORY_SLICE = 1_000

export class VectorStore {
  /** Code indexes by space id, loaded on first search and kept in step by putMessages. */
  private readonly codeIndexes = new Map<number, MessageCodeIndex>()
  /** Memory vectors by space id, loaded at warm-up (or the first search), kept in step here. */
  private readonly memoryIndexes = new Map<number, MemoryVectorIndex>()
  /** Memory indexes loading in slices: kept in step by writes, like a finished one. */
  private readonly memoryLoads = new Map<number, MemoryVectorIndex>()
  /** Background loads in progress: codes written meanwhile wait here (newest wins). */
  private readonly preloads = new Map<number, Map<number, IndexedMessage>>()

  /** Told what putMessages wrote, when another thread holds the code index (a worker). */
  private forward: ((spaceId: number, rows: IndexedVector[]) => void) | null = null

  constructor(private readonly db: Database.Database) {}

  /** Sends every message vector written from now on to `listener` (the worker's index). */
  forwardIndexedTo(listener: (spaceId: number, rows: IndexedVector[]) => void): void {
    this.forward = listener
  }

  active(): VectorSpace | undefined {
    const row = this.db.prepare("SELECT * FROM vector_spaces WHERE state = 'active'").get() as
      SpaceRow | undefined
    return row && toSpace(row)
  }

  retired(): VectorSpace[] {
    const rows = this.db
      .prepare("SELECT * FROM vector_spaces WHERE state = 'retired'")
      .all() as SpaceRow[]
    return rows.map(toSpace)
  }

  /**
   * Makes the space for `key` the active one, creating its tables. When it replaces another
   * space, every message and memory is queued again: the old vectors stay (unused) until the
   * new space is complete, so nothing is ever compared across spaces.
   */
  activate(
    key: string,
    modelId: string,
    dimension: number,
    now: number
  ): { space: VectorSpace; switched: boolean } {
    return this.db.transaction(() => {
      const current = this.active()
      if (current?.key === key) return { space: current, switched: false }
      if (current) {
        this.db.prepare("UPDATE vector_spaces SET state = 'retired' WHERE id = ?").run(current.id)
      }
      // A retired space coming back may have missed edits made while it was retired: start over.
      const existing = this.db.prepare('SELECT * FROM vector_spaces WHERE key = ?').get(key) as
        SpaceRow | undefined
      if (existing) this.drop(toSpace(existing))
      const row = this.db
        .prepare(
          `INSERT INTO vector_spaces (key, model_id, dimension, state, created_at)
           VALUES (?, ?, ?, 'active', ?) RETURNING *`
        )
        .get(key, modelId, dimension, now) as SpaceRow
      const space = toSpace(row)
      this.createTables(space)
      // Anything without a vector in this space (all of it, for a new space) is queued.
      const t = tables(space)
      this.db
        .prepare(
          `INSERT OR IGNORE INTO embedding_queue (kind, item_id, enqueued_at)
           SELECT 'message', id, created_at FROM messages
            WHERE id NOT IN (SELECT message_id FROM ${t.messages})`
        )
        .run()
      this.db
        .prepare(
          `INSERT OR IGNORE INTO embedding_queue (kind, item_id, enqueued_at)
           SELECT 'memory', id, updated_at FROM memories
            WHERE id NOT IN (SELECT memory_id FROM ${t.memories})`
        )
        .run()
      return { space, switched: current !== undefined }
    })()
  }

  /** Drops retired spaces' tables and triggers; call once the active space is complete. */
  dropRetired(): number {
    const retired = this.retired()
    this.db.transaction(() => {
      for (const space of retired) this.drop(space)
    })()
    return retired.length
  }

  private drop(space: VectorSpace): void {
    const t = tables(space)
    this.db.exec(`
      DROP TRIGGER IF EXISTS ${t.messages}_delete;
      DROP TRIGGER IF EXISTS ${t.memories}_delete;
      DROP TRIGGER IF EXISTS ${t.messages}_count_insert;
      DROP TRIGGER IF EXISTS ${t.messages}_count_delete;
      DROP TABLE IF EXISTS ${t.messages};
      DROP TABLE IF EXISTS ${t.memories};
    `)
    this.db.prepare('DELETE FROM vector_spaces WHERE id = ?').run(space.id)
    this.codeIndexes.delete(space.id)
    this.memoryIndexes.delete(space.id)
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
    this.indexMessages(space.id, written)
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
    const index = this.memoryIndexes.get(space.id) ?? this.memoryLoads.get(space.id)
    for (const row of written) index?.put(row.id, row.vector, row.category)
    return written.length
  }

  /** Keeps the category filter of memory KNN in step with an edited memory. */
  setMemoryCategory(memoryId: number, category: string): void {
    for (const space of [this.active(), ...this.retired()]) {
      if (!space) continue
      this.db
        .prepare(`UPDATE ${tables(space).memories} SET category = ? WHERE memory_id = ?`)
        .run(category, BigInt(memoryId))
      const index = this.memoryIndexes.get(space.id) ?? this.memoryLoads.get(space.id)
      index?.setCategory(memoryId, category)
    }
  }

  /** Adds committed message vectors to the space's code index, or to its load in progress. */
  indexMessages(spaceId: number, rows: readonly IndexedVector[]): void {
    const index = this.codeIndexes.get(spaceId)
    const pending = this.preloads.get(spaceId)
    for (const { id, ...row } of rows) {
      index?.add(id, row.threadId, row.code, row.vector)
      pending?.set(id, row)
    }
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
    const ids = this.codeIndex(space).nearest(code, query, limit, keep, { threadId })
    if (ids.length === 0) return []
    // The ids come from our own index (numbers), so they are inlined rather than bound.
    const rows = this.db
      .prepare(
        `SELECT message_id AS id, vec_distance_cosine(embedding, ?) AS distance
           FROM ${t.messages} WHERE message_id IN (${ids.join(',')})`
      )
      .all(queryBlob) as VectorHit[]
    if (rows.length < ids.length) this.codeIndexes.delete(space.id) // deleted rows: reload next time
    return rows.sort((a, b) => a.distance - b.distance).slice(0, k)
  }

  /**
   * Loads the space's code index in slices that give the event loop back, so the first search
   * after start-up does not pay for it (about 0.5 s at 100,000 messages, issue #16). A search
   * that comes first loads it at once, and this load then stops.
   */
  async preload(
    space: VectorSpace,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    // Only the active space is searched: a worker's index of a replaced model goes (main's
    // goes when the space is dropped, which a worker does not see).
    for (const id of this.codeIndexes.keys()) if (id !== space.id) this.codeIndexes.delete(id)
    if (this.codeIndexes.has(space.id) || this.preloads.has(space.id)) return
    const pending = new Map<number, IndexedMessage>()
    this.preloads.set(space.id, pending)
    try {
      const index = new MessageCodeIndex(space.dimension / 8)
      const slice = this.db.prepare(
        `SELECT message_id, thread_id, code, embedding FROM ${tables(space).messages}
          WHERE message_id > ? ORDER BY message_id LIMIT ${PRELOAD_SLICE}`
      )
      let after = 0
      for (;;) {
        if (!this.db.open || this.codeIndexes.has(space.id) || this.active()?.id !== space.id) {
          return
        }
        const rows = slice.raw().all(after) as IndexRow[]
        for (const [id, thread, code, embedding] of rows) {
          if (!pending.has(id)) index.add(id, thread, code, floats(embedding))
        }
        if (rows.length < PRELOAD_SLICE) break
        after = (rows[rows.length - 1] as IndexRow)[0]
        await yieldToEvents()
      }
      // Codes written while loading (the scan may have read them before or after the write).
      for (const [id, { threadId, code, vector }] of pending) index.add(id, threadId, code, vector)
      this.codeIndexes.set(space.id, index)
    } finally {
      this.preloads.delete(space.id)
    }
  }

  private codeIndex(space: VectorSpace): MessageCodeIndex {
    let index = this.codeIndexes.get(space.id)
    if (!index) {
      index = new MessageCodeIndex(space.dimension / 8)
      const rows = this.db
        .prepare(`SELECT message_id, thread_id, code, embedding FROM ${tables(space).messages}`)
        .raw()
        .iterate() as IterableIterator<IndexRow>
      for (const [id, thread, code, embedding] of rows) {
        index.add(id, thread, code, floats(embedding))
      }
      this.codeIndexes.set(space.id, index)
    }
    return index
  }

  /** The k nearest memory vectors (cosine, exact), optionally of some categories. */
  nearestMemories(
    space: VectorSpace,
    query: Float32Array,
    k: number,
    categories?: readonly string[]
  ): VectorHit[] {
    this.check(space, query)
    const index = this.memoryIndex(space)
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

  /**
   * Loads the space's memory vectors at start-up, not on the first search, in slices that give
   * the event loop back (10,000 memories took 160 ms at once). A search that comes first loads
   * them at once, and this load then stops.
   */
  async loadMemories(
    space: VectorSpace,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    if (this.memoryIndexes.has(space.id) || this.memoryLoads.has(space.id)) return
    const index = new MemoryVectorIndex(space.dimension)
    this.memoryLoads.set(space.id, index)
    try {
      const slice = this.db.prepare(
        `SELECT memory_id, embedding, category FROM ${tables(space).memories}
          WHERE memory_id > ? ORDER BY memory_id LIMIT ${MEMORY_SLICE}`
      )
      let after = 0
      for (;;) {
        if (!this.db.open || this.memoryIndexes.has(space.id)) return
        const rows = slice.raw().all(after) as MemoryRow[]
        // A row written meanwhile reads as written, so `put` in either order leaves it right.
        for (const [id, embedding, category] of rows) index.put(id, floats(embedding), category)
        if (rows.length < MEMORY_SLICE) break
        after = (rows[rows.length - 1] as MemoryRow)[0]
        await yieldToEvents()
      }
      this.memoryIndexes.set(space.id, index)
    } finally {
      this.memoryLoads.delete(space.id)
    }
  }

  private memoryIndex(space: VectorSpace): MemoryVectorIndex {
    let index = this.memoryIndexes.get(space.id)
    if (!index) {
      index = new MemoryVectorIndex(space.dimension)
      const rows = this.db
        .prepare(`SELECT memory_id, embedding, category FROM ${tables(space).memories}`)
        .raw()
        .iterate() as IterableIterator<MemoryRow>
      for (const [id, embedding, category] of rows) index.put(id, floats(embedding), category)
      this.memoryIndexes.set(space.id, index)
    }
    return index
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

  /** Vectors in the space: messages from the trigger-kept count, memories by counting (few). */
  counts(space: VectorSpace): { messages: number; memories: number } {
    const t = tables(space)
    const kept = this.db.prepare('SELECT messages FROM vector_counts WHERE space_id = ?').pluck()
    let messages = kept.get(space.id) as number | undefined
    if (messages === undefined) {
      // A space made before the counts were kept: count once, then the triggers keep it.
      messages = this.db.transaction(() => {
        this.countMessages(space)
        return this.db
          .prepare(
            `UPDATE vector_counts SET messages = (SELECT count(*) FROM ${t.messages})
              WHERE space_id = ? RETURNING messages`
          )
          .pluck()
          .get(space.id) as number
      })()
    }
    return {
      messages,
      memories: this.db.prepare(`SELECT count(*) FROM ${t.memories}`).pluck().get() as number
    }
  }

  /** The triggers that keep the space's message vector count in `vector_counts`. */
  private countMessages(space: VectorSpace): void {
    const t = tables(space)
    const id = Math.floor(space.id)
    this.db.exec(`
      INSERT OR IGNORE INTO vector_counts (space_id, messages) VALUES (${id}, 0);
      CREATE TRIGGER IF NOT EXISTS ${t.messages}_count_insert AFTER INSERT ON ${t.messages} BEGIN
        UPDATE vector_counts SET messages = messages + 1 WHERE space_id = ${id};
      END;
      CREATE TRIGGER IF NOT EXISTS ${t.messages}_count_delete AFTER DELETE ON ${t.messages} BEGIN
        UPDATE vector_counts SET messages = messages - 1 WHERE space_id = ${id};
      END;
    `)
  }

  private createTables(space: VectorSpace): void {
    const t = tables(space)
    const dim = Math.floor(space.dimension)
    this.db.exec(`
      CREATE TABLE ${t.messages} (
        message_id INTEGER PRIMARY KEY,
        thread_id  TEXT NOT NULL,
        embedding  BLOB NOT NULL CHECK (length(embedding) = ${dim * 4}),
        code       BLOB NOT NULL
      );
      CREATE VIRTUAL TABLE ${t.memories} USING vec0 (
        memory_id INTEGER PRIMARY KEY,
        embedding float[${dim}] distance_metric=cosine,
        category text
      );
      CREATE TRIGGER ${t.messages}_delete AFTER DELETE ON messages BEGIN
        DELETE FROM ${t.messages} WHERE message_id = old.id;
      END;
      CREATE TRIGGER ${t.memories}_delete AFTER DELETE ON memories BEGIN
        DELETE FROM ${t.memories} WHERE memory_id = old.id;
      END;
    `)
    this.countMessages(space)
  }

  private check(space: VectorSpace, vector: Float32Array): void {
    if (vector.length !== space.dimension) {
      throw new Error(
        `A ${vector.length}-dimensional vector cannot go into the ${space.dimension}-dimensional space of ${space.modelId}.`
      )
    }
  }
}
