import { describe, expect, it } from 'vitest'
import { DEFAULT_PERCENTAGES, resolveContextConfig } from '@shared/contextConfig'
import {
  certainlySentIds,
  MAX_RECALL_LIMIT,
  MIN_RECALL_LIMIT,
  recallLimit,
  recallRequest
} from '../../../src/main/context/recall/recallRequest'

const thread = (count: number, tokens = 100) =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    seq: i + 1,
    tokenCount: tokens,
    pinned: false,
    excluded: false
  }))

describe('the recall limit', () => {
  it('asks for as many candidates as the retrieved section could place', () => {
    // A long thread at 4,000: everything but the window's 1,600-token share, 30 tokens each.
    expect(recallLimit(4000, DEFAULT_PERCENTAGES, 100_000)).toBe(80)
    // A thread shorter than its recent share leaves the rest to recall too.
    expect(recallLimit(4000, DEFAULT_PERCENTAGES, 1_000)).toBe(100)
    expect(recallLimit(8000, DEFAULT_PERCENTAGES, 0)).toBe(267)
    expect(recallLimit(16_000, DEFAULT_PERCENTAGES, 0)).toBe(MAX_RECALL_LIMIT)
    expect(recallLimit(2000, DEFAULT_PERCENTAGES, 100_000)).toBe(40)
    expect(recallLimit(300, DEFAULT_PERCENTAGES, 100_000)).toBe(MIN_RECALL_LIMIT)
    expect(recallLimit(128_000, DEFAULT_PERCENTAGES, 0)).toBe(MAX_RECALL_LIMIT)
  })
})

describe('messages the window certainly sends', () => {
  it('takes the newest messages that fit in the recent share', () => {
    expect(certainlySentIds(thread(50), 1000)).toEqual([50, 49, 48, 47, 46, 45, 44, 43, 42, 41])
    expect(certainlySentIds(thread(50), 1000, { correction: 2 })).toEqual([50, 49, 48, 47, 46])
    expect(certainlySentIds([], 1000)).toEqual([])
  })

  it('counts pinned messages first, skips excluded ones and never crosses the summary', () => {
    const messages = thread(50)
    messages[9] = { ...messages[9]!, pinned: true } // id 10, 100 tokens of the 1,000
    messages[48] = { ...messages[48]!, excluded: true } // id 49: not sent, costs nothing
    expect(certainlySentIds(messages, 1000)).toEqual([10, 50, 48, 47, 46, 45, 44, 43, 42, 41])
    // Everything up to seq 47 is summarised: only what follows is the window's.
    expect(certainlySentIds(thread(50), 1000, { summarizedThrough: 47 })).toEqual([50, 49, 48])
  })

  it('combines both for a build', () => {
    const resolved = resolveContextConfig({ totalBudget: 4000 })
    if (!resolved.ok) throw new Error('config')
    const request = recallRequest(resolved.config, thread(500, 30))
    expect(request.limit).toBe(80)
    // The 1,600-token recent share: 53 messages of 30 tokens.
    expect(request.excludeMessageIds).toHaveLength(53)
    expect(request.excludeMessageIds[0]).toBe(500)
    expect(recallRequest(resolved.config, []).excludeMessageIds).toEqual([])
  })
})
