import { describe, expect, it } from 'vitest'
import { ActiveTaskTracker } from '../../../../src/main/context/sections/activeTaskTracker'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import { renderPinningBlock } from '../../../../src/main/context/sections/pinningBlock'
import { config, message, request } from '../threadBuilder'

function track(...texts: string[]): ActiveTaskTracker {
  const tracker = new ActiveTaskTracker()
  texts.forEach((text, i) => tracker.observe(text, i + 1))
  return tracker
}

describe('the pinning block', () => {
  it('restates the goal and the previous one', () => {
    const block = renderPinningBlock(track('Fix the parser.', 'Thanks! Now write the tests.').state)
    expect(block).toBe(
      [
        '[Current goal] "Now write the tests." (message #2). Status: in progress.',
        'Previous goal: "Fix the parser." (done).',
        'If tool output just arrived, relate it to this goal before answering.'
      ].join('\n')
    )
  })

  it('says when no goal is active, and is absent before any goal', () => {
    expect(renderPinningBlock(track('Fix it please', 'thanks').state)).toBe(
      '[Current goal] None active; the last one, "Fix it please", is done.'
    )
    expect(renderPinningBlock({ goals: [] })).toBeNull()
  })

  it('goes right before the input, takes the current input into account, and can be switched off', () => {
    const taskState = track('Fix the parser.').state
    const messages = [message(1, 'user', 'Fix the parser.')]
    const on = buildContext(
      request({ messages, taskState, input: 'Thanks, works now!' }),
      config({ pinning: true })
    )
    expect(on.messages.at(-2)?.content).toBe(
      '[Current goal] None active; the last one, "Fix the parser.", is done.'
    )
    expect(on.messages.at(-1)?.content).toBe('Thanks, works now!')
    expect(on.trace.at(-1)).toMatchObject({ id: 'pinning', decision: 'included' })
    expect(taskState.goals[0]?.status).toBe('active')

    const off = buildContext(
      request({ messages, taskState, input: 'ok' }),
      config({ pinning: false })
    )
    expect(off.messages.map((m) => m.content)).toEqual(['Fix the parser.', 'ok'])
    expect(off.trace.some((t) => t.kind === 'pinning')).toBe(false)
    expect(off.tokenStats.sections.pinning.used).toBe(0)
  })

  it('is dropped with a warning when nothing is left for it', () => {
    const taskState = track('Fix the parser.').state
    const built = buildContext(
      request({ taskState, input: 'x '.repeat(40) }),
      config({ pinning: true, totalBudget: 60 })
    )
    expect(built.metadata.warnings.map((w) => w.code)).toContain('pinning_dropped')
    expect(built.trace.at(-1)).toMatchObject({ id: 'pinning', decision: 'dropped_budget' })
    expect(built.messages).toHaveLength(1)
  })
})
