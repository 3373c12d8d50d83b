import { describe, expect, it } from 'vitest'
import { admittedFor, nearestCodes, signCode } from '../../../src/main/store/vectors/hammingScan'
import { randomUnitVector, seededRandom } from '../../../scripts/bench/syntheticThread'

/** `count` 64-d sign codes (two words each) of seeded unit vectors. */
function table(count: number) {
  const random = seededRandom(3)
  const codes = new Uint32Array(count * 2)
  for (let i = 0; i < count; i++) codes.set(signCode(randomUnitVector(random, 64)), i * 2)
  return { codes, words: 2 }
}

function hamming(codes: Uint32Array, at: number, query: Uint32Array): number {
  let distance = 0
  for (let w = 0; w < 2; w++) {
    let x = ((codes[at * 2 + w] as number) ^ (query[w] as number)) >>> 0
    for (; x; x >>>= 1) distance += x & 1
  }
  return distance
}

describe('the Hamming scan', () => {
  const codes = table(5_000)
  const query = signCode(randomUnitVector(seededRandom(9), 64))

  it('admits exactly the nearest codes, ties at the cut-off by position', () => {
    const [admitted = []] = nearestCodes(codes, 5_000, [{ code: query, limit: 300 }])
    expect(admitted).toHaveLength(300)
    const distances = Array.from({ length: 5_000 }, (_, at) => hamming(codes.codes, at, query))
    const cutoff = Math.max(...admitted.map((at) => distances[at] as number))
    expect(distances.filter((d, at) => d < cutoff && !admitted.includes(at))).toEqual([])
    // At the cut-off, the first positions are the ones admitted.
    const tied = distances.flatMap((d, at) => (d === cutoff ? [at] : []))
    const tiedIn = admitted.filter((at) => distances[at] === cutoff)
    expect(tiedIn).toEqual(tied.slice(0, tiedIn.length))
  })

  it('scans only the positions it is given, so a scoped search reads what it can return', () => {
    let reads = 0
    const counting = new Proxy(codes.codes, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++
        return Reflect.get(target, key) as unknown
      }
    })
    const thread = [7, 40, 41, 900, 4_999]
    const [admitted = []] = nearestCodes({ codes: counting, words: 2 }, thread, [
      { code: query, limit: 3 }
    ])
    expect(reads).toBe(thread.length * 2)
    const byDistance = [...thread].sort(
      (a, b) => hamming(codes.codes, a, query) - hamming(codes.codes, b, query) || a - b
    )
    expect(admitted).toEqual(byDistance.slice(0, 3).sort((a, b) => a - b))
  })

  it('answers several queries in one pass as it answers each alone', () => {
    const other = signCode(randomUnitVector(seededRandom(10), 64))
    const queries = [
      { code: query, limit: 100 },
      { code: other, limit: 250 }
    ]
    const among = Array.from({ length: 2_000 }, (_, i) => i * 2)
    expect(nearestCodes(codes, among, queries)).toEqual(
      queries.map((q) => nearestCodes(codes, among, [q])[0])
    )
  })

  it('admits 20 codes per result, from 400 up to 4,000', () => {
    expect([1, 20, 50, 200, 400].map((k) => admittedFor(k))).toEqual([400, 400, 1000, 4000, 4000])
  })
})
