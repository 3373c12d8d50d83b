import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/main/store/database'
import { signCode } from '../../src/main/store/vectors/hammingScan'
import { blob } from '../../src/main/store/vectors/vectorBlobs'
import { randomUnitVector, seededRandom } from '../../scripts/bench/syntheticThread'

describe('sign codes computed in memory', () => {
  it('are the codes sqlite-vec stores (vec_quantize_binary), so queries and rows compare', () => {
    const db = openDatabase(':memory:')
    const quantize = db.prepare('SELECT vec_quantize_binary(?)').pluck()
    const random = seededRandom(5)
    for (const dimension of [8, 40, 384, 1024]) {
      for (let i = 0; i < 50; i++) {
        const vector = randomUnitVector(random, dimension)
        // Zeros and negative zeros at the edge: neither sets its bit.
        vector[0] = 0
        vector[1] = -0
        const bytes = quantize.get(blob(vector)) as Buffer
        const padded = new Uint8Array(Math.ceil(dimension / 32) * 4)
        padded.set(bytes)
        expect(signCode(vector)).toEqual(new Uint32Array(padded.buffer))
      }
    }
    db.close()
  })
})
