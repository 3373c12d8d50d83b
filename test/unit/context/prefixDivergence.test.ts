import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../src/main/context/contextBuilder'
import {
  locateMessages,
  prefixDivergence
} from '../../../src/main/context/caching/prefixDivergence'
import { chat, config, message, request } from './threadBuilder'

const LONG = 'we compared three parsers and kept the table-driven one for speed '.repeat(4)
const thread = chat(40, 1, LONG)
const sliding = config({ totalBudget: 1_500, window: { policy: 'sliding' } })
const chunked = config({ totalBudget: 1_500, window: { policy: 'chunked' } })

/** The request for the user message at `seq`, built from the messages before it. */
function turn(
  seq: number,
  summary: { content: string; lastMessageSeq: number } | null = null,
  settings = sliding
) {
  return buildContext(
    request({
      systemPrompt: 'You are a careful assistant.',
      summary,
      messages: thread.filter((m) => m.seq < seq),
      input: `question ${seq}`
    }),
    settings
  )
}

describe('prefixDivergence', () => {
  it('names every provider message with its section and trace item', () => {
    const built = turn(39, { content: 'Earlier: parsers.', lastMessageSeq: 4 })
    const points = locateMessages(built)
    expect(points[0]).toMatchObject({ section: 'system', itemId: 'system' })
    expect(points[1]).toMatchObject({ section: 'summary', itemId: 'summary' })
    expect(points.at(-1)).toMatchObject({ section: 'input', itemId: 'input', role: 'user' })
    const history = points.slice(2, -1)
    expect(history.length).toBeGreaterThan(0)
    for (const point of history) {
      expect(point.section).toBe('recent')
      expect(String(point.seq)).toBe(point.itemId)
    }
    // The history is sent oldest first, as the trace's included messages.
    expect(history.map((p) => p.seq)).toEqual(
      [...history.map((p) => p.seq)].sort((a, b) => a! - b!)
    )
  })

  it('when the window slid, points at the history message that left and the one now first', () => {
    const previous = turn(37)
    const current = turn(39)
    const divergence = prefixDivergence(previous, current)
    // Only the system prompt is shared: the window dropped its oldest message.
    expect(divergence.sharedMessages).toBe(1)
    expect(divergence.first).toMatchObject({ index: 1, section: 'recent' })
    expect(divergence.previous).toMatchObject({ index: 1, section: 'recent' })
    expect(divergence.first!.seq!).toBeGreaterThan(divergence.previous!.seq!)
    expect(divergence.sharedTokens).toBe(current.trace.find((t) => t.id === 'system')!.tokens)
    expect(divergence.totalTokens).toBeGreaterThan(divergence.sharedTokens)
  })

  it('with the chunked window: between cuts the kept history repeats; at a cut it breaks', () => {
    const [t35, t37, t39] = [35, 37, 39].map((seq) => turn(seq, null, chunked))
    const between = prefixDivergence(t35!, t37!)
    expect(t37!.window.firstKeptSeq).toBe(t35!.window.firstKeptSeq)
    // Everything but the previous input repeats: it is history now, followed by its reply.
    expect(between.sharedMessages).toBe(t35!.messages.length - 1)
    expect(between.previous).toMatchObject({ section: 'input' })
    expect(between.first).toMatchObject({ section: 'recent', seq: 35 })
    const cut = prefixDivergence(t37!, t39!)
    expect(t39!.window.firstKeptSeq).toBeGreaterThan(t37!.window.firstKeptSeq!)
    expect(cut.sharedMessages).toBe(1)
    expect(cut.previous).toMatchObject({ section: 'recent', seq: t37!.window.firstKeptSeq })
  })

  it('when a new summary replaced history, the summary is where the prefix broke', () => {
    const previous = turn(39, { content: 'Version one.', lastMessageSeq: 10 })
    const current = turn(39, { content: 'Version two.', lastMessageSeq: 10 })
    const divergence = prefixDivergence(previous, current)
    expect(divergence.sharedMessages).toBe(1)
    expect(divergence.first).toMatchObject({ section: 'summary', itemId: 'summary' })
  })

  it('a request that extends the previous one differs first at the new messages', () => {
    const roomy = config({ totalBudget: 100_000 })
    const short = [message(1, 'user', 'hi'), message(2, 'assistant', 'hello')]
    const previous = buildContext(request({ messages: short.slice(0, 0), input: 'hi' }), roomy)
    const current = buildContext(request({ messages: short, input: 'next' }), roomy)
    const divergence = prefixDivergence(previous, current)
    // "hi" was the previous input and is now the first history message: identical bytes.
    expect(divergence.sharedMessages).toBe(1)
    expect(divergence.first).toMatchObject({ index: 1, section: 'recent', seq: 2 })
    expect(divergence.previous).toBeNull()
    expect(prefixDivergence(current, current)).toMatchObject({
      sharedMessages: current.messages.length,
      first: null,
      previous: null
    })
  })
})
