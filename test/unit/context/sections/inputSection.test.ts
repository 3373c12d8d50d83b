import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import { REPLY_PRIMING_TOKENS, TokenMeter } from '../../../../src/main/context/tokens/messageTokens'
import { o200kCounter } from '../../../../src/main/context/tokens/tokenCounter'
import { chat, config, request } from '../threadBuilder'

const meter = new TokenMeter(o200kCounter, 1)
const inputCost = (input: string): number => meter.message(input) + REPLY_PRIMING_TOKENS

describe('the input guarantee', () => {
  it('sends a huge input whole, last, and says it is over budget', () => {
    const input = '请帮我检查这段日志。'.repeat(2000)
    const built = buildContext(
      request({ input, messages: chat(20) }),
      config({ totalBudget: 2000 })
    )
    expect(built.messages.at(-1)).toEqual({ role: 'user', content: input })
    expect(built.metadata.warnings.map((w) => w.code)).toContain('input_over_budget')
    expect(built.tokenStats.sections.input.used).toBe(inputCost(input))
    expect(built.metadata.includedMessageCount).toBe(0)
  })

  it('takes budget from the other sections before declaring the input too big', () => {
    const input = 'word '.repeat(300)
    const built = buildContext(
      request({ input, messages: chat(200) }),
      config({ totalBudget: 1000 })
    )
    expect(built.metadata.warnings).toEqual([])
    expect(built.tokenStats.sections.input.budget).toBeGreaterThan(
      built.tokenStats.sections.input.share
    )
    expect(built.tokenStats.total).toBeLessThanOrEqual(1000)
  })
})
