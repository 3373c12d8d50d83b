import { describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import { toolDefinitionJson } from '../../../../src/main/context/sections/toolsSection'
import { o200kCounter } from '../../../../src/main/context/tokens/tokenCounter'
import { config, request, tool } from '../threadBuilder'

const section = (built: BuiltContext, name: 'attachments' | 'tools') =>
  built.trace.filter((entry) => entry.section === name)

describe('the tools section', () => {
  it('counts each schema as the JSON the provider receives and keeps the given order', () => {
    const tools = [tool('search_history', 0.2), tool('open_message', 0.9)]
    const built = buildContext(request({ tools }), config({ totalBudget: 4000 }))
    expect(built.tools.map((t) => t.name)).toEqual(['search_history', 'open_message'])
    const entries = section(built, 'tools')
    expect(entries.map((e) => [e.id, e.decision, e.tokens])).toEqual(
      tools.map((t) => [`tool:${t.name}`, 'included', o200kCounter.count(toolDefinitionJson(t))])
    )
    expect(built.tokenStats.sections.tools.used).toBe(entries.reduce((s, e) => s + e.tokens, 0))
  })

  it('leaves out the least relevant tools when they do not fit, and says which', () => {
    const tools = Array.from({ length: 30 }, (_, i) => tool(`tool_${i}`, i / 30, 40))
    const built = buildContext(request({ tools }), config({ totalBudget: 2000 }))
    const dropped = section(built, 'tools').filter((e) => e.decision === 'dropped_budget')
    expect(dropped.length).toBeGreaterThan(0)
    const sentNames = new Set(built.tools.map((t) => t.name))
    const lowestSent = Math.min(...built.tools.map((t) => t.relevance ?? 0))
    for (const entry of dropped) {
      expect(sentNames.has(entry.id.slice('tool:'.length))).toBe(false)
      expect(entry.score!).toBeLessThan(lowestSent)
    }
    const warning = built.metadata.warnings.find((w) => w.code === 'tools_dropped')
    expect(warning?.message).toContain('tool_0')
    expect(built.tokenStats.total).toBeLessThanOrEqual(2000)
  })
})
