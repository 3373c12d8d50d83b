import { describe, expect, it, vi } from 'vitest'
import { buildContext } from '../../../src/main/context/contextBuilder'
import { REPLY_PRIMING_TOKENS, TokenMeter } from '../../../src/main/context/tokens/messageTokens'
import { TRACE_DETAIL_LIMIT } from '../../../src/main/context/sections/slidingWindow'
import { o200kCounter, tokenCounterFor } from '../../../src/main/context/tokens/tokenCounter'
import type { BuiltContext, ContextMessage } from '@shared/context'
import { chat, config, message, request, toolGroup } from './threadBuilder'

const meter = new TokenMeter(o200kCounter, 1)
const cost = (...messages: ContextMessage[]): number =>
  messages.reduce((sum, m) => sum + meter.stored(m.tokenCount), 0)
const inputCost = (input: string): number => meter.message(input) + REPLY_PRIMING_TOKENS

/** Everything to the recent section, so the window gets exactly `total - input`. */
const recentOnly = (totalBudget: number) =>
  config({
    totalBudget,
    percentages: {
      system: 0,
      summary: 0,
      retrieved: 0,
      recent: 100,
      input: 0,
      attachments: 0,
      tools: 0
    },
    window: { policy: 'sliding' }
  })

function decisions(built: BuiltContext): Record<string, string> {
  return Object.fromEntries(built.trace.map((t) => [t.id, t.decision]))
}

