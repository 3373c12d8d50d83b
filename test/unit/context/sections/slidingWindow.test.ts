import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import { REPLY_PRIMING_TOKENS, TokenMeter } from '../../../../src/main/context/tokens/messageTokens'
import { TRACE_DETAIL_LIMIT } from '../../../../src/main/context/sections/slidingWindow'
import { o200kCounter } from '../../../../src/main/context/tokens/tokenCounter'
import type { BuiltContext, ContextMessage } from '@shared/context'
import { config, message, request, toolGroup } from '../threadBuilder'

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

  it('takes the places of the empty replies from the caller when it keeps them, reading no old text', () => {
    const thread = Array.from({ length: 40 }, (_, i) =>
      message(i + 1, i % 2 === 0 ? 'user' : 'assistant', [3, 35].includes(i) ? '' : `turn ${i}`)
    )
    const empty = [3, 35]
    for (const summary of [null, { content: 'S', lastMessageSeq: 2 }]) {
      const scanned = buildContext(request({ messages: thread, summary }), recentOnly(120))
      // The window reaches the newest few: the build must not read the older ones' text
      // once the caller says where the empty replies are.
      const oldest = (scanned.window?.firstKeptSeq ?? 0) - 1
      expect(oldest).toBeGreaterThan(20)
      const unread = thread.map((m) =>
        m.seq > oldest
          ? m
          : Object.defineProperty({ ...m }, 'content', {
              get: () => {
                throw new Error(`read the text of message ${m.seq}`)
              }
            })
      )
      const told = buildContext(
        request({ messages: unread, summary, emptyReplies: empty }),
        recentOnly(120)
      )
      const decided = (built: BuiltContext) => built.trace.map((t) => [t.id, t.decision, t.tokens])
      expect(decided(told)).toEqual(decided(scanned))
      expect(told.trace.filter((t) => t.decision === 'empty_reply').map((t) => t.seq)).toEqual([
        4, 36
      ])
    }
  })

  it('uses the cached token counts as stored, never recounting them', () => {
    const stale = { ...message(1, 'user', 'hi'), tokenCount: 500 }
    const built = buildContext(request({ messages: [stale] }), config({ totalBudget: 10_000 }))
    expect(built.trace.find((t) => t.id === '1')?.tokens).toBe(503)
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
