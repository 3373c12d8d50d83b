import type Database from 'better-sqlite3'
import type { CostParts } from '@shared/costReport'
import type { Message, ReplyInfo, ReplyStatus, Role, ToolCall } from '@shared/domain'

interface MessageRow {
  id: number
  thread_id: string
  seq: number
  role: Role
  content: string
  tool_calls: string | null
  tool_call_id: string | null
  token_count: number
  created_at: number
  pinned: number
  excluded: number
  summary_exempt?: number
}

export interface NewMessage {
  threadId: string
  role: Role
  content: string
  toolCalls?: ToolCall[] | null
  toolCallId?: string | null
  /** Counted once by the caller at insert time and cached; builds never recount. */
  tokenCount: number
  createdAt: number
}

interface UsageRow {
  message_id: number
  provider_id: string | null
  model_id: string
  status: ReplyStatus
  finish_reason: string | null
  prompt_tokens: number | null
  completion_tokens: number | null
  cache_read_tokens: number | null
  cache_write_tokens: number | null
  cost: number | null
  estimated_prompt_tokens: number | null
  superseded_by: number | null
  cost_parts?: string | null
}

function toReply(row: UsageRow): ReplyInfo {
  return {
    providerId: row.provider_id,
    modelId: row.model_id,
    status: row.status,
    usage:
      row.prompt_tokens === null
        ? null
        : {
            promptTokens: row.prompt_tokens,
            completionTokens: row.completion_tokens ?? 0,
            cacheReadTokens: row.cache_read_tokens ?? 0,
            cacheWriteTokens: row.cache_write_tokens ?? 0
          },
    cost: row.cost,
    estimatedPromptTokens: row.estimated_prompt_tokens,
    finishReason: row.finish_reason,
    supersededBy: row.superseded_by,
    ...(row.cost_parts != null && { costParts: JSON.parse(row.cost_parts) as CostParts })
  }
}

function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    threadId: row.thread_id,
    seq: row.seq,
    role: row.role,
    content: row.content,
    toolCalls: row.tool_calls === null ? null : (JSON.parse(row.tool_calls) as ToolCall[]),
    toolCallId: row.tool_call_id,
    tokenCount: row.token_count,
    createdAt: row.created_at,
    pinned: row.pinned === 1,
    excluded: row.excluded === 1,
    // Only when set, so the common message stays the shape it always had.
    ...(row.summary_exempt === 1 && { summaryExempt: true })
  }
}

export class MessageRepository {
  private readonly insertStatement: Database.Statement
  private readonly touchThread: Database.Statement

  constructor(private readonly db: Database.Database) {
    // seq is computed inside the INSERT so two writers can never take the same number.
    this.insertStatement = db.prepare(
      `INSERT INTO messages (thread_id, seq, role, content, tool_calls, tool_call_id, token_count, created_at)
       VALUES (@threadId,
               (SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE thread_id = @threadId),
               @role, @content, @toolCalls, @toolCallId, @tokenCount, @createdAt)
       RETURNING id, seq, pinned, excluded`
    )
    this.touchThread = db.prepare(
      'UPDATE threads SET updated_at = max(updated_at, @createdAt) WHERE id = @threadId'
    )
  }

