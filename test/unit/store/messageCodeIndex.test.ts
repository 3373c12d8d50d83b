import { describe, expect, it } from 'vitest'
import { MessageCodeIndex } from '../../../src/main/store/messageCodeIndex'

/** Deterministic 8-byte (64-bit) codes. */
function codes(count: number, seed = 7): Uint8Array[] {
  let state = seed
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) & 0xff
  return Array.from({ length: count }, () => Uint8Array.from({ length: 8 }, next))
}

function hamming(a: Uint8Array, b: Uint8Array): number {
  let distance = 0
  for (let i = 0; i < a.length; i++) {
    let x = (a[i] as number) ^ (b[i] as number)
    while (x) {
      distance += x & 1
      x >>= 1
    }
  }
  return distance
}

describe('the in-memory binary code index', () => {
  const all = codes(3000)
  const index = new MessageCodeIndex(8)
  all.forEach((code, i) => index.add(i + 1, i % 3 === 0 ? 'thread-a' : 'thread-b', code))

  it('returns exactly the nearest codes by Hamming distance, across several growths', () => {
    expect(index.length).toBe(3000)
    const query = codes(1, 99)[0] as Uint8Array
    const got = index.candidates(query, 50)
    expect(got).toHaveLength(50)
    const distances = all.map((code) => hamming(code, query))
    const worstTaken = Math.max(...got.map((id) => distances[id - 1] as number))
    const closerLeftOut = distances.filter((d, i) => d < worstTaken && !got.includes(i + 1))
    expect(closerLeftOut).toEqual([])
  })

  it('filters by thread and leaves out excluded ids', () => {
    const query = codes(1, 5)[0] as Uint8Array
    const inA = index.candidates(query, 40, { threadId: 'thread-a' })
    expect(inA.every((id) => (id - 1) % 3 === 0)).toBe(true)
    const exclude = new Set(inA.slice(0, 10))
    const without = index.candidates(query, 40, { threadId: 'thread-a', exclude })
    expect(without.some((id) => exclude.has(id))).toBe(false)
    expect(without).toHaveLength(40)
    expect(index.candidates(query, 10, { threadId: 'no-such-thread' })).toEqual([])
  })

  it('returns everything eligible when fewer than the limit exist', () => {
    const small = new MessageCodeIndex(8)
    codes(5).forEach((code, i) => small.add(i + 1, 't', code))
    expect(small.candidates(codes(1, 3)[0] as Uint8Array, 400).sort()).toEqual([1, 2, 3, 4, 5])
  })

  it('refuses a code of the wrong size', () => {
    expect(() => new MessageCodeIndex(64).add(1, 't', new Uint8Array(8))).toThrow(/does not fit/)
  })
})
