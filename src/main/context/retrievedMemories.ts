/**
 * The retrieved section: memory candidates ranked by score, duplicates removed (against each
 * other and against messages already sent verbatim), then placed greedily, most relevant
 * first. Unlike the window, a memory that does not fit is skipped and smaller, lower-ranked
 * ones may still fit: memories are independent of each other.
 */
import type { TokenMeter } from './messageTokens'
import type { ContextMessage, Decision, MemoryCandidate, TraceEntry } from '@shared/context'

const MEMORIES_HEADER = '[Memories: from earlier conversations, most relevant first]'
const PREVIEW_CHARS = 120

export interface MemoryItem {
  candidate: MemoryCandidate
  /** Cost of its line in the block. */
  tokens: number
  decision: Decision
}

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function line(content: string): string {
  return `\n- ${normalized(content)}`
}

/** Ranked by score (ties keep the search's order); repeats of an earlier item are duplicates. */
export function rankMemories(
  candidates: readonly MemoryCandidate[],
  meter: TokenMeter
): MemoryItem[] {
  const seen = new Set<string>()
  return [...candidates]
    .sort((a, b) => b.score - a.score)
    .map((candidate) => {
      const key = normalized(candidate.content)
      const duplicate = seen.has(`id:${candidate.id}`) || seen.has(key)
      seen.add(`id:${candidate.id}`).add(key)
      return {
        candidate,
        tokens: meter.fragment(line(candidate.content)),
        decision: duplicate ? 'duplicate' : 'dropped_budget'
      }
    })
}

/**
 * Marks candidates that repeat a message already in the request: the same message id, or the
 * same text. Exact text (trimmed) on purpose: normalising every window message's whitespace
 * would cost more than the rest of the build, and a recalled message carries its id anyway.
 */
export function markSentDuplicates(
  items: readonly MemoryItem[],
  sent: readonly ContextMessage[]
): void {
  const open = items.filter((item) => item.decision !== 'duplicate')
  if (open.length === 0 || sent.length === 0) return
  const ids = new Set(sent.map((m) => String(m.id)))
  const contents = new Set(sent.map((m) => m.content.trim()))
  for (const item of open) {
    const { messageId, content } = item.candidate
    if ((messageId !== undefined && ids.has(String(messageId))) || contents.has(content.trim())) {
      item.decision = 'duplicate'
    }
  }
}

/** The block's header and framing, paid once when at least one memory is placed. */
function blockOverhead(meter: TokenMeter): number {
  return meter.message(MEMORIES_HEADER)
}

/** What the section would cost if every non-duplicate candidate were placed. */
export function memoriesDemand(items: readonly MemoryItem[], meter: TokenMeter): number {
  const lines = items.filter((i) => i.decision !== 'duplicate')
  return lines.length === 0 ? 0 : lines.reduce((sum, i) => sum + i.tokens, blockOverhead(meter))
}

/** Places candidates in rank order within `budget`; returns the tokens used. */
export function placeMemories(
  items: readonly MemoryItem[],
  budget: number,
  meter: TokenMeter
): number {
  const overhead = blockOverhead(meter)
  let used = 0
  for (const item of items) {
    if (item.decision === 'duplicate') continue
    const cost = item.tokens + (used === 0 ? overhead : 0)
    if (used + cost <= budget) {
      item.decision = 'included'
      used += cost
    } else {
      item.decision = 'dropped_budget'
    }
  }
  return used
}

export function renderMemoriesBlock(items: readonly MemoryItem[]): string | null {
  const placed = items.filter((i) => i.decision === 'included')
  if (placed.length === 0) return null
  return MEMORIES_HEADER + placed.map((i) => line(i.candidate.content)).join('')
}

export function memoryEntry(item: MemoryItem): TraceEntry {
  const { candidate } = item
  const preview = normalized(candidate.content)
  return {
    id: candidate.id,
    kind: 'memory',
    section: 'retrieved',
    tokens: item.tokens,
    decision: item.decision,
    score: candidate.score,
    source: candidate.source ?? 'memory',
    ...(candidate.origin && { origin: candidate.origin }),
    preview: preview.length <= PREVIEW_CHARS ? preview : `${preview.slice(0, PREVIEW_CHARS - 1)}…`
  }
}