  /** Stores a model's reply and what it reported, in one transaction. */
  appendReply(message: NewMessage, reply: ReplyInfo): Message {
    return this.db.transaction(() => {
      const stored = this.append(message)
      const usage = reply.usage
      this.db
        .prepare(
          `INSERT INTO message_usage (message_id, provider_id, model_id, status, finish_reason,
             prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost,
             estimated_prompt_tokens, superseded_by, cost_parts)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(
          stored.id,
          reply.providerId,
          reply.modelId,
          reply.status,
          reply.finishReason,
          usage?.promptTokens ?? null,
          usage?.completionTokens ?? null,
          usage?.cacheReadTokens ?? null,
          usage?.cacheWriteTokens ?? null,
          reply.cost,
          reply.estimatedPromptTokens,
          reply.supersededBy,
          reply.costParts ? JSON.stringify(reply.costParts) : null
        )
      return { ...stored, reply: { ...reply } }
    })()
  }

  /**
   * Marks a reply as replaced by a newer one (regenerate) and excludes it from later
   * requests; the text is kept. Messages without a reply row get one only for the mark.
   */
  supersede(id: number, by: number): Message | undefined {
    return this.db.transaction(() => {
      this.db.prepare('UPDATE message_usage SET superseded_by = ? WHERE message_id = ?').run(by, id)
      return this.setFlags(id, { excluded: true })
    })()
  }

  get(id: number): Message | undefined {
    const row = this.db.prepare('SELECT * FROM messages WHERE id = ?').get(id) as
      MessageRow | undefined
    return row && this.withReplies([toMessage(row)])[0]
  }

  /**
   * Stores the message and bumps the thread's activity in one transaction. Only what the
   * store decides comes back: reading a 2 M-character paste back held the main thread for
   * another 50 ms.
   */
  append(message: NewMessage): Message {
    const toolCalls = message.toolCalls ? JSON.stringify(message.toolCalls) : null
    const toolCallId = message.toolCallId ?? null
    return this.db.transaction(() => {
      const decided = this.insertStatement.get({
        threadId: message.threadId,
        role: message.role,
        content: message.content,
        toolCalls,
        toolCallId,
        tokenCount: message.tokenCount,
        createdAt: message.createdAt
      }) as Pick<MessageRow, 'id' | 'seq' | 'pinned' | 'excluded'>
      const row: MessageRow = {
        ...decided,
        thread_id: message.threadId,
        role: message.role,
        content: message.content,
        tool_calls: toolCalls,
        tool_call_id: toolCallId,
        token_count: message.tokenCount,
        created_at: message.createdAt
      }
      this.touchThread.run({ threadId: message.threadId, createdAt: message.createdAt })
      return toMessage(row)
    })()
  }

  listByThread(threadId: string): Message[] {
    return this.range(threadId, 0, Number.MAX_SAFE_INTEGER, -1, 'oldest')
  }

  /** Up to `limit` messages after `afterSeq`, oldest first (a thread read in slices). */
  listAfter(threadId: string, afterSeq: number, limit: number): Message[] {
    return this.range(threadId, afterSeq, Number.MAX_SAFE_INTEGER, limit, 'oldest')
  }

  /**
   * The newest `limit` messages before `beforeSeq` (all of them when null), returned oldest
   * first, and whether older ones exist: a page of a thread opened at its end.
   */
  pageBefore(
    threadId: string,
    beforeSeq: number | null,
    limit: number
  ): { messages: Message[]; hasOlder: boolean } {
    const rows = this.range(threadId, 0, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1, 'newest')
    const hasOlder = rows.length > limit
    return { messages: rows.slice(0, limit).reverse(), hasOlder }
  }

  /** Whether the thread has a message before `seq` (served by the (thread_id, seq) index). */
  hasBefore(threadId: string, seq: number): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM messages WHERE thread_id = ? AND seq < ? LIMIT 1')
        .get(threadId, seq) !== undefined
    )
  }

  /**
   * Messages with `afterSeq < seq < beforeSeq`, at most `limit` (-1: no limit) from the
   * `from` end, with their reply rows; every read is an index range, never a scan.
   */
  private range(
    threadId: string,
    afterSeq: number,
    beforeSeq: number,
    limit: number,
    from: 'oldest' | 'newest'
  ): Message[] {
    const order = from === 'oldest' ? 'ASC' : 'DESC'
    const rows = this.db
      .prepare(
        `SELECT * FROM messages WHERE thread_id = ? AND seq > ? AND seq < ?
          ORDER BY seq ${order} LIMIT ?`
      )
      .all(threadId, afterSeq, beforeSeq, limit) as MessageRow[]
    if (rows.length === 0) return []
    // Rows are in seq order, so the first and the last bound the range.
    const first = (rows[0] as MessageRow).seq
    const last = (rows.at(-1) as MessageRow).seq
    const replies = this.db
      .prepare(
        `SELECT u.* FROM message_usage u JOIN messages m ON m.id = u.message_id
          WHERE m.thread_id = ? AND m.seq BETWEEN ? AND ?`
      )
      .all(threadId, Math.min(first, last), Math.max(first, last)) as UsageRow[]
    const byId = new Map(replies.map((r) => [r.message_id, toReply(r)]))
    return rows.map((row) => {
      const message = toMessage(row)
      const reply = byId.get(row.id)
      return reply ? { ...message, reply } : message
    })
  }

  private withReplies(messages: Message[]): Message[] {
    const statement = this.db.prepare('SELECT * FROM message_usage WHERE message_id = ?')
    return messages.map((message) => {
      const row = statement.get(message.id) as UsageRow | undefined
      return row ? { ...message, reply: toReply(row) } : message
    })
  }

  /** Messages of a thread with `fromSeq <= seq <= toSeq` (the thread's unique seq index). */
  listSeqRange(threadId: string, fromSeq: number, toSeq: number): Message[] {
    const rows = this.db
      .prepare('SELECT * FROM messages WHERE thread_id = ? AND seq BETWEEN ? AND ? ORDER BY seq')
      .all(threadId, fromSeq, toSeq) as MessageRow[]
    return this.withReplies(rows.map(toMessage))
  }

  /** Served by a partial index, so pinned messages are found without scanning the thread. */
  listPinned(threadId: string): Message[] {
    const rows = this.db
      .prepare('SELECT * FROM messages WHERE thread_id = ? AND pinned = 1 ORDER BY seq')
      .all(threadId) as MessageRow[]
    return rows.map(toMessage)
  }

  /** A primary-key lookup that reads no content: the caller only needs where the message is. */
  locate(id: number): { threadId: string; seq: number } | undefined {
    return this.db
      .prepare('SELECT thread_id AS threadId, seq FROM messages WHERE id = ?')
      .get(id) as { threadId: string; seq: number } | undefined
  }

  /** Corrects a stored count (a long paste is stored with its estimate, then counted). */
  /** False when the message is gone (its thread was deleted meanwhile). */
  setTokenCount(id: number, tokenCount: number): boolean {
    return (
      this.db.prepare('UPDATE messages SET token_count = ? WHERE id = ?').run(tokenCount, id)
        .changes > 0
    )
  }

  setFlags(
    id: number,
    flags: { pinned?: boolean; excluded?: boolean; summaryExempt?: boolean }
  ): Message | undefined {
    const flag = (value: boolean | undefined) => (value === undefined ? null : Number(value))
    const row = this.db
      .prepare(
        `UPDATE messages
            SET pinned = coalesce(@pinned, pinned), excluded = coalesce(@excluded, excluded),
                summary_exempt = coalesce(@summaryExempt, summary_exempt)
          WHERE id = @id
          RETURNING *`
      )
      .get({
        id,
        pinned: flag(flags.pinned),
        excluded: flag(flags.excluded),
        summaryExempt: flag(flags.summaryExempt)
      }) as MessageRow | undefined
    return row && this.withReplies([toMessage(row)])[0]
  }
}
