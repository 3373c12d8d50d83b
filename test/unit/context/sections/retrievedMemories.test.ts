import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import type { BuiltContext, MemoryCandidate, RecallReport } from '@shared/context'
import { chat, config, message, request } from '../threadBuilder'

/**
 * Issue #17 in the pure builder: what recall sends says where it came from, the build records
 * what recall did and how much budget nothing used, and recall's ups and downs never move the
 * chunked window's cut.
 */

const report: RecallReport = {
  scope: 'all',
  fillSpare: false,
  gates: { memory: 0.54, thread: 0.54, message: 0.62 },
  passed: 3,
  rejected: [{ id: 'message:40', relevance: 0.6, gate: 0.62, preview: 'Nearly relevant.' }]
}

const candidates: MemoryCandidate[] = [
  {
    id: 'memory:1',
    content: 'Mia is allergic to peanuts.',
    score: 0.9,
    origin: { kind: 'memory', category: 'fact' }
  },
  {
    id: 'message:7',
    content: 'The hotel is near the Baixa metro.',
    score: 0.8,
    origin: { kind: 'message', seq: 7, threadTitle: 'Trip to Lisbon', otherThread: true },
    messageId: 7
  },
  {
    id: 'message:2',
    content: 'We said the demo is on Friday.',
    score: 0.7,
    origin: { kind: 'message', seq: 2, threadTitle: 'Planning', otherThread: false },
    messageId: 2
  }
]

describe('the retrieved section by origin', () => {
  const built = buildContext(
    request({ memories: candidates, recall: report }),
    config({ totalBudget: 4000 })
  )

  it('sends memories, this thread’s older messages and other threads’ apart, with titles', () => {
    const block = built.messages.find((m) => m.content.startsWith('[Memories'))?.content
    expect(block).toBe(
      '[Memories: from earlier conversations, most relevant first]\n- Mia is allergic to peanuts.' +
        '\n\n[Earlier in this conversation, recalled for this message]\n- We said the demo is on Friday.' +
        "\n\n[From the user's other conversations, recalled for this message]" +
        '\n- “Trip to Lisbon”: The hotel is near the Baixa metro.'
    )
  })

  it('counts each origin apart and keeps what recall reported', () => {
    expect(built.recall).toMatchObject({
      ...report,
      memories: { items: 1 },
      thisThread: { items: 1 },
      otherThreads: { items: 1 }
    })
    const lines =
      (built.recall?.memories.tokens ?? 0) +
      (built.recall?.thisThread.tokens ?? 0) +
      (built.recall?.otherThreads.tokens ?? 0)
    // The section adds the message framing and the three headers to the lines.
    expect(built.tokenStats.sections.retrieved.used).toBeGreaterThan(lines)
  })

  it('leaves the rest of the budget free and says how much', () => {
    expect(built.tokenStats.free).toBe(4000 - built.tokenStats.total)
    expect(built.tokenStats.free).toBeGreaterThan(3800)
  })

  it('records nothing about recall when none ran', () => {
    expect(buildContext(request(), config({ totalBudget: 4000 })).recall).toBeUndefined()
  })
})

describe('the chunked window and recall', () => {
  // A thread longer than the budget, and many recalled items from elsewhere this turn.
  const thread = chat(800, 1, 'a message of a long conversation about the release plan')
  const many: MemoryCandidate[] = Array.from({ length: 120 }, (_, i) => ({
    id: `message:${10_000 + i}`,
    content: `A recalled line from another conversation, number ${i}, about something else.`,
    score: 1 - i / 1000,
    origin: { kind: 'message', seq: i, threadTitle: 'Elsewhere', otherThread: true },
    messageId: 10_000 + i
  }))
  const windowStart = (memories: MemoryCandidate[]) =>
    buildContext(request({ messages: thread, memories }), config({ totalBudget: 8000 })).window
      .firstKeptSeq

  it('keeps its cut whatever recall brings: the cached prefix does not slide', () => {
    // The thread does not fit: the window starts at a chunk boundary well into it.
    expect(windowStart([])).toBeGreaterThan(100)
    expect(windowStart(many)).toBe(windowStart([]))
    expect(windowStart(many.slice(0, 5))).toBe(windowStart([]))
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

describe('a tight budget', () => {
  // One long reply that scores best and four short facts after it; the room holds the reply or
  // the facts, not both.
  const reply = `Here is a long answer about planning trips. ${'It goes on about hotels, trains and museums in detail. '.repeat(40)}`
  const facts = [
    'Mia is allergic to peanuts.',
    'Our train to Porto leaves at 9:40.',
    'The hotel in Lisbon is booked for three nights.',
    'Ana prefers a window seat on long trains.'
  ]
  const memories: MemoryCandidate[] = [
    { id: 'reply', content: reply, score: 0.9 },
    ...facts.map((content, i) => ({ id: `fact${i + 1}`, content, score: 0.8 - i / 10 }))
  ]
  const built = buildContext(request({ memories }), config({ totalBudget: 530 }))
  const decisions = (of: BuiltContext) =>
    of.trace.filter((t) => t.kind === 'memory').map((t) => [t.id, t.decision])

  it('places short facts before a long reply that costs as much as all of them', () => {
    expect(built.trace.find((t) => t.id === 'reply')?.tokens).toBeGreaterThan(400)
    expect(decisions(built)).toEqual([
      ['reply', 'dropped_budget'],
      ['fact1', 'included'],
      ['fact2', 'included'],
      ['fact3', 'included'],
      ['fact4', 'included']
    ])
  })

  it('still lists what it placed most relevant first', () => {
    expect(built.messages.find((m) => m.content.startsWith('[Memories'))?.content).toBe(
      `[Memories: from earlier conversations, most relevant first]\n- ${facts.join('\n- ')}`
    )
  })

  it('places the long reply too when there is room for it', () => {
    const roomy = buildContext(request({ memories }), config({ totalBudget: 4000 }))
    expect(decisions(roomy).every(([, decision]) => decision === 'included')).toBe(true)
  })
})
