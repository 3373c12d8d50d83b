import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../src/main/context/contextBuilder'
import {
  MIN_TAIL_MESSAGES,
  planManualCompression
} from '../../../src/main/context/summary/manualCompression'
import { chat, config, message, request, toolGroup } from './threadBuilder'

const seqs = (messages: { seq: number }[]) => messages.map((m) => m.seq)

describe('planManualCompression (/compress)', () => {
  it('folds everything before a tail of at least 8 messages when the budget is tiny', () => {
    const messages = chat(20)
    const plan = planManualCompression({ messages, summary: null, tailTokens: 1 })
    expect(MIN_TAIL_MESSAGES).toBe(8)
    expect(seqs(plan.messages)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
    expect(plan.lastMessageSeq).toBe(12)
    expect(plan.tailMessages).toBe(8)
    expect(plan.tokens).toBe(messages.slice(0, 12).reduce((sum, m) => sum + m.tokenCount, 0))
    expect(plan.nothing).toBeNull()
  })

  it('keeps more of the tail while it fits the token budget', () => {
    const messages = chat(20)
    const perMessage = messages[0]!.tokenCount
    const plan = planManualCompression({ messages, summary: null, tailTokens: perMessage * 12 })
    expect(plan.tailMessages).toBe(12)
    expect(plan.lastMessageSeq).toBe(8)
  })

  it('is iterative: starts after what the summary covers', () => {
    const messages = chat(20)
    const plan = planManualCompression({
      messages,
      summary: { content: 'earlier', lastMessageSeq: 5 },
      tailTokens: 1
    })
    expect(seqs(plan.messages)).toEqual([6, 7, 8, 9, 10, 11, 12])
  })

  it('never cuts a tool-call group in two', () => {
    // 1 user, 2 assistant+tools(2,3,4), then 8 chat messages: the tail stops at a unit start.
    const messages = [
      message(1, 'user', 'read the files'),
      ...toolGroup(2, ['a', 'b']),
      ...chat(8, 5)
    ]
    const plan = planManualCompression({ messages, summary: null, tailTokens: 1 })
    expect(seqs(plan.messages)).toEqual([1, 2, 3, 4])
    const inside = planManualCompression({
      messages,
      summary: null,
      tailTokens: 1,
      minTailMessages: 9
    })
    // Nine messages would start inside the group: the whole group joins the tail.
    expect(seqs(inside.messages)).toEqual([1])
  })

  it('always keeps the last user message verbatim (a long tool loop after it)', () => {
    const messages = [
      ...chat(6),
      message(7, 'user', 'now run everything'),
      ...toolGroup(8, ['a']),
      ...toolGroup(10, ['b']),
      ...toolGroup(12, ['c']),
      ...toolGroup(14, ['d']),
      ...toolGroup(16, ['e'])
    ]
    const plan = planManualCompression({
      messages,
      summary: null,
      tailTokens: 1,
      minTailMessages: 2
    })
    expect(plan.lastMessageSeq).toBe(6)
    expect(plan.tailMessages).toBe(11)
  })

  it('folds what the window no longer sends even when the rule would keep it', () => {
    const messages = chat(20)
    const plan = planManualCompression({
      messages,
      summary: null,
      tailTokens: 100_000,
      windowStartSeq: 15
    })
    expect(plan.lastMessageSeq).toBe(14)
  })

  it('leaves out excluded messages and does not count them in the tail', () => {
    const messages = chat(12).map((m) =>
      m.seq === 2 || m.seq === 11 ? { ...m, excluded: true } : m
    )
    const plan = planManualCompression({ messages, summary: null, tailTokens: 1 })
    expect(plan.tailMessages).toBe(8)
    expect(plan.lastMessageSeq).toBe(3)
    expect(seqs(plan.messages)).toEqual([1, 3])
  })

  it('says why there is nothing to compress', () => {
    expect(planManualCompression({ messages: [], summary: null, tailTokens: 1 }).nothing).toBe(
      'empty'
    )
    const short = planManualCompression({ messages: chat(6), summary: null, tailTokens: 1 })
    expect(short).toMatchObject({ nothing: 'all_in_tail', messages: [], lastMessageSeq: 0 })
    const covered = planManualCompression({
      messages: chat(20),
      summary: { content: 's', lastMessageSeq: 12 },
      tailTokens: 1
    })
    expect(covered).toMatchObject({ nothing: 'all_in_tail', lastMessageSeq: 12 })
  })

  it('the next build sends the summary and the tail; the folded messages are covered_by_summary', () => {
    const messages = chat(20)
    const plan = planManualCompression({ messages, summary: null, tailTokens: 1 })
    const built = buildContext(
      request({
        messages,
        summary: { content: 'What happened so far.', lastMessageSeq: plan.lastMessageSeq },
        input: 'next'
      }),
      config({ totalBudget: 20_000 })
    )
    const decisions = new Map(
      built.trace.filter((e) => e.kind === 'message').map((e) => [e.seq, e.decision])
    )
    const collapsed = built.collapsed.find((c) => c.decision === 'covered_by_summary')
    const covered = [...decisions].filter(([, d]) => d === 'covered_by_summary').length
    expect(covered + (collapsed?.count ?? 0)).toBe(12)
    for (let seq = 13; seq <= 20; seq++) expect(decisions.get(seq)).toBe('included')
    expect(built.metadata.usedSummary).toBe(true)
    expect(JSON.stringify(built.messages)).toContain('What happened so far.')
    expect(JSON.stringify(built.messages)).not.toContain('project 12"')
  })
})
