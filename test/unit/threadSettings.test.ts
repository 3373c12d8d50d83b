/**
 * The thread's own model, read the same way by main (which model answers) and the renderer
 * (what the composer shows): settings also come from imports and other versions, so only a
 * complete model counts and anything else means the default.
 */
import { describe, expect, it } from 'vitest'
import { modelOfThread, type ThreadSettings } from '@shared/threadSettings'

describe("a thread's own model", () => {
  it('is the model its settings name', () => {
    expect(modelOfThread({ model: { providerId: 'p1', modelId: 'gpt-4o' } })).toEqual({
      providerId: 'p1',
      modelId: 'gpt-4o'
    })
  })

  it('is none when the settings name none, or not a usable one', () => {
    const broken = [
      undefined,
      {},
      { model: null },
      { model: { providerId: 'p1' } },
      { model: { providerId: '', modelId: 'gpt-4o' } },
      { model: { providerId: 'p1', modelId: 42 } },
      { model: 'gpt-4o' }
    ] as (ThreadSettings | undefined)[]
    for (const settings of broken) expect(modelOfThread(settings)).toBeNull()
  })
})
