import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import { buildContext } from '../../../../src/main/context/contextBuilder'
import { runSimulation } from '../../../../src/main/context/cli/simulation'
import { config, FIVE_SECTIONS, request } from '../threadBuilder'
import { randomRequest, randomThread } from '../randomThreads'

/**
 * Hashes of builds made by the builder before the chunked window (main at 82f56f0) from the
 * same seeded requests: `sliding` must reproduce them byte for byte. Seed 13's was remade on
 * 2026-11-28: its summary's cut used to depend on the build before it (gpt-tokenizer's shared
 * streaming decoder carried half a character over, tokenCounter.ts `within`); the new one is
 * what the old code builds for that request alone.
 */
const BEFORE_CHUNKED_WINDOW = [
  '937967704671b187',
  '76fe86944d72b794',
  'b72a6104656dfebe',
  '4b01c40ae9fa76d0',
  '4920085789ca83e0',
  '4c6d3c81a1c0bad9',
  '1b4436496b547031',
  '08bc0580f2149046',
  '9e79b87f70bf5935',
  'd53b28db9c6ad47d',
  '0d2c92e41f259bcb',
  '735db3a538f720de',
  '96169d1b6ea0ee07',
  '5dbfc2ad350aecbf',
  'f2aff52b3a98f8ce',
  '3eaf78e50af35b47',
  '6cb66267c20bb7e7',
  'ec878358f611bcff',
  '0b5a776e05fac0c7',
  'a325696a648f561b',
  '6042423ece5383ee',
  '9d2beae3021623fd',
  'e92d0a227650c891',
  '4aac4465746d46b0',
  '45d6d5d383bd9b0f',
  'e79f7c39a5cf3d52',
  '4ee9e97827103565',
  '7913ae5d6c285eed',
  'e47b074ba529706b',
  'f2621f87971a8a57',
  '81aac5def55f5938',
  'ff069937372c7800',
  'c2ad46ce2aed5d9b',
  '8f0b8f19a85b4d1a',
  '9120b0012e81a3af',
  '470ce5a7c382df8d',
  '0923d4a6d5b4e8bd',
  'a2b63dce519888f9',
  '4f4c1e8a6e3a2478',
  '8291393919fc9975',
  '93dae423b7fae6e7',
  '719986dc93a9d0d9',
  '7490a1a157597006',
  'd794d89ecd246214',
  '90697abdf664c2fb',
  'bed46e3a7970ef8b',
  '166b81052bcd0b67',
  '15837b2be0d30194',
  'b887fa2f7386e27f',
  '0d8c59d91c40b89d',
  '8a9c31ccb6625690',
  '94af828318d48734',
  'e0aa31612d62445d',
  '93dfc22a1074fb12',
  '3e9f08671758a67d',
  'f79fc7c1b91882b5',
  '3b22ed3925f60e73',
  '361b84cb6b2299b9',
  'ee8ac48444db8e58',
  '35f662da1038694a'
]

