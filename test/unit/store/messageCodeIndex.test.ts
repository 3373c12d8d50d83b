import { describe, expect, it } from 'vitest'
import { MessageCodeIndex } from '../../../src/main/store/vectors/messageCodeIndex'
import { randomUnitVector, seededRandom } from '../../../scripts/bench/syntheticThread'

/** Deterministic 8-byte (64-bit) codes. */
function codes(count: number, seed = 7): Uint8Array[] {
  let state = seed
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) & 0xff
  return Array.from({ length: count }, () => Uint8Array.from({ length: 8 }, next))
}

/** Deterministic unit vectors and their sign-bit codes (bit d of byte d / 8, as sqlite-vec). */
function vectors(
  count: number,
  dimension: number,
  seed = 11
): { vector: Float32Array; code: Uint8Array }[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, () => {
    const vector = randomUnitVector(random, dimension)
    const code = new Uint8Array(dimension / 8)
    vector.forEach((v, d) => {
      if (v > 0) code[d >> 3]! |= 1 << (d & 7)
    })
    return { vector, code }
  })
}

/** A code as the index's scan reads it: its bytes as 32-bit words. */
const words = (code: Uint8Array) => new Uint32Array(Uint8Array.from(code).buffer)

const dot = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, v, d) => sum + v * (b[d] as number), 0)

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
  const floats = vectors(3000, 64)
  all.forEach((code, i) =>
    index.add(i + 1, i % 3 === 0 ? 'thread-a' : 'thread-b', code, floats[i]!.vector)
  )

  it('returns exactly the nearest codes by Hamming distance, across several growths', () => {
    expect(index.length).toBe(3000)
    const query = codes(1, 99)[0] as Uint8Array
    const got = index.candidates(words(query), 50)
    expect(got).toHaveLength(50)
    const distances = all.map((code) => hamming(code, query))
    const worstTaken = Math.max(...got.map((id) => distances[id - 1] as number))
    const closerLeftOut = distances.filter((d, i) => d < worstTaken && !got.includes(i + 1))
    expect(closerLeftOut).toEqual([])
  })

  it('filters by thread', () => {
    const query = words(codes(1, 5)[0] as Uint8Array)
    const inA = index.candidates(query, 40, 'thread-a')
    expect(inA).toHaveLength(40)
    expect(inA.every((id) => (id - 1) % 3 === 0)).toBe(true)
    expect(index.candidates(query, 10, 'no-such-thread')).toEqual([])
  })

  it('returns everything eligible when fewer than the limit exist', () => {
    const small = new MessageCodeIndex(8)
    codes(5).forEach((code, i) => small.add(i + 1, 't', code, floats[i]!.vector))
    expect(small.candidates(words(codes(1, 3)[0] as Uint8Array), 400).sort()).toEqual([
      1, 2, 3, 4, 5
    ])
  })

  it('refuses a code or a vector of the wrong size', () => {
    const vector = new Float32Array(64)
    expect(() => new MessageCodeIndex(64).add(1, 't', new Uint8Array(8), vector)).toThrow(
      /does not fit/
    )
    expect(() =>
      new MessageCodeIndex(8).add(1, 't', new Uint8Array(8), new Float32Array(32))
    ).toThrow(/does not fit/)
  })

  it('ranks the candidates by their 8-bit vectors: the exact best k are within 1.5 k', () => {
    const items = vectors(4000, 384, 3)
    const staged = new MessageCodeIndex(48)
    items.forEach(({ vector, code }, i) => staged.add(i + 1, 't', code, vector))
    for (const [q, k] of [
      [7, 10],
      [8, 100],
      [9, 400]
    ] as const) {
      const { vector: query, code } = vectors(1, 384, q)[0]!
      // Every item is a candidate, so the 8-bit stage alone decides what is kept.
      const [kept = []] = staged.nearest([
        { code: words(code), vector: query, limit: items.length, keep: Math.ceil(k * 1.5) }
      ])
      const exact = items
        .map(({ vector }, i) => ({ id: i + 1, cosine: dot(query, vector) }))
        .sort((a, b) => b.cosine - a.cosine)
        .slice(0, k)
        .map(({ id }) => id)
      expect(exact.filter((id) => !kept.includes(id))).toEqual([])
      // Best first: the approximate order starts with the exact nearest.
      expect(kept[0]).toBe(exact[0])
    }
  })

  it('answers several queries in one scan exactly as it answers each alone', () => {
    const items = vectors(5000, 384, 4)
    const staged = new MessageCodeIndex(48)
    items.forEach(({ vector, code }, i) => staged.add(i + 1, i % 2 ? 'a' : 'b', code, vector))
    const queries = vectors(3, 384, 21).map(({ vector, code }, q) => ({
      code: words(code),
      vector,
      limit: 400 * (q + 1),
      keep: 50 + q
    }))
    for (const thread of [undefined, 'a']) {
      const together = staged.nearest(queries, thread)
      expect(together).toEqual(queries.map((query) => staged.nearest([query], thread)[0]))
      expect(together.map((ids) => ids.length)).toEqual([50, 51, 52])
    }
  })
})
