import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/domain'
import { rowsOf } from '@renderer/features/chat/replyVersions'

const message = (id: number, role: Message['role'], supersededBy: number | null = null) =>
  ({
    id,
    threadId: '00000000-0000-4000-8000-000000000001',
    seq: id,
    role,
    content: `message ${id}`,
    toolCalls: null,
    toolCallId: null,
    tokenCount: 3,
    createdAt: id,
    pinned: false,
    excluded: supersededBy !== null,
    ...(role === 'assistant' && {
      reply: {
        providerId: 'p1',
        modelId: 'm1',
        status: 'complete',
        usage: null,
        cost: null,
        estimatedPromptTokens: null,
        finishReason: 'stop',
        supersededBy
      }
    })
  }) satisfies Message

describe('the rows of the chat list', () => {
  it('leaves a replaced reply where it is while what replaced it is not loaded', () => {
    // Reply 2 was replaced by message 99, which this list does not hold.
    const rows = rowsOf([message(1, 'user'), message(2, 'assistant', 99), message(3, 'assistant')])

    expect(rows.map((row) => row.message.id)).toEqual([1, 2, 3])
    expect(rows[1]!.versions).toEqual([[rows[1]!.message]])
  })

  it('folds a regenerated reply into the row of the reply that replaced it', () => {
    const rows = rowsOf([message(1, 'user'), message(2, 'assistant', 3), message(3, 'assistant')])

    expect(rows.map((row) => row.message.id)).toEqual([1, 3])
    expect(rows[1]!.versions.map((version) => version.map((m) => m.id))).toEqual([[2], [3]])
  })
})
