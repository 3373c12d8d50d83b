import { describe, expect, it } from 'vitest'
import { toModelPrompt } from '../../../src/main/services/providers/messageMapping'

describe('mapping a request for a provider', () => {
  it('never sends an assistant turn without visible text, whatever white space it holds', () => {
    for (const blank of ['', ' \n', '\u3000', '\u00a0\t', '\u2028\ufeff']) {
      const { messages } = toModelPrompt('anthropic', [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: blank },
        { role: 'user', content: 'anyone there?' }
      ])
      expect(messages.map((m) => m.role)).toEqual(['user', 'user'])
    }
    // A zero-width space is not white space: that reply is sent as it is.
    const { messages } = toModelPrompt('openai', [{ role: 'assistant', content: '\u200b' }])
    expect(messages).toHaveLength(1)
  })
})
