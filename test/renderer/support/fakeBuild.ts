/**
 * A small, deterministic stand-in for main's ContextBuilder, enough for renderer tests to see
 * real consequences: the draft's length moves the input section, a smaller budget drops older
 * messages, pins and excludes change decisions. It is not the real algorithm (that is tested
 * in test/unit/context); it only has to produce a well-formed `BuiltContext`.
 */
import { SECTIONS, type BuiltContext, type SectionStats, type TraceEntry } from '@shared/context'
import { BUDGETED_SECTIONS, type ContextConfig } from '@shared/contextConfig'
import type { Message } from '@shared/domain'

const FAKE_CONTEXT_WINDOW = 8_000
const FAKE_OUTPUT_RESERVE = 2_000

/** Four characters a token, plus framing, like a rough estimate. */
export const fakeTokens = (text: string): number => Math.ceil(text.length / 4) + 3

export function fakeBuild(
  systemPrompt: string,
  history: readonly Message[],
  input: string,
  config: ContextConfig
): BuiltContext {
  const total = config.totalBudget ?? FAKE_CONTEXT_WINDOW - FAKE_OUTPUT_RESERVE
  const sections = Object.fromEntries(
    SECTIONS.map((section): [string, SectionStats] => [
      section,
      { share: 0, budget: 0, used: 0, items: 0 }
    ])
  ) as Record<(typeof SECTIONS)[number], SectionStats>
  for (const section of BUDGETED_SECTIONS) {
    const share = Math.floor((total * config.percentages[section]) / 100)
    sections[section].share = share
    sections[section].budget = share
  }
  const spend = (section: keyof typeof sections, tokens: number) => {
    sections[section].used += tokens
    sections[section].items += 1
  }

  const trace: TraceEntry[] = []
  if (systemPrompt) {
    const tokens = fakeTokens(systemPrompt)
    spend('system', tokens)
    trace.push({ id: 'system', kind: 'system', section: 'system', tokens, decision: 'included' })
  }

  const sent = new Set<number>()
  let windowOpen = true
  const messageEntries: TraceEntry[] = []
  for (const message of [...history].reverse()) {
    const tokens = message.tokenCount
    let decision: TraceEntry['decision']
    if (message.excluded) decision = 'excluded_by_user'
    else if (message.pinned) decision = 'pinned'
    else if (windowOpen && sections.recent.used + tokens <= sections.recent.budget) {
      decision = 'included'
    } else {
      windowOpen = false
      decision = 'dropped_budget'
    }
    if (decision === 'included' || decision === 'pinned') {
      spend('recent', tokens)
      sent.add(message.id)
    }
    messageEntries.push({
      id: String(message.id),
      kind: 'message',
      section: 'recent',
      tokens,
      decision,
      seq: message.seq,
      role: message.role
    })
  }
  trace.push(...messageEntries.reverse())

  const inputTokens = fakeTokens(input) + 3
  spend('input', inputTokens)
  trace.push({
    id: 'input',
    kind: 'input',
    section: 'input',
    tokens: inputTokens,
    decision: 'included'
  })

  const kept = history.filter((message) => sent.has(message.id))
  return {
    messages: [
      ...(systemPrompt ? [{ role: 'system' as const, content: systemPrompt }] : []),
      ...kept.map((message) => ({ role: message.role, content: message.content })),
      { role: 'user', content: input }
    ],
    tools: [],
    tokenStats: {
      sections,
      total: SECTIONS.reduce((sum, section) => sum + sections[section].used, 0),
      budget: total,
      contextWindow: FAKE_CONTEXT_WINDOW,
      outputReserve: FAKE_OUTPUT_RESERVE
    },
    metadata: {
      engine: 'builder',
      model: config.model,
      encoding: 'estimate',
      includedMessageCount: kept.length,
      droppedMessageCount: messageEntries.filter((entry) => entry.decision === 'dropped_budget')
        .length,
      summarizedMessageCount: 0,
      usedSummary: false,
      retrievedMemoryCount: 0,
      warnings: []
    },
    trace,
    collapsed: [],
    window: {
      policy: config.window.policy,
      firstKeptSeq: kept[0]?.seq ?? null,
      stablePrefixMessages: systemPrompt ? 1 : 0
    }
  }
}