function sameAsBefore(built: BuiltContext): string {
  // The six sections there were before attachments and tools, in the same order.
  const sections = Object.fromEntries(
    Object.entries(built.tokenStats.sections).filter(
      ([name]) => !['attachments', 'tools'].includes(name)
    )
  )
  // `free` came later (issue #17): budget − total, a figure derived from the others.
  const stats: Partial<BuiltContext['tokenStats']> = { ...built.tokenStats }
  delete stats.free
  const text = JSON.stringify({
    messages: built.messages,
    trace: built.trace,
    metadata: built.metadata,
    collapsed: built.collapsed,
    stats: { ...stats, sections }
  })
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

const caseOf = (seed: number) => ({
  request: randomRequest(seed, 20 + (seed % 7) * 15),
  totalBudget: [150, 400, 900, 2000][seed % 4] as number,
  pinning: seed % 2 === 0
})

/** A tool result is always right after its call (or another result of it). */
function expectToolUnitsWhole(built: BuiltContext): void {
  built.messages.forEach((m, i) => {
    if (m.role !== 'tool') return
    const before = built.messages[i - 1]
    expect(before?.role === 'tool' || (before?.toolCalls?.length ?? 0) > 0).toBe(true)
  })
  built.messages.forEach((m, i) => {
    for (const call of m.toolCalls ?? []) {
      const results = built.messages.slice(i + 1).filter((r) => r.toolCallId === call.id)
      expect(results).toHaveLength(1)
    }
  })
}

describe('the sliding policy', () => {
  it('builds exactly what the builder built before the chunked window', () => {
    const hashes = BEFORE_CHUNKED_WINDOW.map((_: string, i: number) => {
      const { request, totalBudget, pinning } = caseOf(i + 1)
      return sameAsBefore(
        buildContext(
          request,
          config({
            totalBudget,
            pinning,
            percentages: FIVE_SECTIONS,
            window: { policy: 'sliding' }
          })
        )
      )
    })
    expect(hashes).toEqual(BEFORE_CHUNKED_WINDOW)
  })
})

describe('the chunked window', () => {
  it('never exceeds the budget and never splits a tool call from its results', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { request, totalBudget, pinning } = caseOf(seed)
      const built = buildContext(request, config({ totalBudget, pinning }))
      const mandatory = built.metadata.warnings.some((w) =>
        ['input_over_budget', 'pinned_over_budget'].includes(w.code)
      )
      if (!mandatory) expect(built.tokenStats.total).toBeLessThanOrEqual(totalBudget)
      expectToolUnitsWhole(built)
    }
  })

  it('cuts where the thread and the configuration say, whatever was built before', () => {
    const thread = randomThread(7, 400)
    const settings = config({ totalBudget: 3000 })
    const first = buildContext(request({ messages: thread }), settings)
    // Another build in between, then the same request again: no state carries over.
    buildContext(request({ messages: thread.slice(0, 200) }), settings)
    const again = buildContext(request({ messages: thread }), settings)
    expect(again.window).toEqual(first.window)
    expect(again.messages).toEqual(first.messages)
    // A suffix from the summary boundary, as the app may pass it, cuts at the same message.
    const summary = { content: 'Earlier: the parser.', lastMessageSeq: thread[100]!.seq }
    const pinned = thread.filter((m) => m.pinned)
    const whole = buildContext(request({ messages: thread, summary, pinned }), settings)
    const suffix = buildContext(request({ messages: thread.slice(90), summary, pinned }), settings)
    expect(suffix.window.firstKeptSeq).toBe(whole.window.firstKeptSeq)
    expect(suffix.messages).toEqual(whole.messages)
  })

  it('keeps the stable prefix byte-identical between turns except when it cuts a chunk', () => {
    const thread = randomThread(11, 600)
    const settings = config({ totalBudget: 4000 })
    let previous: BuiltContext | null = null
    let kept = 0
    let cuts = 0
    for (let end = 300; end < thread.length; end++) {
      if (thread[end]!.role !== 'user') continue
      const built = buildContext(
        request({ messages: thread.slice(0, end), input: thread[end]!.content }),
        settings
      )
      if (previous) {
        const stable = previous.messages.slice(0, previous.window.stablePrefixMessages)
        const same = built.messages.slice(0, stable.length)
        if (built.window.firstKeptSeq === previous.window.firstKeptSeq) {
          expect(same).toEqual(stable)
          kept++
        } else {
          expect(built.window.firstKeptSeq!).toBeGreaterThan(previous.window.firstKeptSeq!)
          cuts++
        }
      }
      previous = built
    }
    expect(cuts).toBeGreaterThan(0)
    expect(kept).toBeGreaterThan(cuts * 3)
  })

  it('drops a chunk at once: from full down to about a chunk below', () => {
    const thread = randomThread(3, 500).map((m) => ({ ...m, pinned: false, excluded: false }))
    const settings = config({ totalBudget: 4000 })
    const recentUsed: number[] = []
    for (let end = 300; end < 500; end++) {
      const built = buildContext(request({ messages: thread.slice(0, end) }), settings)
      recentUsed.push(built.tokenStats.sections.recent.used)
    }
    const drops = recentUsed.slice(1).map((used, i) => recentUsed[i]! - used)
    // Each cut gives back several hundred tokens at once (a chunk is 15 % of 4,000)...
    const bigDrops = drops.filter((d) => d > 300)
    expect(bigDrops.length).toBeGreaterThan(0)
    // ...and in between the window only grows.
    expect(drops.filter((d) => d > 0 && d <= 300)).toHaveLength(0)
  })
})

function chatDocument(turns: number): { system: string; messages: object[] } {
  const messages: object[] = []
  for (let i = 0; i < turns; i++) {
    messages.push({
      id: `u${i}`,
      seq: 2 * i + 1,
      role: 'user',
      content: `Question ${i}: how should the parser treat 1.234,${i} in row ${i}?`
    })
    messages.push({
      id: `a${i}`,
      seq: 2 * i + 2,
      role: 'assistant',
      content:
        `Answer ${i}: ` +
        'It is a decimal comma; strip the dots, swap the comma, then parse. '.repeat(1 + (i % 4))
    })
  }
  return { system: 'You are a careful assistant for a budgeting app.', messages }
}

describe('ctx simulate', () => {
  const document = chatDocument(300)

  it.each([4000, 8000, 16000])(
    'keeps three quarters of a long chat cacheable at %i tokens',
    (budget) => {
      const result = runSimulation(document, { budget })
      if (!result.ok) throw new Error(result.issues.join('; '))
      expect(result.report.policy).toBe('chunked')
      expect(result.report.measuredTurns).toBeGreaterThan(10)
      expect(result.report.cacheablePrefixShare).toBeGreaterThanOrEqual(0.75)
      expect(result.report.cuts.length).toBeGreaterThan(0)
    }
  )

  it('shows how little a sliding window leaves cacheable', () => {
    const result = runSimulation(document, { budget: 6000, policy: 'sliding' })
    if (!result.ok) throw new Error(result.issues.join('; '))
    expect(result.report.cacheablePrefixShare).toBeLessThan(0.2)
    // It moves on nearly every turn once full.
    expect(result.report.cuts.length).toBeGreaterThan(result.report.measuredTurns * 0.8)
  })

  it('refuses a document that is not a thread', () => {
    const result = runSimulation({ messages: 'no' })
    expect(result.ok).toBe(false)
  })
})

describe('a huge input', () => {
  it('slides the window rather than sending no history when the steady budget is gone', () => {
    const thread = randomThread(5, 200).map((m) => ({ ...m, pinned: false, excluded: false }))
    const input = 'log line with an error code 42 '.repeat(420)
    const settings = config({ totalBudget: 3600 })
    const chunked = buildContext(request({ messages: thread, input }), settings)
    const sliding = buildContext(
      request({ messages: thread, input }),
      config({ totalBudget: 3600, window: { policy: 'sliding' } })
    )
    expect(chunked.tokenStats.sections.input.used).toBeGreaterThan(3000)
    expect(chunked.metadata.includedMessageCount).toBeGreaterThan(0)
    expect(chunked.metadata.includedMessageCount).toBe(sliding.metadata.includedMessageCount)
  })
})
