/**
 * The retrieved section: recalled candidates ranked by score, duplicates removed (against each
 * other and against messages already sent verbatim), then placed greedily, most relevant
 * first. Unlike the window, an item that does not fit is skipped and smaller, lower-ranked
 * ones may still fit: recalled items are independent of each other.
 *
 * What is sent says where each item came from, in up to three groups of one message: the
 * memories (what the user saved), this thread's older messages, and messages from other
 * threads with their titles. A recalled message is never presented as a memory (issue #17).
 */
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import type {
  ContextMessage,
  Decision,
  MemoryCandidate,
  RecallSummary,
  TraceEntry
} from '@shared/context'
import type { Section } from './section'

/** Where a recalled item came from, as the request and the inspector group it. */
export type RecalledGroup = 'memories' | 'thisThread' | 'otherThreads'

const GROUP_ORDER: readonly RecalledGroup[] = ['memories', 'thisThread', 'otherThreads']
const GROUP_HEADERS: Record<RecalledGroup, string> = {
  memories: '[Memories: from earlier conversations, most relevant first]',
  thisThread: '[Earlier in this conversation, recalled for this message]',
  otherThreads: "[From the user's other conversations, recalled for this message]"
}
const PREVIEW_CHARS = 120

export interface MemoryItem {
  candidate: MemoryCandidate
  group: RecalledGroup
  /** Cost of its line in the block. */
  tokens: number
  decision: Decision
}

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** A candidate without an origin (the CLI, tests) is a memory, as it always was. */
function groupOf(candidate: MemoryCandidate): RecalledGroup {
  const origin = candidate.origin
  if (origin?.kind !== 'message') return 'memories'
  return origin.otherThread ? 'otherThreads' : 'thisThread'
}

/** The text an item costs in the section: what the builder counts for it. */
export function recalledLine(candidate: MemoryCandidate): string {
  return line(candidate, groupOf(candidate))
}

function line(candidate: MemoryCandidate, group: RecalledGroup): string {
  const origin = candidate.origin
  const title = origin?.kind === 'message' && origin.threadTitle ? origin.threadTitle : null
  const label = group === 'otherThreads' && title ? `“${normalized(title)}”: ` : ''
  return `\n- ${label}${normalized(candidate.content)}`
}

/** The first characters of an item, whitespace collapsed: what the inspector lists it by. */
export function previewOf(content: string): string {
  // Collapse only what can be shown: the item may be a 2 M-character paste.
  const read = PREVIEW_CHARS * 8
  const text = normalized(content.slice(0, read))
  return text.length <= PREVIEW_CHARS && content.length <= read
    ? text
    : `${text.slice(0, PREVIEW_CHARS - 1)}…`
}

