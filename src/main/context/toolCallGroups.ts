/**
 * Providers reject a tool result without the assistant message that called it, and a tool call
 * without its results. So the window moves in units: an assistant message with tool calls plus
 * the tool messages that follow it, or a single other message. Units are found locally from
 * any index, so the builder never scans the whole thread.
 */
import type { BuildWarning, ContextMessage } from '@shared/context'

/** Inclusive index range of one unit in the seq-ordered message array. */
export interface Unit {
  start: number
  end: number
}

function callsTools(message: ContextMessage): boolean {
  return message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0
}

function isTool(messages: readonly ContextMessage[], index: number): boolean {
  return messages[index]?.role === 'tool'
}

/** The unit whose last message is at `end` (the window walks backwards). */
export function unitEndingAt(messages: readonly ContextMessage[], end: number): Unit {
  let start = end
  if (isTool(messages, end)) {
    while (isTool(messages, start - 1)) start--
    const head = messages[start - 1]
    if (head && callsTools(head)) start--
  }
  return { start, end }
}

/** The unit that contains `index`. */
export function unitContaining(messages: readonly ContextMessage[], index: number): Unit {
  const message = messages[index]
  let end = index
  if (message && (message.role === 'tool' || callsTools(message))) {
    while (isTool(messages, end + 1)) end++
  }
  return unitEndingAt(messages, end)
}

/** Index of the message with this seq, or -1 (binary search: `messages` is ordered by seq). */
export function indexOfSeq(messages: readonly ContextMessage[], seq: number): number {
  const last = lastIndexAtOrBefore(messages, seq)
  return last >= 0 && messages[last]?.seq === seq ? last : -1
}

/** Index of the last message with seq <= `seq`, or -1. */
function lastIndexAtOrBefore(messages: readonly ContextMessage[], seq: number): number {
  let low = 0
  let high = messages.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >> 1
    if ((messages[mid]?.seq ?? Infinity) <= seq) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found
}

/**
 * The last index the summary covers, moved back so no unit straddles it: a tool call the
 * summary covers whose results it does not is sent whole rather than cut in two.
 */
export function summaryCoveredEnd(messages: readonly ContextMessage[], lastSeq: number): number {
  const last = lastIndexAtOrBefore(messages, lastSeq)
  if (last < 0) return last
  const unit = unitContaining(messages, last)
  return unit.end > last ? unit.start - 1 : last
}

/** Malformed tool-call units that will be sent anyway (imported or interrupted threads). */
export function toolCallProblems(members: readonly ContextMessage[]): BuildWarning[] {
  const first = members[0]
  if (!first) return []
  if (first.role === 'tool') {
    return [
      {
        code: 'orphan_tool_result',
        message: `Tool result #${first.seq} has no assistant tool call before it; providers may reject it.`
      }
    ]
  }
  const answered = new Set(members.map((m) => m.toolCallId))
  const missing = (first.toolCalls ?? []).filter((call) => !answered.has(call.id))
  return missing.length === 0
    ? []
    : [
        {
          code: 'unanswered_tool_call',
          message: `Message #${first.seq} calls ${missing.map((c) => c.name).join(', ')} without a stored result; providers may reject it.`
        }
      ]
}
