/**
 * Tool-call groups in a provider message list: an assistant message with tool calls plus the
 * tool results that follow it. Providers reject a result without its call and a call without
 * its results, so every cut the compressor makes falls between groups, never inside one.
 */
import type { ProviderMessage } from '@shared/context'

export function callsTools(message: ProviderMessage | undefined): boolean {
  return message?.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0
}

function isTool(messages: readonly ProviderMessage[], index: number): boolean {
  return messages[index]?.role === 'tool'
}

/** Index of the first message of the group that contains `index`. */
export function groupStart(messages: readonly ProviderMessage[], index: number): number {
  if (!isTool(messages, index)) return index
  let start = index
  while (isTool(messages, start - 1)) start--
  return callsTools(messages[start - 1]) ? start - 1 : start
}

/** Index of the last message of the group that contains `index`. */
export function groupEnd(messages: readonly ProviderMessage[], index: number): number {
  const message = messages[index]
  if (!message || (message.role !== 'tool' && !callsTools(message))) return index
  let end = index
  while (isTool(messages, end + 1)) end++
  return end
}

/** Moves a cut (between `boundary - 1` and `boundary`) back to the start of the group it splits. */
export function alignBoundaryBackward(
  messages: readonly ProviderMessage[],
  boundary: number
): number {
  return boundary > 0 && boundary < messages.length ? groupStart(messages, boundary) : boundary
}

/** A deep enough copy: the compressor never hands out objects its caller still holds. */
export function copyMessage(message: ProviderMessage): ProviderMessage {
  const copy: ProviderMessage = { role: message.role, content: message.content }
  if (message.toolCalls) copy.toolCalls = message.toolCalls.map((call) => ({ ...call }))
  if (message.toolCallId !== undefined) copy.toolCallId = message.toolCallId
  return copy
}

export type ProtocolProblem =
  | { kind: 'adjacent_roles'; index: number; role: 'user' | 'assistant' }
  | { kind: 'orphan_tool_result'; index: number; toolCallId: string | undefined }
  | { kind: 'unanswered_tool_call'; index: number; toolCallId: string }

/**
 * What a provider could reject in a message list, by our rule:
 * - among the non-system messages, no two user or two assistant messages in a row (system
 *   messages are lifted out of the conversation by Anthropic and Gemini, so they do not
 *   separate turns);
 * - every tool result directly follows its call's group, and every call has its result.
 */
export function protocolProblems(messages: readonly ProviderMessage[]): ProtocolProblem[] {
  const problems: ProtocolProblem[] = []
  let previousTurn: ProviderMessage['role'] | null = null
  let open = new Set<string>()
  let openAt = -1
  const closeGroup = (): void => {
    for (const id of open)
      problems.push({ kind: 'unanswered_tool_call', index: openAt, toolCallId: id })
    open = new Set()
  }
  messages.forEach((m, index) => {
    if (m.role === 'tool') {
      if (!m.toolCallId || !open.delete(m.toolCallId)) {
        problems.push({ kind: 'orphan_tool_result', index, toolCallId: m.toolCallId })
      }
    } else {
      closeGroup()
    }
    if (m.role === 'system') return
    if ((m.role === 'user' || m.role === 'assistant') && previousTurn === m.role) {
      problems.push({ kind: 'adjacent_roles', index, role: m.role })
    }
    if (callsTools(m)) {
      open = new Set((m.toolCalls ?? []).map((c) => c.id))
      openAt = index
    }
    previousTurn = m.role
  })
  closeGroup()
  return problems
}
