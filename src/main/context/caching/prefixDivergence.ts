/**
 * Where a request stopped repeating the previous one. Provider prompt caches serve the longest
 * prefix a request shares with an earlier one, so the first message that differs is where the
 * cache stopped helping: this names it (section, trace item, seq) from the two stored builds, so
 * the inspector can say "the cache missed because the window dropped message #12" instead of
 * only that it missed. Whole messages are compared, as the caching layouts mark whole messages.
 */
import type { BuiltContext, ProviderMessage, SectionName, TraceEntry } from '@shared/context'
import type { PrefixDivergence, PrefixPoint } from '@shared/costReport'

/** The framing each builder-made system block starts with (contextBuilder, retrievedMemories, pinningBlock). */
const SYSTEM_BLOCKS: readonly [prefix: string, section: SectionName][] = [
  ['[Summary of the conversation', 'summary'],
  ['[Memories:', 'retrieved'],
  ['[Current goal', 'pinning']
]

interface Located extends PrefixPoint {
  tokens: number
}

function sameMessage(a: ProviderMessage, b: ProviderMessage): boolean {
  return (
    a.role === b.role &&
    a.content === b.content &&
    (a.toolCallId ?? null) === (b.toolCallId ?? null) &&
    JSON.stringify(a.toolCalls ?? []) === JSON.stringify(b.toolCalls ?? [])
  )
}

/** Every provider message of a build with the section and trace item it came from. */
export function locateMessages(build: BuiltContext): Located[] {
  const byId = new Map<string, TraceEntry>()
  for (const entry of build.trace) if (!byId.has(entry.id)) byId.set(entry.id, entry)
  // History messages are sent oldest first, as the trace lists the ones it sent.
  const history = build.trace.filter(
    (e) => e.kind === 'message' && (e.decision === 'included' || e.decision === 'pinned')
  )
  let nextHistory = 0
  const last = build.messages.length - 1
  return build.messages.map((message, index): Located => {
    const point = (section: Located['section'], entry: TraceEntry | undefined): Located => ({
      index,
      section,
      itemId: entry?.id ?? null,
      seq: entry?.seq ?? null,
      role: message.role,
      tokens: entry?.tokens ?? 0
    })
    if (index === last && message.role === 'user') return point('input', byId.get('input'))
    if (message.role !== 'system') {
      const entry = history[nextHistory++]
      return point(entry?.section ?? 'recent', entry)
    }
    const block = SYSTEM_BLOCKS.find(([prefix]) => message.content.startsWith(prefix))
    if (block) {
      const [, section] = block
      if (section === 'retrieved') {
        return {
          ...point('retrieved', undefined),
          tokens: build.tokenStats.sections.retrieved.used
        }
      }
      return point(section, byId.get(section))
    }
    return index === 0 ? point('system', byId.get('system')) : point('other', undefined)
  })
}

const strip = ({ tokens: _tokens, ...point }: Located): PrefixPoint => point

/** How far `current` repeats `previous` from the start, and what differs first. */
export function prefixDivergence(previous: BuiltContext, current: BuiltContext): PrefixDivergence {
  const now = locateMessages(current)
  const before = locateMessages(previous)
  let shared = 0
  while (
    shared < current.messages.length &&
    shared < previous.messages.length &&
    sameMessage(current.messages[shared]!, previous.messages[shared]!)
  ) {
    shared++
  }
  const tokensOf = (points: Located[]) => points.reduce((sum, p) => sum + p.tokens, 0)
  const first = now[shared]
  const old = before[shared]
  return {
    sharedMessages: shared,
    sharedTokens: tokensOf(now.slice(0, shared)),
    totalMessages: now.length,
    totalTokens: tokensOf(now),
    first: first ? strip(first) : null,
    previous: first && old ? strip(old) : null
  }
}
