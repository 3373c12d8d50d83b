import { describe, expect, it } from 'vitest'
import {
  BudgetAllocator,
  REDISTRIBUTION_ORDER,
  sectionShares,
  totalBudgetOf
} from '../../../src/main/context/budget'
import {
  ContextConfigPatchSchema,
  DEFAULT_PERCENTAGES,
  formatIssues,
  resolveContextConfig,
  SectionPercentagesSchema
} from '@shared/contextConfig'
import { buildContext } from '../../../src/main/context/contextBuilder'
import type { BuiltContext } from '@shared/context'
import { chat, config, FIVE_SECTIONS, message, request } from './threadBuilder'

function used(built: BuiltContext): Record<string, number> {
  return Object.fromEntries(Object.entries(built.tokenStats.sections).map(([k, v]) => [k, v.used]))
}

describe('percentages', () => {
  it('splits the total by the default shares', () => {
    expect(sectionShares(10_000, DEFAULT_PERCENTAGES)).toEqual({
      system: 1500,
      summary: 1000,
      retrieved: 1500,
      recent: 4000,
      input: 500,
      pinning: 0,
      attachments: 1000,
      tools: 500
    })
  })

  it('rejects a share outside 0-100 and names the field', () => {
    const result = SectionPercentagesSchema.safeParse({
      ...DEFAULT_PERCENTAGES,
      recent: 120,
      input: -1
    })
    expect(result.success).toBe(false)
    if (!result.success) {
      expect(formatIssues(result.error)).toEqual([
        'recent: must be between 0 and 100',
        'input: must be between 0 and 100'
      ])
    }
  })

  it('rejects shares that add up to more than 100, with the sum', () => {
    const result = resolveContextConfig({ percentages: { recent: 55 } })
    expect(result).toEqual({
      ok: false,
      issues: ['percentages: the sections add up to 115 %, at most 100 %']
    })
  })

  it('merges a thread override over the global config, and null restores a default', () => {
    const result = resolveContextConfig(
      { totalBudget: 4000, percentages: { recent: 40, summary: 15 } },
      { percentages: { system: 10 }, model: 'gpt-4.1', totalBudget: null }
    )
    expect(result.ok && result.config).toMatchObject({
      model: 'gpt-4.1',
      percentages: {
        system: 10,
        summary: 15,
        retrieved: 15,
        recent: 40,
        input: 5,
        attachments: 10,
        tools: 5
      }
    })
    expect(result.ok && 'totalBudget' in result.config).toBe(false)
  })

  it('refuses unknown keys in a settings patch', () => {
    expect(ContextConfigPatchSchema.safeParse({ percentage: {} }).success).toBe(false)
  })
})

