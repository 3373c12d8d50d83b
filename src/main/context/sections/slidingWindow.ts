/**
 * The recent section: pinned messages first (always sent, whatever they cost), then a window
 * that walks the thread from its newest message backwards, one tool-call unit at a time,
 * until a unit does not fit. It stops there rather than skipping ahead to smaller, older
 * messages, so the model sees a contiguous stretch of conversation with no silent gaps.
 */
import type { TokenMeter } from '../tokens/messageTokens'
import { indexOfSeq, unitContaining, unitEndingAt } from '../toolCallGroups'
import { chunkedCut } from './windowCut'
import type { CollapsedRange, ContextMessage, Decision, TraceEntry } from '@shared/context'

/**
 * Messages left out are listed one by one, newest first, up to this many per build; older
 * ones are counted in collapsed ranges. A 100k-message thread would otherwise send 100k
 * trace entries to the inspector on every keystroke.
 */
export const TRACE_DETAIL_LIMIT = 200

function messageEntry(
  message: ContextMessage,
  tokens: number,
  decision: Decision,
  note?: string
): TraceEntry {
  return {
    id: String(message.id),
    kind: 'message',
    section: 'recent',
    tokens,
    decision,
    seq: message.seq,
    role: message.role,
    ...(note === undefined ? {} : { note })
  }
}

/** The entries for a unit left out because one of its messages is excluded. */
function excludedEntries(members: readonly ContextMessage[], meter: TokenMeter): TraceEntry[] {
  const excluded = members.find((m) => m.excluded)
  return members.map((m) =>
    messageEntry(
      m,
      meter.stored(m.tokenCount),
      'excluded_by_user',
      m.excluded ? undefined : `in a tool-call group with excluded message #${excluded?.seq}`
    )
  )
}

/** A pinned message with the rest of its tool-call unit. */
export interface PinnedGroup {
  members: ContextMessage[]
  /** Index of the first member in `messages`; -1 when the message is not in the array. */
  start: number
  tokens: number
  /** The user excluded a member: exclusion wins, the group is not sent. */
  excluded: boolean
}

export function pinnedGroups(
  messages: readonly ContextMessage[],
  pinned: readonly ContextMessage[],
  meter: TokenMeter
): PinnedGroup[] {
  const groups: PinnedGroup[] = []
  const seenStarts = new Set<number>()
  for (const message of pinned) {
    const index = indexOfSeq(messages, message.seq)
    let start = -1
    let members = [message]
    if (index >= 0) {
      const unit = unitContaining(messages, index)
      if (seenStarts.has(unit.start)) continue // two pinned messages in one tool-call unit
      seenStarts.add(unit.start)
      start = unit.start
      members = messages.slice(unit.start, unit.end + 1)
    }
    groups.push({
      members,
      start,
      tokens: members.reduce((sum, m) => sum + meter.stored(m.tokenCount), 0),
      excluded: members.some((m) => m.excluded)
    })
  }
  return groups
}

export function pinnedGroupEntries(group: PinnedGroup, meter: TokenMeter): TraceEntry[] {
  if (group.excluded) return excludedEntries(group.members, meter)
  const anchor = group.members.find((m) => m.pinned)
  return group.members.map((m) =>
    messageEntry(
      m,
      meter.stored(m.tokenCount),
      m.pinned ? 'pinned' : 'included',
      m.pinned ? undefined : `sent with pinned message #${anchor?.seq} (same tool-call group)`
    )
  )
}

export class SlidingWindow {
  /** Units in the window, newest first. */
  readonly units: ContextMessage[][] = []
  /** Trace entries for every message this window decided, in no particular order. */
  readonly entries: TraceEntry[] = []
  readonly collapsed: CollapsedRange[] = []
  used = 0
  droppedCount = 0
  coveredCount = 0
  private remaining = 0
  /** The newest message not decided yet. */
  private cursor: number
  /** The oldest index the window may take: past the summary, or where the chunked cut is. */
  private floor: number
  private readonly decidedStarts = new Set<number>()
  private readonly decidedIndexes = new Set<number>()