/** Ranked by score (ties keep the search's order); repeats of an earlier item are duplicates. */
function rankMemories(candidates: readonly MemoryCandidate[], meter: TokenMeter): MemoryItem[] {
  const seen = new Set<string>()
  return [...candidates]
    .sort((a, b) => b.score - a.score)
    .map((candidate) => {
      const key = normalized(candidate.content)
      const duplicate = seen.has(`id:${candidate.id}`) || seen.has(key)
      seen.add(`id:${candidate.id}`).add(key)
      const group = groupOf(candidate)
      return {
        candidate,
        group,
        tokens: meter.fragment(line(candidate, group)),
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

/** The message's framing, paid once when anything is placed. */
function blockOverhead(meter: TokenMeter): number {
  return meter.message('')
}

/** A group's header line, paid once when the group has an item. */
function headerCost(group: RecalledGroup, meter: TokenMeter): number {
  return meter.fragment(GROUP_HEADERS[group])
}

/** What the section would cost if every non-duplicate candidate were placed. */
export function memoriesDemand(items: readonly MemoryItem[], meter: TokenMeter): number {
  const lines = items.filter((i) => i.decision !== 'duplicate')
  if (lines.length === 0) return 0
  const groups = new Set(lines.map((i) => i.group))
  return lines.reduce(
    (sum, i) => sum + i.tokens,
    blockOverhead(meter) + [...groups].reduce((sum, g) => sum + headerCost(g, meter), 0)
  )
}

/**
 * Past a typical turn's length an item's claim on the budget falls with the square root of its
 * length: a 400-token answer is placed as if half as relevant as its score says, since its room
 * holds four ordinary turns. The user's own facts are mostly short turns beside long replies
 * (LongMemEval's evidence: a median of 58 tokens, the turns around it 200), and at 2,000 tokens
 * placing by score alone sent the replies and dropped the facts (docs/EVALUATION.md, "Placed
 * by what they cost").
 */
const TYPICAL_ITEM_TOKENS = 100

function placingClaim(item: MemoryItem): number {
  return (
    item.candidate.score * Math.sqrt(Math.min(1, TYPICAL_ITEM_TOKENS / Math.max(1, item.tokens)))
  )
}

/**
 * Places candidates within `budget` by their claim (score per length, above), skipping what does
 * not fit; returns the tokens used. Only the budget's choice changes: the block still lists
 * what it placed most relevant first, and with room for all, all are placed.
 */
function fitMemories(items: readonly MemoryItem[], budget: number, meter: TokenMeter): number {
  const opened = new Set<RecalledGroup>()
  let used = 0
  // Stable: equal claims keep the score order.
  for (const item of [...items].sort((a, b) => placingClaim(b) - placingClaim(a))) {
    if (item.decision === 'duplicate') continue
    const cost =
      item.tokens +
      (used === 0 ? blockOverhead(meter) : 0) +
      (opened.has(item.group) ? 0 : headerCost(item.group, meter))
    if (used + cost <= budget) {
      item.decision = 'included'
      opened.add(item.group)
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
  return GROUP_ORDER.filter((group) => placed.some((i) => i.group === group))
    .map(
      (group) =>
        GROUP_HEADERS[group] +
        placed
          .filter((i) => i.group === group)
          .map((i) => line(i.candidate, group))
          .join('')
    )
    .join('\n\n')
}

/**
 * The retrieved section by group as the inspector and the gauge count it: items and the
 * tokens of their lines (the shared framing and headers are in the section's total only).
 */
export function recalledByGroup(items: readonly MemoryItem[]): Pick<RecallSummary, RecalledGroup> {
  const out = {
    memories: { items: 0, tokens: 0 },
    thisThread: { items: 0, tokens: 0 },
    otherThreads: { items: 0, tokens: 0 }
  }
  for (const item of items) {
    if (item.decision !== 'included') continue
    out[item.group].items++
    out[item.group].tokens += item.tokens
  }
  return out
}

function memoryEntry(item: MemoryItem): TraceEntry {
  const { candidate } = item
  return {
    id: candidate.id,
    kind: 'memory',
    section: 'retrieved',
    tokens: item.tokens,
    decision: item.decision,
    score: candidate.score,
    source: candidate.source ?? 'memory',
    ...(candidate.origin && { origin: candidate.origin }),
    ...(candidate.relevance !== undefined && { relevance: candidate.relevance }),
    preview: previewOf(candidate.content)
  }
}

export class RetrievedMemories implements Section {
  readonly items: MemoryItem[]

  /** `sent`: messages the request sends whatever happens (the pinned ones). */
  constructor(
    candidates: readonly MemoryCandidate[],
    meter: TokenMeter,
    sent: readonly ContextMessage[]
  ) {
    this.items = rankMemories(candidates, meter)
    markSentDuplicates(this.items, sent)
  }

  hold(build: ContextBuild): void {
    build.budget.hold('retrieved', memoriesDemand(this.items, build.meter))
  }

  place(build: ContextBuild): void {
    const { budget } = build
    budget.offerPool('retrieved')
    const used = fitMemories(this.items, budget.holding('retrieved'), build.meter)
    budget.release('retrieved', used)
    build.tracker.record('retrieved', used, this.placed)
  }

  get placed(): number {
    return this.items.filter((m) => m.decision === 'included').length
  }

  entries(): TraceEntry[] {
    return this.items.map(memoryEntry)
  }
}
