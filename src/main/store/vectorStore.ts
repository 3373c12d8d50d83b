import type Database from 'better-sqlite3'

/**
 * sqlite-vec tables, one pair per vector space. A space is one model with one pooling and one
 * dimension; vectors of different spaces are never compared. Searches read only the active
 * space; switching model makes a new active space, re-queues everything, and drops the old
 * space's tables once the new one is complete.
 *
 *   vec_messages_<space>(message_id PK, embedding float[D] cosine, thread_id metadata)
 *   vec_memories_<space>(memory_id PK, embedding float[D] cosine, category metadata)
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

const tables = (space: { id: number }) => ({
  messages: `vec_messages_${space.id}`,
  memories: `vec_memories_${space.id}`
})

export class VectorStore {
  constructor(private readonly db: Database.Database) {}

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
      DROP TABLE IF EXISTS ${t.messages};
      DROP TABLE IF EXISTS ${t.memories};
    `)
    this.db.prepare('DELETE FROM vector_spaces WHERE id = ?').run(space.id)
  }

  /**
   * Writes vectors for messages that still exist (a message deleted while its batch was in the
   * worker is skipped) and removes them from the queue, in one transaction.
   */
  putMessages(space: VectorSpace, rows: readonly { id: number; vector: Float32Array }[]): number {
    const t = tables(space)
    const remove = this.db.prepare(`DELETE FROM ${t.messages} WHERE message_id = ?`)
    const insert = this.db.prepare(
      `INSERT INTO ${t.messages} (message_id, embedding, thread_id)
       SELECT id, ?, thread_id FROM messages WHERE id = ?`
    )
    const dequeue = this.db.prepare(
      "DELETE FROM embedding_queue WHERE kind = 'message' AND item_id = ?"
    )
    return this.db.transaction(() => {
      let written = 0
      for (const row of rows) {
        this.check(space, row.vector)
        remove.run(BigInt(row.id))
        written += insert.run(blob(row.vector), row.id).changes
        dequeue.run(row.id)
      }
      return written
    })()
  }

  putMemories(space: VectorSpace, rows: readonly { id: number; vector: Float32Array }[]): number {
    const t = tables(space)
    const remove = this.db.prepare(`DELETE FROM ${t.memories} WHERE memory_id = ?`)
    const insert = this.db.prepare(
      `INSERT INTO ${t.memories} (memory_id, embedding, category)
       SELECT id, ?, category FROM memories WHERE id = ?`
    )
    const dequeue = this.db.prepare(
      "DELETE FROM embedding_queue WHERE kind = 'memory' AND item_id = ?"
    )
    return this.db.transaction(() => {
      let written = 0
      for (const row of rows) {
        this.check(space, row.vector)
        remove.run(BigInt(row.id))
        written += insert.run(blob(row.vector), row.id).changes
        dequeue.run(row.id)
      }
      return written
    })()
  }

  /** Keeps the category filter of memory KNN in step with an edited memory. */
  setMemoryCategory(memoryId: number, category: string): void {
    for (const space of [this.active(), ...this.retired()]) {
      if (!space) continue
      this.db
        .prepare(`UPDATE ${tables(space).memories} SET category = ? WHERE memory_id = ?`)
        .run(category, BigInt(memoryId))
    }
  }

  /** Exact KNN (cosine) over message vectors, optionally within one thread. */
  nearestMessages(
    space: VectorSpace,
    query: Float32Array,
    k: number,
    threadId?: string
  ): VectorHit[] {
    this.check(space, query)
    const t = tables(space)
    const filter = threadId === undefined ? '' : 'AND thread_id = ?'
    const params: unknown[] = [blob(query), k]
    if (threadId !== undefined) params.push(threadId)
    return this.db
      .prepare(
        `SELECT message_id AS id, distance FROM ${t.messages}
          WHERE embedding MATCH ? AND k = ? ${filter} ORDER BY distance`
      )
      .all(...params) as VectorHit[]
  }

  nearestMemories(
    space: VectorSpace,
    query: Float32Array,
    k: number,
    categories?: readonly string[]
  ): VectorHit[] {
    this.check(space, query)
    const t = tables(space)
    const filter =
      categories && categories.length > 0
        ? `AND category IN (${categories.map(() => '?').join(',')})`
        : ''
    return this.db
      .prepare(
        `SELECT memory_id AS id, distance FROM ${t.memories}
          WHERE embedding MATCH ? AND k = ? ${filter} ORDER BY distance`
      )
      .all(blob(query), k, ...(categories ?? [])) as VectorHit[]
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
    return new Map(
      rows.map((row) => [
        row.id,
        new Float32Array(
          row.embedding.buffer.slice(
            row.embedding.byteOffset,
            row.embedding.byteOffset + row.embedding.byteLength
          )
        )
      ])
    )
  }

  counts(space: VectorSpace): { messages: number; memories: number } {
    const t = tables(space)
    return {
      messages: this.db.prepare(`SELECT count(*) FROM ${t.messages}`).pluck().get() as number,
      memories: this.db.prepare(`SELECT count(*) FROM ${t.memories}`).pluck().get() as number
    }
  }

  private createTables(space: VectorSpace): void {
    const t = tables(space)
    const dim = Math.floor(space.dimension)
    this.db.exec(`
      CREATE VIRTUAL TABLE ${t.messages} USING vec0 (
        message_id INTEGER PRIMARY KEY,
        embedding float[${dim}] distance_metric=cosine,
        thread_id text
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
  }

  private check(space: VectorSpace, vector: Float32Array): void {
    if (vector.length !== space.dimension) {
      throw new Error(
        `A ${vector.length}-dimensional vector cannot go into the ${space.dimension}-dimensional space of ${space.modelId}.`
      )
    }
  }
}
