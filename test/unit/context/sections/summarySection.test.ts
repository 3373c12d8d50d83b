import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import type { BuiltContext } from '@shared/context'
import { chat, config, message, request, toolGroup } from '../threadBuilder'

function decisions(built: BuiltContext): Record<string, string> {
  return Object.fromEntries(built.trace.map((t) => [t.id, t.decision]))
}

describe('the summary boundary', () => {
  it('marks covered messages and sends the summary first after the system prompt', () => {
    const built = buildContext(
      request({
        messages: chat(10),
        systemPrompt: 'Be brief.',
        summary: { content: 'They agreed on a plan.', lastMessageSeq: 6 }
      }),
      config({ totalBudget: 5000 })
    )
    expect(built.metadata).toMatchObject({
      usedSummary: true,
      summarizedMessageCount: 6,
      includedMessageCount: 4
    })
    expect(decisions(built)['6']).toBe('covered_by_summary')
    expect(built.messages[1]?.content).toMatch(
      /^\[Summary of the conversation up to message #6\]\nThey agreed/
    )
  })

  it('sends a tool call whose results the summary does not cover, whole', () => {
    const thread = [message(1, 'user', 'go'), ...toolGroup(2, ['c1']), message(4, 'user', 'next')]
    const built = buildContext(
      request({ messages: thread, summary: { content: 'S', lastMessageSeq: 2 } }),
      config({ totalBudget: 5000 })
    )
    expect(decisions(built)).toMatchObject({
      '1': 'covered_by_summary',
      '2': 'included',
      '3': 'included'
    })
  })
})
