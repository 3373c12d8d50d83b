import type Database from 'better-sqlite3'

/** A message or memory waiting for its vector, with the text to embed. */
export interface QueuedItem {
  kind: 'message' | 'memory'
  id: number
  content: string
  /** The message's thread (for cancellation when the thread is deleted); null for memories. */
  threadId: string | null
}

/** Attempts after which an item is left alone (it stays searchable by full text). */
const MAX_ATTEMPTS = 3

/**
 * The persistent indexing queue. Triggers (migration 4) add every new or edited message and
 * memory and remove deleted ones, so the queue survives restarts and never points at a row
 * that is gone. Rows leave the queue in the transaction that writes their vector.
 */
export class EmbeddingQueueRepository {
  constructor(private readonly db: Database.Database) {}

  /** Memories first (the user asked for them), then the newest messages. */
  next(limit: number): QueuedItem[] {
    const memories = this.db
      .prepare(
        `SELECT 'memory' AS kind, q.item_id AS id, m.content, NULL AS threadId
           FROM embedding_queue q JOIN memories m ON m.id = q.item_id
          WHERE q.kind = 'memory' AND q.attempts < ${MAX_ATTEMPTS}
          ORDER BY q.enqueued_at DESC LIMIT ?`
      )
      .all(limit) as QueuedItem[]
    if (memories.length >= limit) return memories
    const messages = this.db
      .prepare(
        `SELECT 'message' AS kind, q.item_id AS id, m.content, m.thread_id AS threadId
           FROM embedding_queue q JOIN messages m ON m.id = q.item_id
          WHERE q.kind = 'message' AND q.attempts < ${MAX_ATTEMPTS}
          ORDER BY q.enqueued_at DESC LIMIT ?`
      )
      .all(limit - memories.length) as QueuedItem[]
    return [...memories, ...messages]
  }

  failed(items: readonly Pick<QueuedItem, 'kind' | 'id'>[]): void {
    const bump = this.db.prepare(
      'UPDATE embedding_queue SET attempts = attempts + 1 WHERE kind = ? AND item_id = ?'
    )
    this.db.transaction(() => {
      for (const item of items) bump.run(item.kind, item.id)
    })()
  }

  counts(): { messages: number; memories: number; failed: number } {
    const row = this.db
      .prepare(
        `SELECT coalesce(sum(kind = 'message' AND attempts < ${MAX_ATTEMPTS}), 0) AS messages,
                coalesce(sum(kind = 'memory' AND attempts < ${MAX_ATTEMPTS}), 0) AS memories,
                coalesce(sum(attempts >= ${MAX_ATTEMPTS}), 0) AS failed
           FROM embedding_queue`
      )
      .get() as { messages: number; memories: number; failed: number }
    return row
  }

  /** Gives failed items another chance (after a model change, for example). */
  retryFailed(): void {
    this.db.prepare('UPDATE embedding_queue SET attempts = 0').run()
  }
}
