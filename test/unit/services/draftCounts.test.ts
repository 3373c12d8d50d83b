/**
 * A long input is counted once: the draft's count while the user looks at the inspector is the
 * send's (stored count and build), and a send during that count joins it instead of starting
 * another, taking only its ends when the text is far over the window. A 2 M-character Chinese
 * paste takes seconds of BPE per count.
 */
import { describe, expect, it } from 'vitest'
import { runSteps } from '../../../src/main/context/steps'
import { o200kCounter, type TokenCounter } from '../../../src/main/context/tokens/tokenCounter'
import { countOf } from '../../../src/main/context/tokens/tokenIndex'
import { DraftCounts } from '../../../src/main/services/contextBuilds/draftCounts'

/** o200k, with the characters it ran BPE over, whether whole texts or slices of one. */
function countingCounter(): { counter: TokenCounter; counted: () => number } {
  let chars = 0
  return {
    counter: {
      ...o200kCounter,
      indexSteps: (text, from) => {
        if (from === null) chars += text.length
        return o200kCounter.indexSteps(text, from)
      },
      countSpan: (span) => {
        chars += span.length
        return o200kCounter.countSpan(span)
      }
    },
    counted: () => chars
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
    expect(counted()).toBe(text.length)

    const index = await drafts.exact('t1', text, counter)
    // The build asks again for the same text.
    expect(await drafts.exact('t1', text, counter)).toBe(index)
    expect(counted()).toBe(text.length)
    expect(countOf(index).tokens).toBe(o200kCounter.count(text))
  })

  it('makes a send during the draft count join it instead of starting one', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const text = paste('b')
    await drafts.index('t1', text, counter)
    const index = await drafts.exact('t1', text, counter)
    await drafts.settled()
    expect(counted()).toBe(text.length)
    expect(countOf(index).tokens).toBe(o200kCounter.count(text))
  })

  it('gives a send far over the window its ends, then the rest, each slice once', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const text = paste('d')
    const ends = await drafts.exact('t1', text, counter, 1_000)
    expect(countOf(ends).method).toBe('ends')
    expect(counted()).toBeLessThan(text.length / 2)
    // The count after the request goes on from there.
    const whole = await drafts.exact('t1', text, counter)
    expect(countOf(whole)).toEqual(countOf(runSteps(o200kCounter.indexSteps(text, null))))
    expect(counted()).toBe(text.length)
  })

  it('lets such a send join the draft count already running, counting nothing twice', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const text = paste('e')
    await drafts.index('t1', text, counter)
    // The ends, or the whole if the draft's count got there first (timing is the machine's).
    const index = await drafts.exact('t1', text, counter, 1_000)
    expect(['ends', 'exact']).toContain(countOf(index).method)
    await drafts.settled()
    expect(counted()).toBe(text.length)
  })

  it('counts a text it has not seen, once, and keeps threads apart', async () => {
    const drafts = new DraftCounts()
    const { counter, counted } = countingCounter()
    const first = await drafts.exact('t1', 'short message', counter)
    expect(await drafts.exact('t1', 'short message', counter)).toBe(first)
    expect(counted()).toBe('short message'.length)
    await drafts.exact('t2', 'short message', counter)
    expect(counted()).toBe(2 * 'short message'.length)
    const edited = await drafts.exact('t1', 'short message, edited', counter)
    expect(countOf(edited).tokens).toBe(o200kCounter.count('short message, edited'))
  })
})
