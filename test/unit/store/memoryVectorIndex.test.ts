import { describe, expect, it } from 'vitest'
import { MemoryVectorIndex } from '../../../src/main/store/vectors/memoryVectorIndex'
import { randomUnitVector, seededRandom } from '../../../scripts/bench/syntheticThread'
import { clusteredVectors } from '../../../scripts/bench/memoryStore'

function unitVectors(count: number, dimension: number, seed: number): Float32Array[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, () => randomUnitVector(random, dimension))
}

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, x, d) => sum + x * (b[d] as number), 0)

const CATEGORIES = ['fact', 'task', 'user_preference']

/** One query's hits. */
function nearest(
  index: MemoryVectorIndex,
  vector: Float32Array,
  k: number,
  categories?: readonly string[]
) {
  return index.nearest([{ vector, k }], categories)[0] ?? []
}

describe('the in-memory memory vector index', () => {
  const vectors = unitVectors(1500, 32, 5)
  const build = () => {
    const index = new MemoryVectorIndex(32)
    vectors.forEach((v, i) => index.put(i + 1, v, CATEGORIES[i % 3] as string))
    return index
  }

  it('returns the exact k nearest, nearest first, across growths, when it scans every memory', () => {
    const index = build()
    const [query] = unitVectors(1, 32, 99) as [Float32Array]
    const exact = vectors
      .map((v, i) => ({ id: i + 1, distance: 1 - cosine(query, v) }))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, 100)
    // 100 results admit 2,000 codes (hammingScan.ts): more than the 1,500 memories.
    const got = nearest(index, query, 100)
    expect(got.map((h) => h.id)).toEqual(exact.map((h) => h.id))
    expect(got[0]?.distance).toBeCloseTo(exact[0]?.distance as number, 5)
  })

  it('keeps to the categories asked for, and returns all of them when fewer than k', () => {
    const index = build()
    const [query] = unitVectors(1, 32, 7) as [Float32Array]
    const tasks = nearest(index, query, 2000, ['task'])
    expect(tasks).toHaveLength(500)
    expect(tasks.every((h) => (h.id - 1) % 3 === 1)).toBe(true)
    expect(nearest(index, query, 10, ['other'])).toEqual([])
  })

  it('replaces a vector and a category in place, and forgets removed memories', () => {
    const index = build()
    const target = vectors[700] as Float32Array
    index.put(3, target, 'fact')
    const [first, second] = nearest(index, target, 2)
    expect([first?.id, second?.id].sort()).toEqual([3, 701])
    index.setCategory(3, 'task')
    expect(nearest(index, target, 1, ['fact'])[0]?.id).not.toBe(3)
    index.remove([701, 3])
    expect(index.length).toBe(1498)
    const after = nearest(index, target, 5).map((h) => h.id)
    expect(after).not.toContain(701)
    expect(after).not.toContain(3)
    // The memory that moved into a freed place is still found by its own vector.
    const last = vectors[1499] as Float32Array
    expect(nearest(index, last, 1)[0]?.id).toBe(1500)
  })

  it('in a large store, admits by sign codes: the exact nearest are found, two queries in one scan', () => {
    const sample = clusteredVectors(3, 384)
    const stored = Array.from({ length: 12_000 }, sample)
    const index = new MemoryVectorIndex(384)
    stored.forEach((v, i) => index.put(i + 1, v, CATEGORIES[i % 3] as string))
    let found = 0
    for (let q = 0; q < 20; q++) {
      const queries = [
        { vector: sample(), k: 10 },
        { vector: sample(), k: 50 }
      ]
      const together = index.nearest(queries, ['fact', 'task'])
      expect(together).toEqual(queries.map((query) => index.nearest([query], ['fact', 'task'])[0]))
      const [query] = queries as [{ vector: Float32Array; k: number }]
      const exact = stored
        .map((v, i) => ({ id: i + 1, cosine: cosine(query.vector, v) }))
        .filter(({ id }) => (id - 1) % 3 !== 2)
        .sort((a, b) => b.cosine - a.cosine)
        .slice(0, 10)
      const got = (together[0] ?? []).map((hit) => hit.id)
      found += exact.filter(({ id }) => got.includes(id)).length
      // The cosines it returns are exact.
      expect(1 - (together[0]?.[0]?.distance as number)).toBeCloseTo(exact[0]?.cosine as number, 5)
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.98)
    // A stored memory's own vector finds it first (duplicate detection asks for k = 1).
    expect(nearest(index, stored[4_321] as Float32Array, 1)[0]?.id).toBe(4_322)
  })
})