describe('the sliding window', () => {
  const first = message(1, 'user', 'Please read a.ts and b.ts')
  const group = toolGroup(2, ['call_a', 'call_b'], 'export const value = 42 // '.repeat(5))
  const last = message(5, 'user', 'Thanks. What does value do?')
  const messages = [first, ...group, last]

  it('keeps a tool call and its results together when the budget ends inside them', () => {
    const budget = inputCost('hello') + cost(last) + cost(...group) - 1
    const built = buildContext(request({ messages }), recentOnly(budget))
    expect(decisions(built)).toMatchObject({
      '1': 'dropped_budget',
      '2': 'dropped_budget',
      '3': 'dropped_budget',
      '4': 'dropped_budget',
      '5': 'included'
    })
    expect(built.messages.map((m) => m.role)).toEqual(['user', 'user'])
  })

  it('takes the whole group once it fits, in order, with tool-call ids intact', () => {
    const budget = inputCost('hello') + cost(last) + cost(...group)
    const built = buildContext(request({ messages }), recentOnly(budget))
    expect(built.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'user', 'user'])
    expect(built.messages[0]?.toolCalls?.map((c) => c.id)).toEqual(['call_a', 'call_b'])
    expect(built.messages[1]?.toolCallId).toBe('call_a')
    expect(decisions(built)['1']).toBe('dropped_budget')
    expect(built.tokenStats.sections.recent.used).toBe(cost(last) + cost(...group))
  })

  it('stops at the first unit that does not fit instead of leaving a gap', () => {
    const big = message(2, 'assistant', 'long answer '.repeat(200))
    const thread = [message(1, 'user', 'q1'), big, message(3, 'user', 'q2')]
    const budget =
      inputCost('hello') + cost(thread[2] as ContextMessage) + cost(thread[0] as ContextMessage)
    const built = buildContext(request({ messages: thread }), recentOnly(budget))
    expect(decisions(built)).toMatchObject({
      '1': 'dropped_budget',
      '2': 'dropped_budget',
      '3': 'included'
    })
  })

  it('never sends an empty model reply back, and says why in the trace', () => {
    const thread = [
      message(1, 'user', 'q1'),
      message(2, 'assistant', ''),
      message(3, 'user', 'q1 again'),
      { ...message(4, 'assistant', ' \n'), pinned: true },
      ...toolGroup(5, ['call_a']),
      message(7, 'assistant', 'done')
    ]
    const built = buildContext(request({ messages: thread }), config({ totalBudget: 10_000 }))
    expect(built.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'q1'],
      ['user', 'q1 again'],
      ['assistant', ''],
      ['tool', 'file contents 0'],
      ['assistant', 'done'],
      ['user', 'hello']
    ])
    // The tool call's empty text is not an empty reply: it carries the call.
    expect(built.messages[2]?.toolCalls?.map((c) => c.id)).toEqual(['call_a'])
    const dropped = built.trace.filter((t) => t.decision === 'empty_reply')
    expect(dropped.map((t) => t.seq)).toEqual([2, 4])
    expect(dropped[0]?.note).toMatch(/no text.*never sent back/)
    expect(decisions(built)).toMatchObject({ '1': 'included', '5': 'included', '7': 'included' })
  })

  it('reads only the messages after the summary for empty replies; the summary covers the rest', () => {
    // A getter stands in for the text of a covered message: the build must never read it
    // (reading every message's text made 100,000-message builds 60 ms; npm run bench).
    const covered = Object.defineProperty({ ...message(2, 'assistant', 'x') }, 'content', {
      get: () => {
        throw new Error('read the text of a message the summary covers')
      }
    })
    const thread = [
      message(1, 'user', 'q1'),
      covered,
      message(3, 'user', 'q2'),
      message(4, 'assistant', ''),
      message(5, 'user', 'q3')
    ]
    const built = buildContext(
      request({ messages: thread, summary: { content: 'S', lastMessageSeq: 2 } }),
      config({ totalBudget: 10_000 })
    )
    expect(built.trace.filter((t) => t.decision === 'empty_reply').map((t) => t.seq)).toEqual([4])
    expect(decisions(built)).toMatchObject({ '3': 'included', '5': 'included' })
  })

  it('uses the cached token counts as stored, never recounting them', () => {
    const stale = { ...message(1, 'user', 'hi'), tokenCount: 500 }
    const built = buildContext(request({ messages: [stale] }), config({ totalBudget: 10_000 }))
    expect(built.trace.find((t) => t.id === '1')?.tokens).toBe(503)
  })

  it('sends pinned messages whatever their age, and never excluded ones', () => {
    const thread = chat(120)
    const pinnedOld = { ...(thread[4] as ContextMessage), pinned: true }
    const excludedNew = { ...(thread[118] as ContextMessage), excluded: true }
    thread[4] = pinnedOld
    thread[118] = excludedNew
    const built = buildContext(request({ messages: thread }), config({ totalBudget: 1000 }))
    const d = decisions(built)
    expect(d['5']).toBe('pinned')
    expect(d['119']).toBe('excluded_by_user')
    expect(d['120']).toBe('included')
    expect(d['4']).toBe('dropped_budget')
    const contents = built.messages.map((m) => m.content)
    expect(contents).toContain(pinnedOld.content)
    expect(contents).not.toContain(excludedNew.content)
    // Pinned messages keep their place in time: before the window's messages.
    expect(contents.indexOf(pinnedOld.content)).toBeLessThan(
      contents.indexOf((thread[119] as ContextMessage).content)
    )
  })

  it('pins a tool result together with its call; excluding a member leaves the group out', () => {
    const g1 = toolGroup(2, ['c1'])
    const g2 = toolGroup(4, ['c2'])
    const thread = [message(1, 'user', 'go'), ...g1, ...g2, ...chat(200, 6)]
    thread[2] = { ...(thread[2] as ContextMessage), pinned: true } // result of c1
    thread[3] = { ...(thread[3] as ContextMessage), excluded: true } // call c2
    const built = buildContext(request({ messages: thread }), config({ totalBudget: 600 }))
    const d = decisions(built)
    expect(d['2']).toBe('included')
    expect(d['3']).toBe('pinned')
    expect(built.trace.find((t) => t.id === '2')?.note).toMatch(/pinned message #3/)
    const calls = built.messages.filter((m) => m.toolCalls)
    expect(calls.map((m) => m.toolCalls?.[0]?.id)).toEqual(['c1'])
  })

  it('lists old dropped messages one by one up to a limit, then as ranges', () => {
    const thread = Array.from({ length: 100_000 }, (_, i) => ({
      ...message(i + 1, 'user', ''),
      tokenCount: 20
    }))
    const built = buildContext(
      request({ messages: thread, summary: { content: 'Long story.', lastMessageSeq: 50_000 } }),
      config({ totalBudget: 2000 })
    )
    const listed = built.trace.filter((t) => t.kind === 'message' && t.decision !== 'included')
    expect(listed).toHaveLength(TRACE_DETAIL_LIMIT)
    const included = built.metadata.includedMessageCount
    expect(built.collapsed).toEqual([
      {
        decision: 'dropped_budget',
        fromSeq: 50_001,
        toSeq: 100_000 - included - TRACE_DETAIL_LIMIT,
        count: 50_000 - included - TRACE_DETAIL_LIMIT
      },
      { decision: 'covered_by_summary', fromSeq: 1, toSeq: 50_000, count: 50_000 }
    ])
    expect(built.metadata.droppedMessageCount).toBe(50_000 - included)
    expect(built.metadata.summarizedMessageCount).toBe(50_000)
  })
})

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

