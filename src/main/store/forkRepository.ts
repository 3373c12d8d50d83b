import type Database from 'better-sqlite3'

/** Where a thread was branched from (migration 9's lineage columns). */
export interface ForkLink {
  threadId: string
  /** The origin's last message the fork copied. */
  seq: number
}

export interface ForkCopy {
  originId: string
  forkId: string
  /** The last message copied (inclusive). */
  seq: number
  title: string
  settings: Record<string, unknown>
  now: number
}

/**
 * Copies a thread's history up to a message into a new thread, in one transaction, so a fork is
 * either whole or absent. Messages keep their seq, so the fork's message N is the origin's
 * message N; the FTS and embedding-queue triggers index the copies like any new message.
 */
export class ForkRepository {
  constructor(private readonly db: Database.Database) {}

  /** Runs `work` in one transaction (the copy and what the caller adds to the fork). */
  atomically<T>(work: () => T): T {
    return this.db.transaction(work)()
  }

  copy(fork: ForkCopy): void {
    this.atomically(() => {
      this.db
        .prepare(
          `INSERT INTO threads (id, title, created_at, updated_at, settings,
                                forked_from_thread_id, forked_from_seq)
           VALUES (@forkId, @title, @now, @now, @settings, @originId, @seq)`
        )
        .run({ ...fork, settings: JSON.stringify(fork.settings) })
      this.db
        .prepare(
          `INSERT INTO messages (thread_id, seq, role, content, tool_calls, tool_call_id,
                                 token_count, created_at, pinned, excluded)
           SELECT @forkId, seq, role, content, tool_calls, tool_call_id,
                  token_count, created_at, pinned, excluded
             FROM messages WHERE thread_id = @originId AND seq <= @seq ORDER BY seq`
        )
        .run(fork)
      // Which model wrote a reply and how it ended (an empty reply is never sent back, a
      // superseded one is marked) travel with the copy; the tokens and cost were spent in the
      // origin and stay counted there only. A reply superseded by a message after the fork
      // point is no longer superseded in the fork.
      this.db
        .prepare(
          `INSERT INTO message_usage (message_id, provider_id, model_id, status, finish_reason,
                                      estimated_prompt_tokens, superseded_by)
           SELECT f.id, u.provider_id, u.model_id, u.status, u.finish_reason,
                  u.estimated_prompt_tokens,
                  (SELECT fs.id FROM messages os JOIN messages fs
                      ON fs.thread_id = @forkId AND fs.seq = os.seq
                    WHERE os.id = u.superseded_by)
             FROM message_usage u
             JOIN messages o ON o.id = u.message_id AND o.thread_id = @originId AND o.seq <= @seq
             JOIN messages f ON f.thread_id = @forkId AND f.seq = o.seq`
        )
        .run(fork)
    })
  }

  /** The thread's ancestry, nearest first; stops at a deleted origin or a (corrupt) cycle. */
  ancestry(threadId: string): ForkLink[] {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE chain (id, origin, seq, depth) AS (
           SELECT id, forked_from_thread_id, forked_from_seq, 0 FROM threads WHERE id = ?
           UNION ALL
           SELECT t.id, t.forked_from_thread_id, t.forked_from_seq, c.depth + 1
             FROM threads t JOIN chain c ON t.id = c.origin
            WHERE c.depth < 64
         )
         SELECT origin AS threadId, seq FROM chain
          WHERE origin IS NOT NULL AND seq IS NOT NULL ORDER BY depth`
      )
      .all(threadId) as ForkLink[]
    return rows
  }

  /** Where each message lives, with its thread's own fork point (null for an original). */
  places(
    messageIds: readonly number[]
  ): Map<number, { threadId: string; seq: number; forkedAtSeq: number | null }> {
    const places = new Map<number, { threadId: string; seq: number; forkedAtSeq: number | null }>()
    if (messageIds.length === 0) return places
    const rows = this.db
      .prepare(
        `SELECT m.id, m.thread_id AS threadId, m.seq,
                CASE WHEN t.forked_from_thread_id IS NULL THEN NULL ELSE t.forked_from_seq END
                  AS forkedAtSeq
           FROM messages m JOIN threads t ON t.id = m.thread_id
          WHERE m.id IN (SELECT value FROM json_each(?))`
      )
      .all(JSON.stringify(messageIds)) as {
      id: number
      threadId: string
      seq: number
      forkedAtSeq: number | null
    }[]
    for (const { id, ...place } of rows) places.set(id, place)
    return places
  }
}
