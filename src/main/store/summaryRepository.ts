import type Database from 'better-sqlite3'
import type { ThreadSummaryView } from '@shared/domain'
import type { SummaryVersionKind, SummaryVersionView } from '@shared/summaryCompression'

interface SummaryRow {
  thread_id: string
  content: string
  last_message_seq: number
  version: number
  source: ThreadSummaryView['source']
  updated_at: number
  stale_since_seq: number | null
}

interface VersionRow {
  thread_id: string
  version: number
  content: string
  last_message_seq: number
  source: ThreadSummaryView['source']
  kind: SummaryVersionKind
  folded_ids: string
  replaced_tokens: number
  summary_tokens: number
  created_at: number
}

const toView = (row: SummaryRow): ThreadSummaryView => ({
  threadId: row.thread_id,
  content: row.content,
  lastMessageSeq: row.last_message_seq,
  version: row.version,
  source: row.source,
  updatedAt: row.updated_at,
  // Only when stale, so a current summary keeps the shape it always had.
  ...(row.stale_since_seq !== null && { staleSinceSeq: row.stale_since_seq })
})

const toVersion = (row: VersionRow): SummaryVersionView => ({
  threadId: row.thread_id,
  version: row.version,
  content: row.content,
  lastMessageSeq: row.last_message_seq,
  source: row.source,
  kind: row.kind,
  foldedIds: JSON.parse(row.folded_ids) as number[],
  replacedTokens: row.replaced_tokens,
  summaryTokens: row.summary_tokens,
  createdAt: row.created_at
})

/** What a write records besides the text: how it came about and what it replaced. */
export interface SummaryWrite {
  content: string
  lastMessageSeq: number
  source: ThreadSummaryView['source']
  kind?: SummaryVersionKind
  foldedIds?: readonly number[]
  replacedTokens?: number
  summaryTokens?: number
}

/** One current summary per thread, every version kept; every write bumps the version. */
export class SummaryRepository {
  constructor(private readonly db: Database.Database) {}

  get(threadId: string): ThreadSummaryView | null {
    const row = this.db
      .prepare('SELECT * FROM thread_summaries WHERE thread_id = ?')
      .get(threadId) as SummaryRow | undefined
    return row ? toView(row) : null
  }

  /**
   * Writes the summary as the next version, and the version into the history, in one
   * transaction; a new version is current again (not stale). Undefined when the thread is gone.
   */
  put(threadId: string, value: SummaryWrite, now: number): ThreadSummaryView | undefined {
    return this.db.transaction(() => {
      const row = this.db
        .prepare(
          `INSERT INTO thread_summaries (thread_id, content, last_message_seq, version, source, updated_at)
           SELECT @threadId, @content, @lastMessageSeq, 1, @source, @now
            WHERE EXISTS (SELECT 1 FROM threads WHERE id = @threadId)
           ON CONFLICT (thread_id) DO UPDATE SET
             content = excluded.content, last_message_seq = excluded.last_message_seq,
             version = thread_summaries.version + 1, source = excluded.source,
             updated_at = excluded.updated_at, stale_since_seq = NULL
           RETURNING *`
        )
        .get({
          threadId,
          content: value.content,
          lastMessageSeq: value.lastMessageSeq,
          source: value.source,
          now
        }) as SummaryRow | undefined
      if (!row) return undefined
      this.db
        .prepare(
          `INSERT OR REPLACE INTO summary_versions (thread_id, version, content, last_message_seq,
             source, kind, folded_ids, replaced_tokens, summary_tokens, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(
          threadId,
          row.version,
          row.content,
          row.last_message_seq,
          row.source,
          value.kind ?? (value.source === 'user' ? 'edit' : 'auto'),
          JSON.stringify(value.foldedIds ?? []),
          value.replacedTokens ?? 0,
          value.summaryTokens ?? 0,
          now
        )
      return toView(row)
    })()
  }

  /** Every stored version, newest first. */
  versions(threadId: string): SummaryVersionView[] {
    const rows = this.db
      .prepare('SELECT * FROM summary_versions WHERE thread_id = ? ORDER BY version DESC')
      .all(threadId) as VersionRow[]
    return rows.map(toVersion)
  }

  version(threadId: string, version: number): SummaryVersionView | null {
    return this.newestVersionWhere('version = ?', threadId, version)
  }

  /** The newest version before `version`. */
  previousVersion(threadId: string, version: number): SummaryVersionView | null {
    return this.newestVersionWhere('version < ?', threadId, version)
  }

  /** The newest version that covers only messages before `seq` (a stale rewrite starts there). */
  newestVersionBefore(threadId: string, seq: number): SummaryVersionView | null {
    return this.newestVersionWhere('last_message_seq < ?', threadId, seq)
  }

  /** The thread's newest version meeting `condition` (one `?`, bound to `value`). */
  private newestVersionWhere(
    condition: string,
    threadId: string,
    value: number
  ): SummaryVersionView | null {
    const row = this.db
      .prepare(
        `SELECT * FROM summary_versions WHERE thread_id = ? AND ${condition}
          ORDER BY version DESC LIMIT 1`
      )
      .get(threadId, value) as VersionRow | undefined
    return row ? toVersion(row) : null
  }

  /**
   * Marks the summary stale when it covers `seq` (keeping the oldest such seq); returns the
   * summary when this changed it, null when it does not cover that message.
   */
  markStale(threadId: string, seq: number): ThreadSummaryView | null {
    const row = this.db
      .prepare(
        `UPDATE thread_summaries
            SET stale_since_seq = min(coalesce(stale_since_seq, @seq), @seq)
          WHERE thread_id = @threadId AND last_message_seq >= @seq
          RETURNING *`
      )
      .get({ threadId, seq }) as SummaryRow | undefined
    return row ? toView(row) : null
  }
}