  /**
   * @param coveredEnd last index the summary covers (-1 without a summary)
   * @param decided pinned groups, already placed or excluded by the caller
   */
  constructor(
    private readonly messages: readonly ContextMessage[],
    private readonly coveredEnd: number,
    decided: readonly PinnedGroup[],
    private readonly meter: TokenMeter
  ) {
    this.cursor = messages.length - 1
    this.floor = coveredEnd + 1
    for (const group of decided) {
      if (group.start < 0) continue
      this.decidedStarts.add(group.start)
      group.members.forEach((_, offset) => this.decidedIndexes.add(group.start + offset))
    }
  }

  /** What message `index` costs the window: nothing when it is pinned, excluded or covered. */
  private costAt(index: number): number {
    const message = this.messages[index]
    if (!message || index <= this.coveredEnd) return 0
    if (message.excluded || this.decidedIndexes.has(index)) return 0
    return this.meter.stored(message.tokenCount)
  }

  /**
   * Never takes a message before the chunked cut for this steady budget (windowCut.ts); returns
   * the cut's index.
   */
  cutInChunks(steadyBudget: number, chunk: number): number {
    const cut = chunkedCut({
      messages: this.messages,
      anchor: this.coveredEnd + 1,
      cost: (index) => this.costAt(index),
      budget: steadyBudget,
      chunk
    })
    this.floor = Math.max(this.floor, cut)
    return cut
  }

  /**
   * Adds budget and takes more units, newest first, until one does not fit. Can be called
   * again with more budget: the walk resumes at the unit that did not fit.
   */
  fill(extraBudget: number): void {
    this.remaining += extraBudget
    while (this.cursor >= this.floor) {
      const unit = unitEndingAt(this.messages, this.cursor)
      if (this.decidedStarts.has(unit.start)) {
        this.cursor = unit.start - 1
        continue
      }
      const members = this.messages.slice(unit.start, unit.end + 1)
      if (members.some((m) => m.excluded)) {
        this.entries.push(...excludedEntries(members, this.meter))
        this.cursor = unit.start - 1
        continue
      }
      let cost = 0
      for (const m of members) cost += this.meter.stored(m.tokenCount)
      if (cost > this.remaining) return
      for (const m of members) {
        this.entries.push(messageEntry(m, this.meter.stored(m.tokenCount), 'included'))
      }
      this.units.push(members)
      this.remaining -= cost
      this.used += cost
      this.cursor = unit.start - 1
    }
  }

  /** Ends the walk: every older message is dropped for budget or covered by the summary. */
  close(): void {
    let index = this.cursor
    let detail = TRACE_DETAIL_LIMIT
    for (; index >= 0 && detail > 0; index--) {
      if (this.decidedIndexes.has(index)) continue
      const message = this.messages[index] as ContextMessage
      const covered = index <= this.coveredEnd
      const decision = message.excluded
        ? 'excluded_by_user'
        : covered
          ? 'covered_by_summary'
          : 'dropped_budget'
      this.entries.push(messageEntry(message, this.meter.stored(message.tokenCount), decision))
      if (decision === 'covered_by_summary') this.coveredCount++
      if (decision === 'dropped_budget') this.droppedCount++
      detail--
    }
    if (index < 0) return
    const droppedFrom = Math.max(this.coveredEnd + 1, 0)
    if (index >= droppedFrom) {
      this.droppedCount += this.collapse('dropped_budget', droppedFrom, index)
    }
    if (this.coveredEnd >= 0) {
      this.coveredCount += this.collapse('covered_by_summary', 0, Math.min(index, this.coveredEnd))
    }
  }

  private collapse(decision: CollapsedRange['decision'], from: number, to: number): number {
    let count = to - from + 1
    for (const decided of this.decidedIndexes) if (decided >= from && decided <= to) count--
    const first = this.messages[from]
    const last = this.messages[to]
    if (count > 0 && first && last) {
      this.collapsed.push({ decision, fromSeq: first.seq, toSeq: last.seq, count })
    }
    return count
  }
}
