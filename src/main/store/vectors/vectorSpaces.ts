import type Database from 'better-sqlite3'

/**
 * The vector spaces and their tables. A space is one model with one pooling and one dimension;
 * vectors of different spaces are never compared. Searches read only the active space;
 * switching model makes a new active space, re-queues everything, and drops the old space's
 * tables once the new one is complete.
 *
 *   message_vectors_<space>(message_id PK, thread_id, embedding float32 BLOB, code BLOB)
 *   vec_memories_<space>(memory_id PK, embedding float[D] cosine, category metadata)  -- vec0
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

export const tables = (space: { id: number }) => ({
  messages: `message_vectors_${space.id}`,
  memories: `vec_memories_${space.id}`
})

export class VectorSpaces {
  /**
   * @param dropped told after a space's tables are gone, so in-memory copies of them go too.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly dropped: (spaceId: number) => void
  ) {}

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
            WHERE id NOT IN (SELECT message_id FROM ${t.messages})
           UNION ALL
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
    this.dropped(space.id)
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
}
