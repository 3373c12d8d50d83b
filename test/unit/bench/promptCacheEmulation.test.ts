import { describe, expect, it } from 'vitest'
import { anthropicCache, openaiCache } from '../../../scripts/bench/promptCacheEmulation'

/** The cache replay's emulated providers: what they serve decides the bench's cache figures. */

const words = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ')
const LONG = words(1_500, 'history') // well past the 1,024-token minimum

describe('OpenAI-style prefix caching', () => {
  it('serves the longest prefix shared with an earlier request, in 128-token steps from 1,024', () => {
    const cache = openaiCache()
    const first = cache({
      messages: [
        { role: 'user', content: LONG },
        { role: 'user', content: 'a' }
      ]
    })
    expect(first.cached).toBe(0)
    const second = cache({
      messages: [
        { role: 'user', content: LONG },
        { role: 'user', content: 'b' }
      ]
    })
    expect(second.cached).toBeGreaterThanOrEqual(1_024)
    expect(second.cached % 128).toBe(0)
    expect(second.cached).toBeLessThanOrEqual(second.prompt)
    const short = cache({ messages: [{ role: 'user', content: 'hello there' }] })
    expect(short.cached).toBe(0)
  })
})

describe('Anthropic-style breakpoints', () => {
  const marker = { type: 'ephemeral' }
  const block = (text: string, marked = false) => ({
    type: 'text',
    text,
    ...(marked && { cache_control: marker })
  })

  it('reads only what an earlier breakpoint wrote, and writes what lies beyond it', () => {
    const cache = anthropicCache()
    const first = cache({
      system: [block(LONG, true)],
      messages: [{ role: 'user', content: [block('first question', true)] }]
    })
    expect(first.cached).toBe(0)
    expect(first.written).toBe(first.prompt)
    const second = cache({
      system: [block(LONG, true)],
      messages: [
        { role: 'user', content: [block('first question')] },
        { role: 'assistant', content: [block('an answer')] },
        { role: 'user', content: [block('second question', true)] }
      ]
    })
    // The whole first request was written at its last breakpoint and is read back.
    expect(second.cached).toBe(first.prompt)
    expect(second.written).toBe(second.prompt - first.prompt)
  })

  it('reads nothing without a breakpoint, however much is shared', () => {
    const cache = anthropicCache()
    cache({ messages: [{ role: 'user', content: [block(LONG)] }] })
    const again = cache({ messages: [{ role: 'user', content: [block(LONG)] }] })
    expect(again.cached).toBe(0)
    expect(again.written).toBe(0)
  })

  it('looks back at most 20 blocks from a breakpoint for an earlier write', () => {
    const cache = anthropicCache()
    const written = cache({ system: [block(LONG, true)], messages: [] })
    const filler = Array.from({ length: 25 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [block(`turn ${i}`)]
    }))
    const far = cache({
      system: [block(LONG)],
      messages: [...filler, { role: 'user', content: [block('now', true)] }]
    })
    expect(written.written).toBeGreaterThan(0)
    expect(far.cached).toBe(0)
  })
})
