import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import type {
  Memory,
  MemoryCategory,
  MemoryHistoryAction,
  MemoryHistoryEntry,
  MemorySourceMessage
} from '@shared/domain'
import { fullTextCap, fullTextTopK } from './search/fullTextTopK'
import { toLikePattern } from './search/searchRepository'

interface MemoryRow {
  id: number
  content: string
  category: MemoryCategory
  source_thread_id: string | null
  source_message_id: number | null
  content_hash: string
  created_at: number
  updated_at: number
}

interface HistoryRow {
  id: number
  memory_id: number
  action: MemoryHistoryAction
  reason: string
  content: string
  category: MemoryCategory
  previous_content: string | null
  previous_category: MemoryCategory | null
  source_thread_id: string | null
  source_message_id: number | null
  created_at: number
}

/** How a memory is stored: the user's text with runs of whitespace collapsed. */
export function normalizeMemoryText(content: string): string {
  return content.replace(/\s+/gu, ' ').trim()
}

/** Same text up to case, width and spacing: "I like tea" and "i  like tea" are one memory. */
export function contentHash(content: string): string {
  const key = normalizeMemoryText(content.normalize('NFKC')).toLowerCase()
  return createHash('sha256').update(key).digest('hex')
}

function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    content: row.content,
    category: row.category,
    sourceThreadId: row.source_thread_id,
    sourceMessageId: row.source_message_id,
    contentHash: row.content_hash,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}

function toHistory(row: HistoryRow): MemoryHistoryEntry {
  return {
    id: row.id,
    memoryId: row.memory_id,
    action: row.action,
    reason: row.reason,
    content: row.content,
    category: row.category,
    previousContent: row.previous_content,
    previousCategory: row.previous_category,
    sourceThreadId: row.source_thread_id,
    sourceMessageId: row.source_message_id,
    createdAt: row.created_at
  }
}

export interface NewMemory {
  content: string
  category: MemoryCategory
  sourceThreadId: string | null
  sourceMessageId: number | null
  now: number
  reason: string
}

export interface MemoryFilter {
  category?: MemoryCategory
  /** Substring match, any language (trigram FTS for 3+ characters, LIKE for shorter text). */
  text?: string
  limit: number
  offset: number
}

/**
 * Curated memories and their history. Every write records a `memory_history` row in the same
 * transaction, so the history is complete by construction and a delete can be undone.
 */
export class MemoryRepository {
  constructor(private readonly db: Database.Database) {}

  get(id: number): Memory | undefined {
    const row = this.db.prepare('SELECT * FROM memories WHERE id = ?').get(id) as
      MemoryRow | undefined
    return row && toMemory(row)
  }

  getMany(ids: readonly number[]): Map<number, Memory> {
    if (ids.length === 0) return new Map()
    const rows = this.db
      .prepare(`SELECT * FROM memories WHERE id IN (${ids.map(() => '?').join(',')})`)
      .all(...ids) as MemoryRow[]
    return new Map(rows.map((row) => [row.id, toMemory(row)]))
  }

  findByHash(hash: string): Memory | undefined {
    const row = this.db.prepare('SELECT * FROM memories WHERE content_hash = ?').get(hash) as
      MemoryRow | undefined
    return row && toMemory(row)
  }

  insert(memory: NewMemory): Memory {
    return this.db.transaction(() => {
      const row = this.db
        .prepare(
          `INSERT INTO memories (content, category, source_thread_id, source_message_id, content_hash, created_at, updated_at)
           VALUES (@content, @category, @sourceThreadId, @sourceMessageId, @hash, @now, @now)
           RETURNING *`
        )
        .get({ ...memory, hash: contentHash(memory.content) }) as MemoryRow
      this.record(row, 'create', memory.reason, null, memory.now)
      return toMemory(row)
    })()
  }

  /** Replaces content and/or category; records the previous values. */
  update(
    id: number,
    change: { content?: string; category?: MemoryCategory },
    now: number,
    reason: string
  ): Memory | undefined {
    return this.db.transaction(() => {
      const before = this.db.prepare('SELECT * FROM memories WHERE id = ?').get(id) as
        MemoryRow | undefined
      if (!before) return undefined
      const content = change.content ?? before.content
      const row = this.db
        .prepare(
          `UPDATE memories
              SET content = @content, category = @category, content_hash = @hash, updated_at = @now
            WHERE id = @id
            RETURNING *`
        )
        .get({
          id,
          content,
          category: change.category ?? before.category,
          hash: contentHash(content),
          now
        }) as MemoryRow
      this.record(row, 'update', reason, before, now)
      return toMemory(row)
    })()
  }

  /** Records the memory as it was, so `restore` can bring it back. */
  delete(id: number, now: number, reason: string): Memory | undefined {
    return this.db.transaction(() => {
      const row = this.db.prepare('DELETE FROM memories WHERE id = ? RETURNING *').get(id) as
        MemoryRow | undefined
      if (!row) return undefined
      this.record(row, 'delete', reason, null, now)
      return toMemory(row)
    })()
  }

