import type Database from 'better-sqlite3'
import { withCurrentShape, type BuiltContext, type StoredBuild } from '@shared/context'

interface BuildRow {
  id: number
  thread_id: string
  message_id: number | null
  created_at: number
  built: string
}

const toStoredBuild = (row: BuildRow): StoredBuild => ({
  id: row.id,
  threadId: row.thread_id,
  messageId: row.message_id,
  createdAt: row.created_at,
  context: withCurrentShape(JSON.parse(row.built) as BuiltContext)
})

/** The builds that were actually sent, per thread; only the newest `keep` are retained. */
export class BuildRepository {
  constructor(
    private readonly db: Database.Database,
    private readonly keep: number
  ) {}

  add(build: {
    threadId: string
    messageId: number | null
    createdAt: number
    context: BuiltContext
  }): StoredBuild {
    return this.db.transaction(() => {
      // Only the id comes back: parsing the megabyte just written would serialise it twice.
      const { id } = this.db
        .prepare(
          `INSERT INTO context_builds (thread_id, message_id, created_at, built)
           VALUES (?, ?, ?, ?) RETURNING id`
        )
        .get(build.threadId, build.messageId, build.createdAt, JSON.stringify(build.context)) as {
        id: number
      }
      // The sidebar reads the newest build's stats per thread from this small table.
      this.db
        .prepare(
          `INSERT INTO thread_build_stats (thread_id, build_id, created_at, stats)
           VALUES (?, ?, ?, ?)
           ON CONFLICT (thread_id) DO UPDATE SET build_id = excluded.build_id,
             created_at = excluded.created_at, stats = excluded.stats
           WHERE excluded.build_id > thread_build_stats.build_id`
        )
        .run(build.threadId, id, build.createdAt, JSON.stringify(build.context.tokenStats))
      // Builds are diagnostics, not user data: old ones are pruned to bound the file's growth.
      this.db
        .prepare(
          `DELETE FROM context_builds WHERE thread_id = ? AND id NOT IN
             (SELECT id FROM context_builds WHERE thread_id = ? ORDER BY id DESC LIMIT ?)`
        )
        .run(build.threadId, build.threadId, this.keep)
      return {
        id,
        threadId: build.threadId,
        messageId: build.messageId,
        createdAt: build.createdAt,
        context: build.context
      }
    })()
  }

  /** Newest first. */
  list(threadId: string): StoredBuild[] {
    const rows = this.db
      .prepare('SELECT * FROM context_builds WHERE thread_id = ? ORDER BY id DESC')
      .all(threadId) as BuildRow[]
    return rows.map(toStoredBuild)
  }
}
