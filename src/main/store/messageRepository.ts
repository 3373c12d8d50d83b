import type Database from 'better-sqlite3'
import type { Message, Role, ToolCall } from '@shared/domain'

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

export function toMessage(row: MessageRow): Message {
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
    excluded: row.excluded === 1
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
       RETURNING *`
    )
    this.touchThread = db.prepare(
      'UPDATE threads SET updated_at = max(updated_at, @createdAt) WHERE id = @threadId'
    )
  }

  /** Stores the message and bumps the thread's activity in one transaction. */
  append(message: NewMessage): Message {
    return this.db.transaction(() => {
      const row = this.insertStatement.get({
        threadId: message.threadId,
        role: message.role,
        content: message.content,
        toolCalls: message.toolCalls ? JSON.stringify(message.toolCalls) : null,
        toolCallId: message.toolCallId ?? null,
        tokenCount: message.tokenCount,
        createdAt: message.createdAt
      }) as MessageRow
      this.touchThread.run({ threadId: message.threadId, createdAt: message.createdAt })
      return toMessage(row)
    })()
  }

  listByThread(threadId: string): Message[] {
    const rows = this.db
      .prepare('SELECT * FROM messages WHERE thread_id = ? ORDER BY seq')
      .all(threadId) as MessageRow[]
    return rows.map(toMessage)
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

  setFlags(id: number, flags: { pinned?: boolean; excluded?: boolean }): Message | undefined {
    const row = this.db
      .prepare(
        `UPDATE messages
            SET pinned = coalesce(@pinned, pinned), excluded = coalesce(@excluded, excluded)
          WHERE id = @id
          RETURNING *`
      )
      .get({
        id,
        pinned: flags.pinned === undefined ? null : Number(flags.pinned),
        excluded: flags.excluded === undefined ? null : Number(flags.excluded)
      }) as MessageRow | undefined
    return row && toMessage(row)
  }
}
