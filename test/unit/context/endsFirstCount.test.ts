import { describe, expect, it } from 'vitest'
import { runSteps } from '../../../src/main/context/steps'
import { EndsFirstCount } from '../../../src/main/context/tokens/endsFirstCount'
import { o200kCounter, type TokenCounter } from '../../../src/main/context/tokens/tokenCounter'
import { countOf, indexedTokens } from '../../../src/main/context/tokens/tokenIndex'
import { hugeInput } from '../../../scripts/bench/mainThreadStall'
import { CHINESE, ENGLISH, MIXED, TOOL_OUTPUT } from './fixtures/textSamples'

/** o200k, with the characters it ran BPE over. */
function measuredCounter(): { counter: TokenCounter; chars: () => number } {
  let chars = 0
  return {
    counter: {
      ...o200kCounter,
      countSpan: (span) => {
        chars += span.length
        return o200kCounter.countSpan(span)
      }
    },
    chars: () => chars
  }
}

const paste = [ENGLISH, CHINESE, TOOL_OUTPUT, MIXED].join('\n').repeat(40)

describe('a long text counted from its ends', () => {
  it('counted to the end, is the exact index slice for slice', () => {
    const whole = runSteps(o200kCounter.indexSteps(paste, null))
    const count = new EndsFirstCount(paste, o200kCounter)
    const index = runSteps(count.untilSteps(Infinity))
    expect(count.complete).toBe(true)
    expect(index).toEqual(whole)
    expect(countOf(index)).toEqual(countOf(whole))
  })

  it('stops once each end holds enough, and cuts the same head and tail as the exact count', () => {
    const whole = runSteps(o200kCounter.indexSteps(paste, null))
    const count = new EndsFirstCount(paste, o200kCounter)
    const index = runSteps(count.untilSteps(2_000))
    expect(count.complete).toBe(false)
    expect(countOf(index).method).toBe('ends')
    for (const tokens of [1, 500, 1_999]) {
      expect(o200kCounter.headOf(index, tokens)).toEqual(o200kCounter.headOf(whole, tokens))
      expect(o200kCounter.tailOf(index, tokens)).toEqual(o200kCounter.tailOf(whole, tokens))
    }
    // The middle's tokens are extrapolated from the ends: "about" that many were left out.
    const total = indexedTokens(index)
    expect(Math.abs(total - indexedTokens(whole)) / indexedTokens(whole)).toBeLessThan(0.1)
    // A cut inside the uncounted middle would run BPE over most of the text at once.
    expect(() => o200kCounter.headOf(index, total / 2)).toThrow(/uncounted middle/)
    // The same count goes on to the exact index.
    expect(runSteps(count.untilSteps(Infinity))).toEqual(whole)
  })

  it('costs what the ends need, not what the paste holds', () => {
    const counted = (chars: number) => {
      const { counter, chars: ran } = measuredCounter()
      runSteps(new EndsFirstCount(hugeInput('mixed', chars), counter).untilSteps(5_000))
      return ran()
    }
    const short = counted(200_000)
    const long = counted(2_000_000)
    // About 10,000 tokens of mixed prose and code: a few tens of thousands of characters.
    expect(short).toBeLessThan(60_000)
    expect(long).toBeLessThan(short * 1.2)
  })

  it('counts a text shorter than its ends whole', () => {
    const count = new EndsFirstCount(ENGLISH, o200kCounter)
    const index = runSteps(count.untilSteps(1_000_000))
    expect(count.complete).toBe(true)
    expect(index).toEqual(runSteps(o200kCounter.indexSteps(ENGLISH, null)))
  })
})
