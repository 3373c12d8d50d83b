import type Database from 'better-sqlite3'
import type { Role } from '@shared/domain'
import { fullTextCap, fullTextTopK } from './fullTextTopK'

/** A stored message as recall reads it. */
export interface RecallMessage {
  id: number
  threadId: string
  threadTitle: string
  seq: number
  role: Role
  content: string
  /** Characters after `content` that were not read (a search reads a long message's head). */
  omittedChars: number
  createdAt: number
  excluded: boolean
}

interface Row {
  id: number
  thread_id: string
  title: string
  seq: number
  role: Role
  content: string
  omitted_chars: number
  created_at: number
  excluded: number
}

/**
 * The columns recall reads. With `headChars`, a message's first `headChars` characters and the
 * count of the rest: a stored 2 M-character paste among the candidates took 50 ms to read whole.
 */
function recallColumns(headChars: number | undefined): string {
  const content =
    headChars === undefined
      ? 'm.content, 0 AS omitted_chars'
      : `substr(m.content, 1, ${headChars}) AS content,
         max(length(m.content) - ${headChars}, 0) AS omitted_chars`
  return `m.id, m.thread_id, t.title, m.seq, m.role, ${content}, m.created_at, m.excluded`
}

function toRecallMessage(row: Row): RecallMessage {
  return {
    id: row.id,
    threadId: row.thread_id,
    threadTitle: row.title,
    seq: row.seq,
    role: row.role,
    content: row.content,
    omittedChars: row.omitted_chars,
    createdAt: row.created_at,
    excluded: row.excluded === 1
  }
}

/** Roles recall brings back: a tool result without its call, or a system prompt, would mislead. */
export const RECALLED_ROLES: readonly Role[] = ['user', 'assistant']

/** Reads over messages for long-term recall (full text and lookups by id). */
export class RecallRepository {
  constructor(private readonly db: Database.Database) {}

  messages(ids: readonly number[], headChars?: number): Map<number, RecallMessage> {
    if (ids.length === 0) return new Map()
    const rows = this.db
      .prepare(
        `SELECT ${recallColumns(headChars)}
           FROM messages m JOIN threads t ON t.id = m.thread_id
          WHERE m.id IN (${ids.map(() => '?').join(',')})`
      )
      .all(...ids) as Row[]
    return new Map(rows.map((row) => [row.id, toRecallMessage(row)]))
  }

  /**
   * The messages right before and after each of `hits` in their thread (seq ± 1): the question
   * a recalled answer replied to, the reply a recalled question got. Unfiltered; the caller
   * applies the same rules as to any recalled message.
   */
  neighbours(
    hits: readonly { threadId: string; seq: number }[],
    headChars?: number
  ): RecallMessage[] {
    if (hits.length === 0) return []
    const wanted = hits.flatMap((h) => [
      [h.threadId, h.seq - 1],
      [h.threadId, h.seq + 1]
    ])
    const rows = this.db
      .prepare(
        `WITH wanted(thread_id, seq) AS (VALUES ${wanted.map(() => '(?, ?)').join(', ')})
         SELECT ${recallColumns(headChars)}
           FROM wanted w JOIN messages m ON m.thread_id = w.thread_id AND m.seq = w.seq
           JOIN threads t ON t.id = m.thread_id`
      )
      .all(...wanted.flat()) as Row[]
    return rows.map(toRecallMessage)
  }

  /**
   * The best `limit` recallable messages (never excluded ones) for quoted FTS5 terms, without
   * ranking every match (fullTextTopK.ts).
   */
  ftsMessages(terms: readonly string[], limit: number, threadId?: string): number[] {
    const roles = RECALLED_ROLES.map((r) => `'${r}'`).join(',')
    return fullTextTopK(this.db, {
      table: 'messages_fts',
      terms,
      limit,
      cap: fullTextCap(limit),
      where: {
        sql: `EXISTS (SELECT 1 FROM messages m WHERE m.id = messages_fts.rowid AND m.excluded = 0
                 AND m.role IN (${roles}) ${threadId === undefined ? '' : 'AND m.thread_id = ?'})`,
        params: threadId === undefined ? [] : [threadId]
      },
      narrow: threadId !== undefined
    })
  }

  totals(): { messages: number; memories: number } {
    return {
      messages: this.db.prepare('SELECT count(*) FROM messages').pluck().get() as number,
      memories: this.db.prepare('SELECT count(*) FROM memories').pluck().get() as number
    }
  }

  threadExists(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM threads WHERE id = ?').get(id) !== undefined
  }
}
