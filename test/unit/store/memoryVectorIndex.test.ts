import { describe, expect, it } from 'vitest'
import { MemoryVectorIndex } from '../../../src/main/store/vectors/memoryVectorIndex'
import { randomUnitVector, seededRandom } from '../../../scripts/bench/syntheticThread'

function unitVectors(count: number, dimension: number, seed: number): Float32Array[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, () => randomUnitVector(random, dimension))
}

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, x, d) => sum + x * (b[d] as number), 0)

const CATEGORIES = ['fact', 'task', 'user_preference']

describe('the in-memory memory vector index', () => {
  const vectors = unitVectors(1500, 32, 5)
  const build = () => {
    const index = new MemoryVectorIndex(32)
    vectors.forEach((v, i) => index.put(i + 1, v, CATEGORIES[i % 3] as string))
    return index
  }

  it('returns the exact k nearest, nearest first, across growths', () => {
    const index = build()
    const [query] = unitVectors(1, 32, 99) as [Float32Array]
    const exact = vectors
      .map((v, i) => ({ id: i + 1, distance: 1 - cosine(query, v) }))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, 40)
    const got = index.nearest(query, 40)
    expect(got.map((h) => h.id)).toEqual(exact.map((h) => h.id))
    expect(got[0]?.distance).toBeCloseTo(exact[0]?.distance as number, 5)
  })

  it('keeps to the categories asked for, and returns all of them when fewer than k', () => {
    const index = build()
    const [query] = unitVectors(1, 32, 7) as [Float32Array]
    const tasks = index.nearest(query, 2000, ['task'])
    expect(tasks).toHaveLength(500)
    expect(tasks.every((h) => (h.id - 1) % 3 === 1)).toBe(true)
    expect(index.nearest(query, 10, ['other'])).toEqual([])
  })

  it('replaces a vector and a category in place, and forgets removed memories', () => {
    const index = build()
    const target = vectors[700] as Float32Array
    index.put(3, target, 'fact')
    const [first, second] = index.nearest(target, 2)
    expect([first?.id, second?.id].sort()).toEqual([3, 701])
    index.setCategory(3, 'task')
    expect(index.nearest(target, 1, ['fact'])[0]?.id).not.toBe(3)
    index.remove([701, 3])
    expect(index.length).toBe(1498)
    const after = index.nearest(target, 5).map((h) => h.id)
    expect(after).not.toContain(701)
    expect(after).not.toContain(3)
    // The memory that moved into a freed place is still found by its own vector.
    const last = vectors[1499] as Float32Array
    expect(index.nearest(last, 1)[0]?.id).toBe(1500)
  })
})
