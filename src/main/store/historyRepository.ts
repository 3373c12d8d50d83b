import type Database from 'better-sqlite3'
import type { StoredBuild } from '@shared/context'
import type { Memory, MemoryHistoryEntry, Message, ReplyInfo } from '@shared/domain'
import { BuildRepository } from './buildRepository'
import { contentHash, MemoryRepository } from './memoryRepository'
import { MessageRepository } from './messageRepository'
import { threadBudgetUpgrader } from './schema/threadBudgetUpgrades'
import { SummaryRepository } from './summaryRepository'

/** A message ready to insert: its seq and token count are already decided. */
type ImportMessageRow = Omit<Message, 'id' | 'threadId' | 'reply'> & {
  reply: ReplyInfo | null
  /** The id in the exported file, for memories' and replies' references. */
  sourceId: number | null
}

export interface ImportThreadRow {
  key: string
  id: string
  title: string
  createdAt: number
  updatedAt: number
  settings: Record<string, unknown>
  /** The store schema `settings` were saved at; undefined: this app's. */
  settingsSchema?: number
  forkedFrom: { threadId: string; seq: number } | null
  messages: ImportMessageRow[]
  summary: {
    content: string
    lastMessageSeq: number
    version: number
    source: 'model' | 'fallback' | 'user'
    updatedAt: number
  } | null
}

export interface ImportMemoryRow {
  content: string
  category: Memory['category']
  sourceThreadId: string | null
  sourceMessageId: number | null
  createdAt: number
  updatedAt: number
  history: Omit<MemoryHistoryEntry, 'id' | 'memoryId'>[]
}

export interface ExportThreadRow {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  settings: Record<string, unknown>
  forkedFromThreadId: string | null
  forkedFromSeq: number | null
}

/**
 * Writes imported conversations (each in its own transaction, with its import key) and reads
 * everything an export needs. Messages keep their seq and times; the FTS and embedding-queue
 * triggers index them as they are inserted.
 */
export class HistoryRepository {
  private readonly insertThread: Database.Statement
  private readonly insertMessage: Database.Statement
  private readonly insertKey: Database.Statement
  private readonly messages: MessageRepository
  private readonly memories: MemoryRepository
  /** Prepared on the first imported thread that needs it: exports never do. */
  private upgrader: ReturnType<typeof threadBudgetUpgrader> | undefined

  constructor(private readonly db: Database.Database) {
    this.insertThread = db.prepare(
      `INSERT INTO threads (id, title, created_at, updated_at, settings, forked_from_thread_id, forked_from_seq)
       VALUES (@id, @title, @createdAt, @updatedAt, @settings, @forkedFromThreadId, @forkedFromSeq)`
    )
    this.insertMessage = db.prepare(
      `INSERT INTO messages (thread_id, seq, role, content, tool_calls, tool_call_id, token_count,
                             created_at, pinned, excluded)
       VALUES (@threadId, @seq, @role, @content, @toolCalls, @toolCallId, @tokenCount, @createdAt,
               @pinned, @excluded)`
    )
    this.insertKey = db.prepare(
      'INSERT INTO import_keys (key, thread_id, imported_at) VALUES (?, ?, ?)'
    )
    this.messages = new MessageRepository(db)
    this.memories = new MemoryRepository(db)
  }

  /** The thread an import key made, if it is still there. */
  threadForKey(key: string): string | null {
    const row = this.db.prepare('SELECT thread_id FROM import_keys WHERE key = ?').get(key) as
      { thread_id: string } | undefined
    return row?.thread_id ?? null
  }

  threadTitle(id: string): string | null {
    const title = this.db.prepare('SELECT title FROM threads WHERE id = ?').pluck().get(id)
    return typeof title === 'string' ? title : null
  }

  threadExists(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM threads WHERE id = ?').get(id) !== undefined
  }

  memoryExists(content: string): boolean {
    return this.memories.findByHash(contentHash(content)) !== undefined
  }

  /**
   * Writes the threads of one conversation (and its memories) in one transaction: either all
   * of it is stored or none. `messageIds` maps exported message ids to the new ones, for
   * memories and superseded replies. Returns the messages written.
   */
  writeConversation(
    threads: readonly ImportThreadRow[],
    memories: readonly ImportMemoryRow[],
    messageIds: Map<number, number>,
    now: number
  ): number {
    return this.db.transaction(() => {
      let written = 0
      for (const thread of threads) written += this.writeThread(thread, messageIds, now)
      for (const memory of memories) this.writeMemory(memory, messageIds)
      return written
    })()
  }

  /** A budget saved at an older store schema is upgraded as the migrations since did (docs/HISTORY.md). */
  private upgradeBudget(threadId: string, schema: number): void {
    this.upgrader ??= threadBudgetUpgrader(this.db)
    this.upgrader(threadId, schema)
  }

