import type Database from 'better-sqlite3'
import type { ThreadSummaryView } from '@shared/domain'

interface SummaryRow {
  thread_id: string
  content: string
  last_message_seq: number
  version: number
  source: ThreadSummaryView['source']
  updated_at: number
}

const toView = (row: SummaryRow): ThreadSummaryView => ({
  threadId: row.thread_id,
  content: row.content,
  lastMessageSeq: row.last_message_seq,
  version: row.version,
  source: row.source,
  updatedAt: row.updated_at
})

/** One summary per thread; every write bumps the version. */
export class SummaryRepository {
  constructor(private readonly db: Database.Database) {}

  get(threadId: string): ThreadSummaryView | null {
    const row = this.db
      .prepare('SELECT * FROM thread_summaries WHERE thread_id = ?')
      .get(threadId) as SummaryRow | undefined
    return row ? toView(row) : null
  }

  /** Writes the summary as the next version; undefined when the thread is gone. */
  put(
    threadId: string,
    value: { content: string; lastMessageSeq: number; source: ThreadSummaryView['source'] },
    now: number
  ): ThreadSummaryView | undefined {
    const row = this.db
      .prepare(
        `INSERT INTO thread_summaries (thread_id, content, last_message_seq, version, source, updated_at)
         SELECT @threadId, @content, @lastMessageSeq, 1, @source, @now
          WHERE EXISTS (SELECT 1 FROM threads WHERE id = @threadId)
         ON CONFLICT (thread_id) DO UPDATE SET
           content = excluded.content, last_message_seq = excluded.last_message_seq,
           version = thread_summaries.version + 1, source = excluded.source,
           updated_at = excluded.updated_at
         RETURNING *`
      )
      .get({ threadId, ...value, now }) as SummaryRow | undefined
    return row && toView(row)
  }
}
