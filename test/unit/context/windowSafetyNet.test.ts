import { describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import { o200kCounter } from '../../../src/main/context/tokens/tokenCounter'
import {
  MIN_INPUT_TOKENS,
  inputAllowance,
  overSafetyLimit,
  recordSafetyNet,
  safetyLimit,
  trimMiddle
} from '../../../src/main/context/windowSafetyNet'

const paste = (lines: number, text: (i: number) => string) =>
  Array.from({ length: lines }, (_, i) => text(i)).join('\n')

/** Just what the safety net reads of a build: window, totals and the input's trace entry. */
function built(total: number, inputTokens: number, contextWindow = 10_000): BuiltContext {
  return {
    messages: [],
    tools: [],
    tokenStats: {
      sections: {} as BuiltContext['tokenStats']['sections'],
      total,
      budget: contextWindow,
      contextWindow,
      outputReserve: 0
    },
    metadata: {
      engine: 'builder',
      model: 'gpt-4o',
      encoding: 'o200k_base',
      includedMessageCount: 0,
      droppedMessageCount: 0,
      summarizedMessageCount: 0,
      usedSummary: false,
      retrievedMemoryCount: 0,
      warnings: []
    },
    trace: [
      { id: 'input', kind: 'input', section: 'input', tokens: inputTokens, decision: 'included' }
    ],
    collapsed: [],
    window: { policy: 'chunked', firstKeptSeq: null, stablePrefixMessages: 0 }
  }
}

describe('trimming the middle of a huge message', () => {
  const log = paste(2_000, (i) => `line ${i}: ERROR connection refused while syncing shard ${i}`)
  const text = `Why does this sync fail?\n${log}\nTraceback: final error at shard 1999`

  it('keeps the question at the start and the error at the end, within the limit', () => {
    const trimmed = trimMiddle(text, 1_000, o200kCounter).text
    expect(o200kCounter.count(trimmed)).toBeLessThanOrEqual(1_000)
    expect(trimmed.startsWith('Why does this sync fail?')).toBe(true)
    expect(trimmed.endsWith('Traceback: final error at shard 1999')).toBe(true)
    expect(trimmed).not.toContain('shard 1000 ')
    const omitted = Number(/about (\d+) tokens of this message were left out/.exec(trimmed)?.[1])
    expect(omitted).toBeGreaterThan(o200kCounter.count(text) - 1_000)
  })

  it('works on Chinese text, and leaves a message that fits untouched', () => {
    const chinese = paste(3_000, (i) => `第${i}行：同步分片时连接被拒绝`)
    const trimmed = trimMiddle(chinese, 600, o200kCounter).text
    expect(o200kCounter.count(trimmed)).toBeLessThanOrEqual(600)
    expect(trimmed.startsWith('第0行')).toBe(true)
    expect(trimmed.endsWith('第2999行：同步分片时连接被拒绝')).toBe(true)
    expect(trimMiddle('短消息', 600, o200kCounter).text).toBe('短消息')
  })
})

describe('what a trimmed message costs', () => {
  /** Seeded base64: every cut lands next to letters, digits, "+" or "/" in turn. */
  function base64Paste(seed: number, chars: number): string {
    let state = seed
    const bytes = Buffer.alloc(Math.ceil((chars * 3) / 4))
    for (let i = 0; i < bytes.length; i++) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31
      bytes[i] = state >>> 16
    }
    return `Decode this:\n${bytes.toString('base64')}`.slice(0, chars)
  }

  it('is what its text counts, whatever the characters at the seams', () => {
    // o200k's pre-tokenizer reads a head's closing "+" with the marker's newlines, and the
    // marker's "]\n\n" with a tail's leading "/", as one piece each: counted apart, seed 18
    // came out a token over.
    const off: number[] = []
    for (let seed = 1; seed <= 60; seed++) {
      const trimmed = trimMiddle(base64Paste(seed, 12_000), 1_000 + seed, o200kCounter)
      if (trimmed.tokens !== o200kCounter.count(trimmed.text)) off.push(seed)
    }
    expect(off).toEqual([])
  })
})

describe('the 85 % limit', () => {
  it('is 85 % of the window, and says how much the input may cost', () => {
    const context = built(9_000, 6_000)
    expect(safetyLimit(context)).toBe(8_500)
    expect(overSafetyLimit(context)).toBe(true)
    expect(overSafetyLimit(built(8_500, 6_000))).toBe(false)
    expect(inputAllowance(context)).toBe(8_500 - 3_000)
  })

  it('gives up on trimming when the rest of the request leaves no room for the input', () => {
    expect(inputAllowance(built(9_000, 600))).toBeNull()
    expect(inputAllowance(built(8_500 - MIN_INPUT_TOKENS + 100, 100))).toBe(MIN_INPUT_TOKENS)
  })

  it('records what it did as warnings and a note on the input', () => {
    const context = recordSafetyNet(built(8_400, 5_000), {
      neededTokens: 40_000,
      shrunk: true,
      trimmedFrom: 36_000
    })
    expect(context.metadata.warnings.map((w) => w.code)).toEqual([
      'request_shrunk',
      'input_trimmed'
    ])
    expect(context.metadata.warnings[1]?.message).toContain('36000 tokens')
    expect(context.trace[0]?.note).toBe(
      'middle left out to fit the window: 5000 of 36000 tokens sent'
    )
  })
})
