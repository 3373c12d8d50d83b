import { describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import { buildContext } from '../../../src/main/context/contextBuilder'
import {
  MAX_CONSECUTIVE_FAILURES,
  RECOMPRESS_FACTOR,
  SummaryAutomation
} from '../../../src/main/services/summaries/summaryAutomation'
import {
  PROMPT_OVERHEAD_TOKENS,
  batchRoom,
  batchesWithin
} from '../../../src/main/services/summaries/summaryHeadroom'
import { chat, config, request } from '../context/threadBuilder'

/** A build as the cache-aware window reports it (BuiltContext.window). */
const withWindow = (
  firstKeptSeq: number | null,
  policy: BuiltContext['window']['policy'] = 'chunked'
): BuiltContext =>
  ({
    ...buildContext(request({ messages: chat(4) }), config()),
    window: { policy, firstKeptSeq, stablePrefixMessages: 2 }
  }) as BuiltContext

describe('when automatic summaries run', () => {
  it('with a chunked window: only on turns where the cut moved', () => {
    const automation = new SummaryAutomation()
    expect(automation.observeTurn('t', withWindow(10))).toBe(true) // first turn seen
    expect(automation.observeTurn('t', withWindow(10))).toBe(false)
    expect(automation.observeTurn('t', withWindow(10))).toBe(false)
    expect(automation.observeTurn('t', withWindow(31))).toBe(true) // the cut
    expect(automation.observeTurn('t', withWindow(31))).toBe(false)
    expect(automation.observeTurn('other', withWindow(31))).toBe(true)
  })

  it('with the sliding window: any turn', () => {
    const automation = new SummaryAutomation()
    expect(automation.observeTurn('t', withWindow(10, 'sliding'))).toBe(true)
    expect(automation.observeTurn('t', withWindow(10, 'sliding'))).toBe(true)
  })

  it('re-compression waits for a higher watermark than the first summary', () => {
    const automation = new SummaryAutomation()
    expect(automation.threshold(2_000, false)).toBe(2_000)
    expect(automation.threshold(2_000, true)).toBe(2_000 * RECOMPRESS_FACTOR)
    expect(RECOMPRESS_FACTOR).toBeGreaterThan(1)
  })

  it(`pauses after ${MAX_CONSECUTIVE_FAILURES} consecutive failures; a success or Retry resets`, () => {
    const automation = new SummaryAutomation()
    expect(automation.failed('t', 'a')).toBe(false)
    automation.succeeded('t')
    for (let i = 1; i < MAX_CONSECUTIVE_FAILURES; i++) automation.failed('t', `e${i}`)
    expect(automation.paused('t')).toBe(false)
    expect(automation.failed('t', 'last')).toBe(true)
    expect(automation.paused('t')).toBe(true)
    expect(automation.failures('t')).toEqual({
      failures: MAX_CONSECUTIVE_FAILURES,
      lastError: 'last'
    })
    automation.resume('t')
    expect(automation.paused('t')).toBe(false)
    expect(automation.failures('t').failures).toBe(0)
  })
})

describe('headroom for summarizing', () => {
  it('splits the folded messages into batches that each fit the model beside the reply and summary', () => {
    const messages = [400, 300, 500, 200, 900, 100].map((tokenCount, id) => ({ id, tokenCount }))
    const room = batchRoom(PROMPT_OVERHEAD_TOKENS + 1_000 + 200 + 100, 200, 100)
    expect(room).toBe(1_000)
    const batches = batchesWithin(messages, room)
    expect(batches.map((b) => b.map((m) => m.id))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5]
    ])
    for (const batch of batches) {
      expect(batch.reduce((sum, m) => sum + m.tokenCount, 0)).toBeLessThanOrEqual(room)
    }
    // Every message once, in order.
    expect(batches.flat()).toEqual(messages)
    // One message larger than the room goes alone rather than being dropped.
    expect(batchesWithin([{ tokenCount: 5_000 }, { tokenCount: 1 }], 1_000)).toHaveLength(2)
  })
})
