import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import type { BuiltContext, ContextMessage } from '@shared/context'
import { chat, config, message, request, toolGroup } from '../threadBuilder'

function decisions(built: BuiltContext): Record<string, string> {
  return Object.fromEntries(built.trace.map((t) => [t.id, t.decision]))
}

describe('pinned messages', () => {
  it('sends pinned messages whatever their age, and never excluded ones', () => {
    const thread = chat(120)
    const pinnedOld = { ...(thread[4] as ContextMessage), pinned: true }
    const excludedNew = { ...(thread[118] as ContextMessage), excluded: true }
    thread[4] = pinnedOld
    thread[118] = excludedNew
    const built = buildContext(request({ messages: thread }), config({ totalBudget: 1000 }))
    const d = decisions(built)
    expect(d['5']).toBe('pinned')
    expect(d['119']).toBe('excluded_by_user')
    expect(d['120']).toBe('included')
    expect(d['4']).toBe('dropped_budget')
    const contents = built.messages.map((m) => m.content)
    expect(contents).toContain(pinnedOld.content)
    expect(contents).not.toContain(excludedNew.content)
    // Pinned messages keep their place in time: before the window's messages.
    expect(contents.indexOf(pinnedOld.content)).toBeLessThan(
      contents.indexOf((thread[119] as ContextMessage).content)
    )
  })

  it('pins a tool result together with its call; excluding a member leaves the group out', () => {
    const g1 = toolGroup(2, ['c1'])
    const g2 = toolGroup(4, ['c2'])
    const thread = [message(1, 'user', 'go'), ...g1, ...g2, ...chat(200, 6)]
    thread[2] = { ...(thread[2] as ContextMessage), pinned: true } // result of c1
    thread[3] = { ...(thread[3] as ContextMessage), excluded: true } // call c2
    const built = buildContext(request({ messages: thread }), config({ totalBudget: 600 }))
    const d = decisions(built)
    expect(d['2']).toBe('included')
    expect(d['3']).toBe('pinned')
    expect(built.trace.find((t) => t.id === '2')?.note).toMatch(/pinned message #3/)
    const calls = built.messages.filter((m) => m.toolCalls)
    expect(calls.map((m) => m.toolCalls?.[0]?.id)).toEqual(['c1'])
  })
})
