import { describe, expect, it } from 'vitest'
import {
  blendQueries,
  INPUT_IN_CONVERSATION
} from '../../../src/main/services/memory/searchCandidates'
import { similarity } from '../../../src/main/services/memory/queryRanker'

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values)
  return new Float32Array(values.map((v) => v / norm))
}

describe('the input read in its conversation', () => {
  it('is a unit vector near the conversation, nudged toward the input', () => {
    const input = unit(1, 0, 0)
    const conversation = unit(0, 1, 0)
    const blended = blendQueries(input, conversation)
    expect(similarity(blended, blended)).toBeCloseTo(1, 6)
    expect(similarity(blended, conversation)).toBeGreaterThan(similarity(blended, input))
    expect(similarity(blended, input)).toBeGreaterThan(0)
    // Orthogonal inputs: the input's share of the direction is exactly its weight.
    expect((blended[0] as number) / (blended[1] as number)).toBeCloseTo(INPUT_IN_CONVERSATION, 6)
  })

  it('is the conversation itself when the input says the same', () => {
    const same = unit(0.3, 0.4, 0.5)
    expect([...blendQueries(same, same)].map((v) => v.toFixed(6))).toEqual(
      [...same].map((v) => v.toFixed(6))
    )
  })

  it('never divides by zero', () => {
    const zero = new Float32Array(3)
    expect([...blendQueries(zero, zero)]).toEqual([0, 0, 0])
  })
})