  /**
   * Undoes the latest delete: the same id, content, category and sources (a source message
   * deleted since is dropped). Undefined when the memory exists or was never deleted.
   */
  restore(id: number, now: number): Memory | undefined {
    return this.db.transaction(() => {
      if (this.get(id)) return undefined
      const last = this.db
        .prepare(
          "SELECT * FROM memory_history WHERE memory_id = ? AND action = 'delete' ORDER BY id DESC LIMIT 1"
        )
        .get(id) as HistoryRow | undefined
      if (!last) return undefined
      const row = this.db
        .prepare(
          `INSERT INTO memories (id, content, category, source_thread_id, source_message_id, content_hash, created_at, updated_at)
           VALUES (@id, @content, @category,
                   (SELECT id FROM threads WHERE id = @thread),
                   (SELECT id FROM messages WHERE id = @message),
                   @hash, @createdAt, @now)
           RETURNING *`
        )
        .get({
          id,
          content: last.content,
          category: last.category,
          thread: last.source_thread_id,
          message: last.source_message_id,
          hash: contentHash(last.content),
          createdAt: this.firstCreatedAt(id) ?? now,
          now
        }) as MemoryRow
      this.record(row, 'restore', 'undo_delete', null, now)
      return toMemory(row)
    })()
  }

  history(id: number): MemoryHistoryEntry[] {
    const rows = this.db
      .prepare('SELECT * FROM memory_history WHERE memory_id = ? ORDER BY id')
      .all(id) as HistoryRow[]
    return rows.map(toHistory)
  }

  /** Newest activity first; `text` filters by substring in any language. */
  list(filter: MemoryFilter): { items: Memory[]; total: number } {
    const where: string[] = []
    const params: unknown[] = []
    if (filter.category) {
      where.push('m.category = ?')
      params.push(filter.category)
    }
    const text = filter.text?.trim()
    if (text) {
      // LIKE over a table of curated memories (thousands at most) is fast enough and handles
      // one- and two-character Chinese words that the trigram index cannot.
      where.push("m.content LIKE ? ESCAPE '\\'")
      params.push(toLikePattern(text))
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
    const total = this.db
      .prepare(`SELECT count(*) FROM memories m ${clause}`)
      .pluck()
      .get(...params) as number
    const rows = this.db
      .prepare(
        `SELECT m.* FROM memories m ${clause} ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?`
      )
      .all(...params, filter.limit, filter.offset) as MemoryRow[]
    return { items: rows.map(toMemory), total }
  }

  count(): number {
    return this.db.prepare('SELECT count(*) FROM memories').pluck().get() as number
  }

  /** BM25-ranked ids for an FTS5 expression over memory content. */
  /** The best `limit` memories for quoted FTS5 terms, without ranking every match. */
  ftsSearch(terms: readonly string[], limit: number): number[] {
    return fullTextTopK(this.db, {
      table: 'memories_fts',
      terms,
      limit,
      cap: fullTextCap(limit)
    })
  }

  /** Where a memory came from: its source message, if it still exists. */
  sourceMessage(memory: Memory): MemorySourceMessage | null {
    if (memory.sourceMessageId === null && memory.sourceThreadId === null) return null
    const row = this.db
      .prepare(
        `SELECT m.id, m.thread_id, t.title, m.seq, m.role, m.content, m.created_at
           FROM messages m JOIN threads t ON t.id = m.thread_id
          WHERE m.id = ?`
      )
      .get(memory.sourceMessageId) as
      | {
          id: number
          thread_id: string
          title: string
          seq: number
          role: MemorySourceMessage['role']
          content: string
          created_at: number
        }
      | undefined
    if (row) {
      return {
        threadId: row.thread_id,
        threadTitle: row.title,
        messageId: row.id,
        seq: row.seq,
        role: row.role,
        excerpt: excerpt(row.content),
        createdAt: row.created_at
      }
    }
    const thread = this.db
      .prepare('SELECT id, title FROM threads WHERE id = ?')
      .get(memory.sourceThreadId) as { id: string; title: string } | undefined
    return thread
      ? {
          threadId: thread.id,
          threadTitle: thread.title,
          messageId: null,
          seq: null,
          role: null,
          excerpt: null,
          createdAt: null
        }
      : null
  }

  private firstCreatedAt(id: number): number | undefined {
    return this.db
      .prepare(
        "SELECT created_at FROM memory_history WHERE memory_id = ? AND action = 'create' ORDER BY id LIMIT 1"
      )
      .pluck()
      .get(id) as number | undefined
  }

  private record(
    row: MemoryRow,
    action: MemoryHistoryAction,
    reason: string,
    before: MemoryRow | null,
    now: number
  ): void {
    this.db
      .prepare(
        `INSERT INTO memory_history (memory_id, action, reason, content, category, previous_content,
                                     previous_category, source_thread_id, source_message_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        row.id,
        action,
        reason,
        row.content,
        row.category,
        before?.content ?? null,
        before?.category ?? null,
        row.source_thread_id,
        row.source_message_id,
        now
      )
  }
}

const EXCERPT_CHARS = 200

function excerpt(content: string): string {
  const flat = content.replace(/\s+/gu, ' ').trim()
  return flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS - 1)}…`
}
