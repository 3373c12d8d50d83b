import { describe, expect, it } from 'vitest'
import type { ContextMessage } from '@shared/context'
import { isEmptyReply } from '../../../src/main/context/emptyReplies'

const reply = (content: string): ContextMessage =>
  ({
    id: 1,
    seq: 1,
    role: 'assistant',
    content,
    toolCalls: null,
    toolCallId: null,
    tokenCount: 1,
    pinned: false,
    excluded: false
  }) as unknown as ContextMessage

describe('an empty reply', () => {
  it('is one with only white space, as trim() counts it, in any script', () => {
    for (const blank of ['', ' ', '\n\t', '\u3000\u3000', '\u00a0\ufeff\u2028']) {
      expect(isEmptyReply(reply(blank))).toBe(blank.trim() === '')
      expect(isEmptyReply(reply(blank))).toBe(true)
    }
    // A zero-width space is not white space to trim(), so it is text here too.
    for (const text of ['好', ' ok ', '\u200b', '\n\n.']) {
      expect(isEmptyReply(reply(text))).toBe(false)
    }
  })

  it('is never a user message or a reply that calls a tool', () => {
    expect(isEmptyReply({ ...reply(''), role: 'user' })).toBe(false)
    expect(
      isEmptyReply({
        ...reply(''),
        toolCalls: [{ id: 'c', name: 'x', arguments: '{}' }]
      } as ContextMessage)
    ).toBe(false)
  })
})
