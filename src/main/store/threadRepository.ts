import type Database from 'better-sqlite3'
import { withEverySection, type TokenStats } from '@shared/context'
import type { Thread, ThreadListItem } from '@shared/domain'
import type { ThreadSettings } from '@shared/threadSettings'

/** Stats stored before a section existed read with that section empty. */
const storedStats = (stats: TokenStats): TokenStats =>
  typeof stats.sections === 'object' && stats.sections !== null
    ? { ...stats, sections: withEverySection(stats.sections) }
    : stats

interface ThreadRow {
  id: string
  title: string
  created_at: number
  updated_at: number
  settings: string
}

interface ThreadListRow extends ThreadRow {
  message_count: number
  preview: string | null
  build_id: number | null
  build_at: number | null
  /** The newest build's `tokenStats` as JSON (thread_build_stats, migration 8). */
  build_stats: string | null
  cost: number | null
  unpriced: number
  summary_at: number | null
  forked_from_thread_id: string | null
  forked_from_seq: number | null
  origin_title: string | null
  origin_message_id: number | null
  origin_excerpt: string | null
}

const PREVIEW_CHARS = 120
/** The origin message's start, shown under a fork's title. */
const ORIGIN_EXCERPT_CHARS = 80

function toThread(row: ThreadRow): Thread {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    settings: JSON.parse(row.settings) as ThreadSettings
  }
}

export class ThreadRepository {
  constructor(private readonly db: Database.Database) {}

  create(thread: { id: string; title: string; now: number; settings: ThreadSettings }): Thread {
    this.db
      .prepare(
        `INSERT INTO threads (id, title, created_at, updated_at, settings)
         VALUES (@id, @title, @now, @now, @settings)`
      )
      .run({ ...thread, settings: JSON.stringify(thread.settings) })
    return this.get(thread.id) as Thread
  }

  get(id: string): Thread | undefined {
    const row = this.db.prepare('SELECT * FROM threads WHERE id = ?').get(id) as
      ThreadRow | undefined
    return row && toThread(row)
  }

  /**
   * Most recently active first; the preview is the newest message, cut for the sidebar. Each
   * thread comes with its stats in the same query (its newest build's tokenStats from
   * thread_build_stats, its replies' cost, its summary's time), so a long sidebar never asks
   * per thread.
   */
  list(): ThreadListItem[] {
    const rows = this.db
      .prepare(
        `WITH costs AS (
           SELECT m.thread_id, sum(u.cost) AS cost,
                  sum(u.cost IS NULL AND u.prompt_tokens IS NOT NULL) AS unpriced
             FROM message_usage u JOIN messages m ON m.id = u.message_id
            GROUP BY m.thread_id
         )
         SELECT t.*,
                (SELECT count(*) FROM messages m WHERE m.thread_id = t.id) AS message_count,
                (SELECT substr(m.content, 1, ${PREVIEW_CHARS}) FROM messages m
                  WHERE m.thread_id = t.id ORDER BY m.seq DESC LIMIT 1) AS preview,
                b.build_id, b.created_at AS build_at, b.stats AS build_stats,
                c.cost AS cost, coalesce(c.unpriced, 0) AS unpriced,
                s.updated_at AS summary_at,
                o.title AS origin_title, om.id AS origin_message_id,
                substr(om.content, 1, ${ORIGIN_EXCERPT_CHARS}) AS origin_excerpt
           FROM threads t
           LEFT JOIN thread_build_stats b ON b.thread_id = t.id
           LEFT JOIN costs c ON c.thread_id = t.id
           LEFT JOIN thread_summaries s ON s.thread_id = t.id
           LEFT JOIN threads o ON o.id = t.forked_from_thread_id
           LEFT JOIN messages om ON om.thread_id = o.id AND om.seq = t.forked_from_seq
          ORDER BY t.updated_at DESC, t.created_at DESC`
      )
      .all() as ThreadListRow[]
    return rows.map((row) => ({
      ...toThread(row),
      messageCount: row.message_count,
      lastMessagePreview: row.preview,
      stats: {
        lastBuild:
          row.build_id !== null && row.build_at !== null && row.build_stats !== null
            ? {
                buildId: row.build_id,
                createdAt: row.build_at,
                tokenStats: storedStats(JSON.parse(row.build_stats) as TokenStats)
              }
            : null,
        cost: row.cost,
        unpricedReplies: row.unpriced,
        summaryUpdatedAt: row.summary_at
      },
      forkedFrom:
        row.forked_from_thread_id !== null && row.forked_from_seq !== null
          ? {
              threadId: row.forked_from_thread_id,
              title: row.origin_title ?? '',
              seq: row.forked_from_seq,
              messageId: row.origin_message_id,
              excerpt: row.origin_excerpt
            }
          : null
    }))
  }

  /** Renaming is activity: the thread moves to the top of the sidebar. */
  rename(id: string, title: string, now: number): Thread | undefined {
    this.db.prepare('UPDATE threads SET title = ?, updated_at = ? WHERE id = ?').run(title, now, id)
    return this.get(id)
  }

  /** Replaces the given top-level keys of the thread's settings JSON, keeping the others. */
  updateSettings(id: string, patch: ThreadSettings): void {
    this.db.transaction(() => {
      const thread = this.get(id)
      if (!thread) return
      this.db
        .prepare('UPDATE threads SET settings = ? WHERE id = ?')
        .run(JSON.stringify({ ...thread.settings, ...patch }), id)
    })()
  }

  /** Threads whose settings hold an object under `key`, with that object. */
  listWithSetting(key: string): { id: string; title: string; value: Record<string, unknown> }[] {
    const rows = this.db
      .prepare(
        `SELECT id, title, json_extract(settings, '$.' || ?) AS value FROM threads
          WHERE json_type(settings, '$.' || ?) = 'object'`
      )
      .all(key, key) as { id: string; title: string; value: string }[]
    return rows.map((row) => ({ ...row, value: JSON.parse(row.value) as Record<string, unknown> }))
  }

  /** Messages go with their thread (ON DELETE CASCADE), and so do their index entries. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM threads WHERE id = ?').run(id).changes > 0
  }
}