describe('the allocator', () => {
  it('pools what sections do not need and hands it out, mandatory needs first', () => {
    const budget = new BudgetAllocator(1000, FIVE_SECTIONS)
    budget.hold('input', 80) // share 50: needs 30 more
    budget.hold('system', 100) // share 200: gives 100
    budget.hold('summary', 0) // gives 100
    budget.hold('retrieved', 100)
    budget.hold('recent', Infinity)
    expect(budget.unallocated).toBe(200)
    expect(budget.obtain('input', 30)).toBe(30)
    expect(budget.offerPool('recent')).toBe(550 + 170)
  })

  it('reclaims from summary, then retrieved, then recent when the pool runs dry', () => {
    const budget = new BudgetAllocator(1000, FIVE_SECTIONS)
    budget.hold('input', 50)
    budget.hold('system', 200)
    budget.hold('summary', 100)
    budget.hold('retrieved', 100)
    budget.hold('recent', Infinity)
    budget.protect('recent', 500)
    expect(budget.available('input')).toBe(250)
    expect(budget.obtain('input', 400)).toBe(250)
    expect(budget.holding('summary')).toBe(0)
    expect(budget.holding('retrieved')).toBe(0)
    expect(budget.holding('recent')).toBe(500)
  })

  it('offers the pool to retrieved first, whichever section is placed first', () => {
    expect(REDISTRIBUTION_ORDER).toEqual(['tools', 'attachments', 'retrieved', 'recent', 'summary'])
    const budget = new BudgetAllocator(1000, FIVE_SECTIONS)
    budget.hold('input', 50)
    budget.hold('system', 100) // gives 100
    budget.hold('summary', 0) // gives 100
    budget.hold('retrieved', 250) // share 100: waits for 150 of the pool
    budget.hold('recent', Infinity)
    expect(budget.unallocated).toBe(200)
    // The builder fills the window first: it gets its share and what retrieved does not need.
    expect(budget.offerPool('recent')).toBe(550 + 50)
    expect(budget.offerPool('retrieved')).toBe(250)
    expect(budget.unallocated).toBe(0)
  })

  it('gives recent the whole pool when retrieved needs no more than its share', () => {
    const budget = new BudgetAllocator(1000, FIVE_SECTIONS)
    budget.hold('input', 50)
    budget.hold('system', 200)
    budget.hold('summary', 0)
    budget.hold('retrieved', 40)
    budget.hold('recent', Infinity)
    expect(budget.offerPool('recent')).toBe(550 + 100 + 60)
  })

  it("lowers a section's claim when it releases: duplicates free budget for the window", () => {
    const budget = new BudgetAllocator(1000, FIVE_SECTIONS)
    budget.hold('input', 50)
    budget.hold('system', 0) // gives 200
    budget.hold('summary', 100)
    budget.hold('retrieved', 400)
    budget.hold('recent', Infinity)
    expect(budget.offerPool('recent')).toBe(550)
    budget.release('retrieved', 60) // the window already sends most of what was recalled
    expect(budget.offerPool('recent')).toBe(550 + 200 + 40)
    expect(budget.offerPool('retrieved')).toBe(60)
  })

  it('keeps an unassigned percentage as headroom', () => {
    const budget = new BudgetAllocator(1000, { ...FIVE_SECTIONS, recent: 45 })
    budget.hold('recent', 0)
    expect(budget.unallocated).toBe(450)
  })
})

describe('the total budget', () => {
  it('reads the total the way the builder does', () => {
    const resolved = resolveContextConfig({ totalBudget: 4000 })
    expect(resolved.ok && totalBudgetOf(resolved.config)).toBe(4000)
    const windowed = resolveContextConfig({ contextWindow: 10_000, outputReserve: 2_000 })
    expect(windowed.ok && totalBudgetOf(windowed.config)).toBe(8_000)
  })

  it('by default, never exceeds what the safety net lets through', () => {
    // The window less a small reply would be over 85 % of the window: every long thread's
    // build would be made twice, the second capped by the net, and warn about it.
    const small = resolveContextConfig({ contextWindow: 10_000, outputReserve: 1_000 })
    expect(small.ok && totalBudgetOf(small.config)).toBe(8_500)
    const gpt4o = resolveContextConfig({ model: 'gpt-4o' })
    expect(gpt4o.ok && totalBudgetOf(gpt4o.config)).toBe(108_800)
    const built = buildContext(request({ messages: [] }), config({ model: 'gpt-4o' }))
    expect(built.tokenStats.budget).toBe(108_800)
  })
})