describe('the summary boundary', () => {
  it('marks covered messages and sends the summary first after the system prompt', () => {
    const built = buildContext(
      request({
        messages: chat(10),
        systemPrompt: 'Be brief.',
        summary: { content: 'They agreed on a plan.', lastMessageSeq: 6 }
      }),
      config({ totalBudget: 5000 })
    )
    expect(built.metadata).toMatchObject({
      usedSummary: true,
      summarizedMessageCount: 6,
      includedMessageCount: 4
    })
    expect(decisions(built)['6']).toBe('covered_by_summary')
    expect(built.messages[1]?.content).toMatch(
      /^\[Summary of the conversation up to message #6\]\nThey agreed/
    )
  })

  it('sends a tool call whose results the summary does not cover, whole', () => {
    const thread = [message(1, 'user', 'go'), ...toolGroup(2, ['c1']), message(4, 'user', 'next')]
    const built = buildContext(
      request({ messages: thread, summary: { content: 'S', lastMessageSeq: 2 } }),
      config({ totalBudget: 5000 })
    )
    expect(decisions(built)).toMatchObject({
      '1': 'covered_by_summary',
      '2': 'included',
      '3': 'included'
    })
  })
})

describe('the input guarantee', () => {
  it('sends a huge input whole, last, and says it is over budget', () => {
    const input = '请帮我检查这段日志。'.repeat(2000)
    const built = buildContext(
      request({ input, messages: chat(20) }),
      config({ totalBudget: 2000 })
    )
    expect(built.messages.at(-1)).toEqual({ role: 'user', content: input })
    expect(built.metadata.warnings.map((w) => w.code)).toContain('input_over_budget')
    expect(built.tokenStats.sections.input.used).toBe(inputCost(input))
    expect(built.metadata.includedMessageCount).toBe(0)
  })

  it('takes budget from the other sections before declaring the input too big', () => {
    const input = 'word '.repeat(300)
    const built = buildContext(
      request({ input, messages: chat(200) }),
      config({ totalBudget: 1000 })
    )
    expect(built.metadata.warnings).toEqual([])
    expect(built.tokenStats.sections.input.budget).toBeGreaterThan(
      built.tokenStats.sections.input.share
    )
    expect(built.tokenStats.total).toBeLessThanOrEqual(1000)
  })
})

describe('the system prompt', () => {
  it('is cut only as a last resort, with a warning', () => {
    const systemPrompt = 'Rule: always cite your sources. '.repeat(100)
    const roomy = buildContext(
      request({ systemPrompt, messages: chat(50) }),
      config({ totalBudget: 2000 })
    )
    expect(roomy.messages[0]?.content).toBe(systemPrompt)
    expect(roomy.metadata.warnings).toEqual([])
    const tight = buildContext(request({ systemPrompt }), config({ totalBudget: 300 }))
    expect(tight.metadata.warnings.map((w) => w.code)).toEqual(['system_truncated'])
    expect(systemPrompt.startsWith(tight.messages[0]?.content ?? 'x')).toBe(true)
    expect(tight.trace[0]).toMatchObject({
      id: 'system',
      decision: 'included',
      note: expect.stringMatching(/truncated/)
    })
  })
})

describe('retrieved memories', () => {
  it('ranks by score, drops repeats and memories already sent as messages', () => {
    const thread = [message(1, 'user', 'I use pnpm.'), message(2, 'assistant', 'Noted.')]
    const built = buildContext(
      request({
        messages: thread,
        memories: [
          { id: 'low', content: 'Likes tea.', score: 0.2 },
          { id: 'msg', content: 'I use pnpm.', score: 0.9, source: 'message', messageId: '1' },
          { id: 'high', content: 'Works in TypeScript.', score: 0.8 },
          { id: 'again', content: 'Works in  TypeScript.', score: 0.5 }
        ]
      }),
      config({ totalBudget: 5000 })
    )
    const memories = built.trace.filter((t) => t.kind === 'memory')
    expect(memories.map((m) => [m.id, m.decision])).toEqual([
      ['msg', 'duplicate'],
      ['high', 'included'],
      ['again', 'duplicate'],
      ['low', 'included']
    ])
    expect(memories[1]).toMatchObject({
      score: 0.8,
      source: 'memory',
      preview: 'Works in TypeScript.'
    })
    expect(built.messages.find((m) => m.content.startsWith('[Memories'))?.content).toBe(
      '[Memories: from earlier conversations, most relevant first]\n- Works in TypeScript.\n- Likes tea.'
    )
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
