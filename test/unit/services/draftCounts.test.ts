/**
 * A long input is counted once: the draft's count while the user looks at the inspector is the
 * send's (stored count and build), and a send during that count waits for it instead of
 * starting another. A 2 M-character Chinese paste takes seconds of BPE per count.
 */
import { describe, expect, it } from 'vitest'
import { o200kCounter, type TokenCounter } from '../../../src/main/context/tokens/tokenCounter'
import { countOf } from '../../../src/main/context/tokens/tokenIndex'
import { DraftCounts } from '../../../src/main/services/contextBuilds/draftCounts'

/** o200k, counting how many texts it was asked to index from scratch. */
function countingCounter(): { counter: TokenCounter; counted: () => number } {
  let counted = 0
  return {
    counter: {
      ...o200kCounter,
      indexSteps: (text, from) => {
        if (from === null) counted++
        return o200kCounter.indexSteps(text, from)
      }
    },
    counted: () => counted
  }
}

const paste = (seed: string) => `${seed} ${'日志第一行出错了，然后重试。 '.repeat(6_000)}`

describe('the input counted once per text', () => {
  it('gives the send the index the draft was counted into in the background', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const text = paste('a')
    await drafts.index('t1', text, counter)
    await drafts.settled()
    expect(counted()).toBe(1)

    const index = await drafts.exact('t1', text, counter)
    // The build asks again for the same text.
    expect(await drafts.exact('t1', text, counter)).toBe(index)
    expect(counted()).toBe(1)
    expect(countOf(index).tokens).toBe(o200kCounter.count(text))
  })

  it('makes a send during the draft count wait for that count instead of starting one', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const text = paste('b')
    await drafts.index('t1', text, counter)
    const index = await drafts.exact('t1', text, counter)
    expect(counted()).toBe(1)
    expect(countOf(index).tokens).toBe(o200kCounter.count(text))
  })

  it('counts a text it has not seen, once, and keeps threads apart', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const first = await drafts.exact('t1', 'short message', counter)
    expect(await drafts.exact('t1', 'short message', counter)).toBe(first)
    expect(counted()).toBe(1)
    await drafts.exact('t2', 'short message', counter)
    expect(counted()).toBe(2)
    const edited = await drafts.exact('t1', 'short message, edited', counter)
    expect(countOf(edited).tokens).toBe(o200kCounter.count('short message, edited'))
  })
})
