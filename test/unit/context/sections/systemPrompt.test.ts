import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import { chat, config, request } from '../threadBuilder'

describe('the system prompt', () => {
  it('is cut only as a last resort, with a warning', () => {
    const systemPrompt = 'Rule: always cite your sources. '.repeat(100)
    const roomy = buildContext(
      request({ systemPrompt, messages: chat(50) }),
      config({ totalBudget: 2000 })
    )
    expect(roomy.messages[0]?.content).toBe(systemPrompt)
    expect(roomy.metadata.warnings).toEqual([])
    const tight = buildContext(request({ systemPrompt }), config({ totalBudget: 300 }))
    expect(tight.metadata.warnings.map((w) => w.code)).toEqual(['system_truncated'])
    expect(systemPrompt.startsWith(tight.messages[0]?.content ?? 'x')).toBe(true)
    expect(tight.trace[0]).toMatchObject({
      id: 'system',
      decision: 'included',
      note: expect.stringMatching(/truncated/)
    })
  })
})
