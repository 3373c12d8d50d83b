import { describe, expect, it } from 'vitest'
import type { ActiveModel } from '../../../src/main/services/memory/memoryIndexer'
import { QueryRanker, similarity } from '../../../src/main/services/memory/queryRanker'

/** A model whose query vectors say which space made them, counting its calls. */
function modelIn(space: string, value: number) {
  const calls: string[] = []
  const model = {
    space: { key: space },
    embedder: {
      embed: async (texts: string[]) => {
        calls.push(...texts)
        return texts.map(() => new Float32Array([value, 0]))
      }
    }
  } as unknown as ActiveModel
  return { model, calls }
}

describe('the query ranker', () => {
  it('embeds a text once per vector space and never answers with another space’s vector', async () => {
    const ranker = new QueryRanker()
    const first = modelIn('bge/512', 1)
    const second = modelIn('e5/512', -1)
    expect(await ranker.embed(first.model, 'tea')).toEqual(new Float32Array([1, 0]))
    expect(await ranker.embed(first.model, 'tea')).toEqual(new Float32Array([1, 0]))
    expect(first.calls).toEqual(['tea'])
    expect(ranker.cached(second.model, 'tea')).toBeNull()
    expect(await ranker.embed(second.model, 'tea')).toEqual(new Float32Array([-1, 0]))
  })

  it('gives up waiting at the deadline, and keeps the vector that arrives later', async () => {
    let release: () => void = () => {}
    const slow = {
      space: { key: 'e5/512' },
      embedder: {
        embed: (texts: string[]) =>
          new Promise<Float32Array[]>((resolve) => {
            release = () => resolve(texts.map(() => new Float32Array([0, 1])))
          })
      }
    } as unknown as ActiveModel
    const ranker = new QueryRanker()
    await expect(ranker.embedWithin(slow, 'late', 5)).rejects.toThrow()
    release()
    await expect.poll(() => ranker.cached(slow, 'late')).toEqual(new Float32Array([0, 1]))
  })

  it('embeds a text once while it is being embedded, and keeps the texts used most lately', async () => {
    let release: () => void = () => {}
    const calls: string[] = []
    const model = {
      space: { key: 'e5/384' },
      embedder: {
        embed: (texts: string[]) => {
          calls.push(...texts)
          return new Promise<Float32Array[]>((resolve) => {
            release = () => resolve(texts.map(() => new Float32Array([1, 0])))
          })
        }
      }
    } as unknown as ActiveModel
    const ranker = new QueryRanker()
    // Ahead of the send (the conversation as a reply ends), then the send itself.
    const ahead = ranker.embed(model, 'the conversation')
    const send = ranker.embed(model, 'the conversation')
    release()
    expect(await send).toBe(await ahead)
    expect(calls).toEqual(['the conversation'])

    // A preview per keystroke embeds a new draft each time; the conversation, read by each
    // of them, stays cached.
    for (let i = 0; i < 40; i++) {
      const draft = ranker.embed(model, `draft ${i}`)
      release()
      await draft
      expect(ranker.cached(model, 'the conversation')).not.toBeNull()
    }
    expect(ranker.cached(model, 'draft 0')).toBeNull()
  })

  it('refuses to compare vectors of different lengths', () => {
    expect(similarity(new Float32Array([0.6, 0.8]), new Float32Array([0.6, 0.8]))).toBeCloseTo(1)
    expect(() => similarity(new Float32Array(384), new Float32Array(512))).toThrow(/spaces/)
  })
})
