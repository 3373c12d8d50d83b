/**
 * A thread's outline: each message's place, role, stored token count and flags, without its
 * text. A build reads no more of a message it does not send (the window's cut, pinned and
 * excluded messages, empty replies, the trace), so the first send after a long thread opens
 * builds from the outline plus the thread's newest messages read whole, instead of waiting for
 * the whole thread (services/chat/threadMessageCache.ts, `forBuild`).
 */
import type Database from 'better-sqlite3'
import type { Message, ToolCall } from '@shared/domain'
import { OUTLINE_FLAGS_SQL, ROLE_CODES } from './schema/messageOutlineIndex'

/** An outline's text: one visible character, or '' for a message with none. */
const OUTLINE_TEXT = '…'
/**
 * An outline's tool calls when the message makes some: it keeps the message's tool-call unit
 * whole (toolCallGroups.ts) and is never sent: `sendsOutline` (threadMessageCache.ts) checks.
 */
const OUTLINE_CALLS: ToolCall[] = [{ id: '', name: '', arguments: '' }]

export class MessageOutlines {
  constructor(private readonly db: Database.Database) {}

  /**
   * Up to `limit` messages after `afterSeq`, oldest first, as outlines (`content` is
   * OUTLINE_TEXT or ''; no reply row; `createdAt` 0). Read from the messages_outline index as
   * one string: a row at a time costs a JavaScript array per row, three times as long.
   */
  after(threadId: string, afterSeq: number, limit: number): Message[] {
    const packed = this.db
      .prepare(
        // The aggregate's own ORDER BY: only it guarantees group_concat's order.
        `SELECT group_concat(seq || ',' || id || ',' || token_count || ',' || flags, ',' ORDER BY seq)
           FROM (SELECT seq, id, token_count, ${OUTLINE_FLAGS_SQL} AS flags FROM messages
                  WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?)`
      )
      .pluck()
      .get(threadId, afterSeq, limit) as string | null
    if (packed === null) return []
    const numbers = JSON.parse(`[${packed}]`) as number[]
    const messages = new Array<Message>(numbers.length / 4)
    for (let i = 0, j = 0; j < numbers.length; i++, j += 4) {
      const flags = numbers[j + 3] as number
      messages[i] = {
        id: numbers[j + 1] as number,
        threadId,
        seq: numbers[j] as number,
        role: ROLE_CODES[(flags >> 4) & 3] as Message['role'],
        content: flags & 8 ? '' : OUTLINE_TEXT,
        toolCalls: flags & 4 ? OUTLINE_CALLS : null,
        toolCallId: null,
        tokenCount: numbers[j + 2] as number,
        createdAt: 0,
        pinned: (flags & 1) !== 0,
        excluded: (flags & 2) !== 0
      }
    }
    return messages
  }
}