describe('redistribution in builds', () => {
  it("gives a long thread's recall the unused shares first; the window keeps its own", () => {
    const memories = Array.from({ length: 40 }, (_, i) => ({
      id: `m${i}`,
      content: `memory number ${i}: the user prefers concise answers and works on a budgeting app`,
      score: 1 - i / 100
    }))
    const built = buildContext(
      request({ messages: chat(500), systemPrompt: 'Be brief.', memories }),
      config({ totalBudget: 4000, window: { policy: 'sliding' } })
    )
    const { retrieved, recent } = built.tokenStats.sections
    expect(retrieved.used).toBeGreaterThan(retrieved.share)
    expect(built.metadata.retrievedMemoryCount).toBe(40)
    expect(recent.used).toBeGreaterThanOrEqual(recent.share - 60) // whole messages only
    expect(recent.budget).toBeGreaterThan(recent.share)
    expect(built.tokenStats.total).toBeLessThanOrEqual(4000)
    expect(built.tokenStats.total).toBeGreaterThan(3900)
  })

  it('gives an empty thread the recent share for memories', () => {
    const memories = Array.from({ length: 60 }, (_, i) => ({
      id: `m${i}`,
      content: `memory number ${i}: the user prefers concise answers, uses TypeScript and pnpm, and works on a budgeting app`,
      score: 1 - i / 100
    }))
    const built = buildContext(request({ memories }), config({ totalBudget: 2000 }))
    const retrieved = built.tokenStats.sections.retrieved
    expect(retrieved.share).toBe(300)
    expect(retrieved.used).toBeGreaterThan(1000)
    expect(retrieved.budget).toBe(retrieved.used)
    expect(built.metadata.retrievedMemoryCount).toBeGreaterThan(30)
  })

  it('gives a long thread the unused system and summary shares for older messages', () => {
    const messages = chat(500)
    const narrow = buildContext(
      request({ messages, systemPrompt: 'x '.repeat(300) }),
      config({ totalBudget: 4000, window: { policy: 'sliding' } })
    )
    const wide = buildContext(
      request({ messages, systemPrompt: 'Be brief.' }),
      config({ totalBudget: 4000, window: { policy: 'sliding' } })
    )
    expect(wide.metadata.includedMessageCount).toBeGreaterThan(narrow.metadata.includedMessageCount)
    expect(wide.tokenStats.sections.recent.budget).toBeGreaterThan(
      wide.tokenStats.sections.recent.share
    )
    expect(wide.tokenStats.total).toBeLessThanOrEqual(4000)
    expect(wide.tokenStats.total).toBeGreaterThan(3900)
  })

  it('never exceeds the total while every mandatory item fits', () => {
    for (const totalBudget of [200, 500, 1000, 3000]) {
      const built = buildContext(
        request({
          messages: chat(100),
          systemPrompt: 'You are a helpful assistant.',
          summary: { content: 'Earlier the user set up the repository.', lastMessageSeq: 10 },
          memories: [{ id: 'm', content: 'The user likes short answers.', score: 0.9 }]
        }),
        config({ totalBudget })
      )
      expect(built.tokenStats.total).toBeLessThanOrEqual(totalBudget)
      expect(built.metadata.warnings.filter((w) => w.code === 'input_over_budget')).toEqual([])
    }
  })

  it('builds within a 10-token budget: input whole, system cut, the rest left out', () => {
    const built = buildContext(
      request({
        messages: chat(3),
        systemPrompt: 'You are a careful assistant who explains every step.',
        input: 'hi'
      }),
      config({ totalBudget: 10 })
    )
    expect(built.messages.at(-1)).toEqual({ role: 'user', content: 'hi' })
    expect(used(built).input).toBe(7)
    expect(built.tokenStats.total).toBeLessThanOrEqual(10)
    expect(built.metadata.warnings.map((w) => w.code)).toContain('system_truncated')
    expect(built.metadata.includedMessageCount).toBe(0)
    expect(built.metadata.droppedMessageCount).toBe(3)
  })

  it('accepts zero shares: with recent at 0 % only spare budget reaches the window', () => {
    const built = buildContext(
      request({ messages: [message(1, 'user', 'old question')] }),
      config({
        totalBudget: 1000,
        percentages: {
          system: 0,
          summary: 0,
          retrieved: 0,
          recent: 0,
          input: 100,
          attachments: 0,
          tools: 0
        },
        window: { policy: 'sliding' }
      })
    )
    expect(built.tokenStats.sections.recent.share).toBe(0)
    expect(built.metadata.includedMessageCount).toBe(1)
  })
})