  private writeThread(thread: ImportThreadRow, messageIds: Map<number, number>, now: number) {
    this.insertThread.run({
      id: thread.id,
      title: thread.title,
      createdAt: thread.createdAt,
      updatedAt: thread.updatedAt,
      settings: JSON.stringify(thread.settings),
      forkedFromThreadId: thread.forkedFrom?.threadId ?? null,
      forkedFromSeq: thread.forkedFrom?.seq ?? null
    })
    if (thread.settingsSchema !== undefined) this.upgradeBudget(thread.id, thread.settingsSchema)
    const replies: { id: number; reply: ReplyInfo }[] = []
    for (const message of thread.messages) {
      const id = Number(
        this.insertMessage.run({
          threadId: thread.id,
          seq: message.seq,
          role: message.role,
          content: message.content,
          toolCalls: message.toolCalls ? JSON.stringify(message.toolCalls) : null,
          toolCallId: message.toolCallId,
          tokenCount: message.tokenCount,
          createdAt: message.createdAt,
          pinned: Number(message.pinned),
          excluded: Number(message.excluded)
        }).lastInsertRowid
      )
      if (message.sourceId !== null) messageIds.set(message.sourceId, id)
      if (message.reply) replies.push({ id, reply: message.reply })
    }
    const usage = this.db.prepare(
      `INSERT INTO message_usage (message_id, provider_id, model_id, status, finish_reason,
         prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost,
         estimated_prompt_tokens, superseded_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    for (const { id, reply } of replies) {
      const by = reply.supersededBy === null ? null : (messageIds.get(reply.supersededBy) ?? null)
      usage.run(
        id,
        reply.providerId,
        reply.modelId,
        reply.status,
        reply.finishReason,
        reply.usage?.promptTokens ?? null,
        reply.usage?.completionTokens ?? null,
        reply.usage?.cacheReadTokens ?? null,
        reply.usage?.cacheWriteTokens ?? null,
        reply.cost,
        reply.estimatedPromptTokens,
        by
      )
    }
    if (thread.summary) {
      const s = thread.summary
      this.db
        .prepare(
          `INSERT INTO thread_summaries (thread_id, content, last_message_seq, version, source, updated_at)
           VALUES (?, ?, ?, ?, ?, ?)`
        )
        .run(thread.id, s.content, s.lastMessageSeq, s.version, s.source, s.updatedAt)
    }
    this.insertKey.run(thread.key, thread.id, now)
    return thread.messages.length
  }

  private writeMemory(memory: ImportMemoryRow, messageIds: Map<number, number>): void {
    const message = (id: number | null) => (id === null ? null : (messageIds.get(id) ?? null))
    const thread = (id: string | null) => (id !== null && this.threadExists(id) ? id : null)
    const { lastInsertRowid } = this.db
      .prepare(
        `INSERT INTO memories (content, category, source_thread_id, source_message_id, content_hash,
                               created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        memory.content,
        memory.category,
        thread(memory.sourceThreadId),
        message(memory.sourceMessageId),
        contentHash(memory.content),
        memory.createdAt,
        memory.updatedAt
      )
    const history = this.db.prepare(
      `INSERT INTO memory_history (memory_id, action, reason, content, category, previous_content,
         previous_category, source_thread_id, source_message_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    for (const entry of memory.history) {
      history.run(
        Number(lastInsertRowid),
        entry.action,
        entry.reason,
        entry.content,
        entry.category,
        entry.previousContent,
        entry.previousCategory,
        thread(entry.sourceThreadId),
        message(entry.sourceMessageId),
        entry.createdAt
      )
    }
  }

  // ---- export ----

  /** Origins before their forks, then by creation time, so an import can link every fork. */
  exportThreads(threadId?: string): ExportThreadRow[] {
    const rows = this.db
      .prepare(
        `SELECT id, title, created_at, updated_at, settings, forked_from_thread_id, forked_from_seq
           FROM threads ${threadId ? 'WHERE id = ?' : ''}
          ORDER BY forked_from_thread_id IS NOT NULL, created_at, id`
      )
      .all(...(threadId ? [threadId] : [])) as {
      id: string
      title: string
      created_at: number
      updated_at: number
      settings: string
      forked_from_thread_id: string | null
      forked_from_seq: number | null
    }[]
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      settings: JSON.parse(row.settings) as Record<string, unknown>,
      forkedFromThreadId: row.forked_from_thread_id,
      forkedFromSeq: row.forked_from_seq
    }))
  }

  threadMessages(threadId: string): Message[] {
    return this.messages.listByThread(threadId)
  }

  summary(threadId: string) {
    return new SummaryRepository(this.db).get(threadId)
  }

  /** Oldest first: the order the requests were sent in. */
  builds(threadId: string): StoredBuild[] {
    return new BuildRepository(this.db, Number.MAX_SAFE_INTEGER).list(threadId).reverse()
  }

  /** Every memory (or those taken from one thread) with its history. */
  exportMemories(threadId?: string): (Memory & { history: MemoryHistoryEntry[] })[] {
    const ids = this.db
      .prepare(
        `SELECT id FROM memories ${threadId ? 'WHERE source_thread_id = ?' : ''} ORDER BY id`
      )
      .pluck()
      .all(...(threadId ? [threadId] : [])) as number[]
    const memories = this.memories.getMany(ids)
    return ids.flatMap((id) => {
      const memory = memories.get(id)
      return memory ? [{ ...memory, history: this.memories.history(id) }] : []
    })
  }
}
