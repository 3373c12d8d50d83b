import { describe, expect, it, vi } from 'vitest'
import { buildContext } from '../../../src/main/context/contextBuilder'
import { tokenCounterFor } from '../../../src/main/context/tokens/tokenCounter'
import type { BuiltContext, ContextMessage } from '@shared/context'
import { config, message, request } from './threadBuilder'

function decisions(built: BuiltContext): Record<string, string> {
  return Object.fromEntries(built.trace.map((t) => [t.id, t.decision]))
}

describe('long threads', () => {
  // Counted once here, as at insert; the builds below must not touch the other 99.9k.
  const thread: ContextMessage[] = Array.from({ length: 100_000 }, (_, i) => ({
    ...message(1, i % 2 ? 'assistant' : 'user', ''),
    id: String(i + 1),
    seq: i + 1,
    content: `message ${i + 1}`,
    tokenCount: 40
  }))

  it('builds over 100k messages without counting them: only what it sends is tokenized', () => {
    // The speed itself is `npm run bench`'s (build p50 at 100k); what makes it fast is that
    // stored counts are trusted, so the text given to the tokenizer is what the request holds.
    const counter = tokenCounterFor(config().model)
    const spies = [vi.spyOn(counter, 'count'), vi.spyOn(counter, 'countSteps')]
    try {
      const pinned = [thread[10] as ContextMessage]
      const built = buildContext(request({ messages: thread, pinned, input: 'draft' }), config())
      const counted = spies
        .flatMap((spy) => spy.mock.calls.map(([text]) => text.length))
        .reduce((n, chars) => n + chars, 0)
      const sent = built.messages.reduce((n, m) => n + m.content.length, 0)
      expect(built.messages.length).toBeLessThan(thread.length / 10)
      expect(counted).toBeGreaterThan(0) // the framing and the input are counted here
      expect(counted).toBeLessThanOrEqual(sent)
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
  })

  it('sends a pinned message passed on its own, even when not in the array or summarised', () => {
    const tail = thread.slice(-50)
    const old = { ...(thread[10] as ContextMessage), pinned: true }
    const built = buildContext(
      request({ messages: tail, pinned: [old], summary: { content: 'S', lastMessageSeq: 99_990 } }),
      config({ totalBudget: 3000 })
    )
    expect(decisions(built)['11']).toBe('pinned')
    expect(built.messages.find((m) => m.content === 'message 11')).toBeDefined()
  })
})

describe('malformed tool-call history', () => {
  it('warns about a tool result without its call and a call without its result', () => {
    const thread = [
      message(1, 'tool', 'orphan result', { toolCallId: 'gone' }),
      message(2, 'user', 'next'),
      message(3, 'assistant', '', { toolCalls: [{ id: 'c9', name: 'search', arguments: '{}' }] })
    ]
    const built = buildContext(request({ messages: thread }), config())
    expect(built.metadata.warnings.map((w) => w.code)).toEqual([
      'orphan_tool_result',
      'unanswered_tool_call'
    ])
  })
})

describe('message order', () => {
  const ordered = (policy: 'chunked' | 'sliding') =>
    buildContext(
      request({
        systemPrompt: 'SYSTEM',
        summary: { content: 'SUMMARY', lastMessageSeq: 1 },
        memories: [{ id: 'm', content: 'MEMORY', score: 1 }],
        messages: [
          message(1, 'user', 'old'),
          message(2, 'user', 'Please write the parser.'),
          message(3, 'assistant', 'RECENT')
        ],
        input: 'INPUT',
        taskState: { goals: [{ text: 'Please write the parser.', seq: 2, status: 'active' }] }
      }),
      config({ totalBudget: 5000, pinning: true, window: { policy } })
    )
  const firstLines = (built: BuiltContext) =>
    built.messages.map((m) => `${m.role}:${m.content.split('\n')[0]}`)

  it('is system, summary, recent (the stable prefix), then memories, pinning, input', () => {
    const built = ordered('chunked')
    expect(firstLines(built)).toEqual([
      'system:SYSTEM',
      'system:[Summary of the conversation up to message #1]',
      'user:Please write the parser.',
      'assistant:RECENT',
      'system:[Memories: from earlier conversations, most relevant first]',
      'system:[Current goal] "Please write the parser." (message #2). Status: in progress.',
      'user:INPUT'
    ])
    expect(built.window).toEqual({ policy: 'chunked', firstKeptSeq: 2, stablePrefixMessages: 4 })
    expect(built.trace.map((t) => t.kind)).toEqual([
      'system',
      'summary',
      'memory',
      'message',
      'message',
      'message',
      'input',
      'pinning'
    ])
    expect(JSON.parse(JSON.stringify(built))).toEqual(built)
  })

  it('keeps the order from before the chunked window with the sliding policy', () => {
    const built = ordered('sliding')
    expect(firstLines(built)).toEqual([
      'system:SYSTEM',
      'system:[Summary of the conversation up to message #1]',
      'system:[Memories: from earlier conversations, most relevant first]',
      'user:Please write the parser.',
      'assistant:RECENT',
      'system:[Current goal] "Please write the parser." (message #2). Status: in progress.',
      'user:INPUT'
    ])
    expect(built.window).toEqual({ policy: 'sliding', firstKeptSeq: 2, stablePrefixMessages: 2 })
  })
})
