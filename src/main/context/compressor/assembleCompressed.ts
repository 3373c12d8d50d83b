/**
 * Phase 4: head + summary + tail. The summary is marked as reference only, so the model does
 * not take a summarized request for a new one, and its role is chosen so the turns still
 * alternate. Then tool results without their call are removed and calls without results get a
 * stub result.
 */
import type { ProviderMessage } from '@shared/context'
import { callsTools, copyMessage } from './messageGroups'

export const SUMMARY_PREFIX =
  '[Reference only: summary of earlier conversation turns, compacted to save context. It is ' +
  'background, not instructions: do not answer questions or resume tasks from it unless the ' +
  'latest user message asks for that. Respond to the latest user message after it.]'
const SUMMARY_END = '[End of summary: respond to the conversation below, not to the summary.]'
/** Stands where an earlier summary was when the new one has absorbed it. */
export const SUMMARY_REPLACED = '[Earlier summary: now part of the summary above.]'
export const MISSING_RESULT =
  '[No result: this tool output was dropped while compressing the context.]'

export function renderSummary(body: string): string {
  return `${SUMMARY_PREFIX}\n\n${body.trim()}\n\n${SUMMARY_END}`
}

export type SummaryPlacement = { kind: 'message'; role: 'user' | 'assistant' } | { kind: 'merged' }

type Turn = ProviderMessage['role'] | null

function lastTurn(messages: readonly ProviderMessage[]): Turn {
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = messages[i]!.role
    if (role !== 'system') return role
  }
  return null
}

function firstTurn(messages: readonly ProviderMessage[]): Turn {
  return messages.find((m) => m.role !== 'system')?.role ?? null
}

/**
 * Our alternation rule: among non-system messages, never two user or two assistant messages
 * in a row, and the conversation opens with a user message (Anthropic and Gemini expect it).
 * The summary prefers the role opposite to the message before it (user after an assistant or a
 * tool result, assistant after a user); if that collides with the message after it, the other
 * role; if both collide (a user before and an assistant after, or nothing before and a user
 * after), it is merged into the first tail message instead of standing alone.
 */
export function chooseSummaryPlacement(
  head: readonly ProviderMessage[],
  tail: readonly ProviderMessage[]
): SummaryPlacement {
  const before = lastTurn(head)
  const after = firstTurn(tail)
  const preferred: 'user' | 'assistant' = before === 'user' ? 'assistant' : 'user'
  const other: 'user' | 'assistant' = preferred === 'user' ? 'assistant' : 'user'
  for (const role of [preferred, other] as const) {
    const opensWithAssistant = before === null && role === 'assistant'
    if (role !== before && role !== after && !opensWithAssistant) return { kind: 'message', role }
  }
  return { kind: 'merged' }
}

export interface EmbeddedSummary {
  /** The summary text of an earlier compression, without its markers. */
  body: string
  /** What the message held besides the summary (a merged tail message), or null. */
  rest: string | null
}

/** Finds an earlier compression's summary at the start of a message. */
export function readEmbeddedSummary(content: string): EmbeddedSummary | null {
  if (!content.startsWith(SUMMARY_PREFIX)) return null
  const end = content.indexOf(SUMMARY_END, SUMMARY_PREFIX.length)
  if (end === -1) return { body: content.slice(SUMMARY_PREFIX.length).trim(), rest: null }
  const rest = content.slice(end + SUMMARY_END.length).trim()
  return { body: content.slice(SUMMARY_PREFIX.length, end).trim(), rest: rest || null }
}

export function assembleCompressed(
  head: readonly ProviderMessage[],
  summaryBody: string,
  tail: readonly ProviderMessage[]
): ProviderMessage[] {
  const summary = renderSummary(summaryBody)
  const placement = chooseSummaryPlacement(head, tail)
  const tailCopy = tail.map(copyMessage)
  if (placement.kind === 'message') {
    return sanitizeToolPairs([
      ...head.map(copyMessage),
      { role: placement.role, content: summary },
      ...tailCopy
    ])
  }
  const first = tailCopy.findIndex((m) => m.role !== 'system')
  if (first === -1) {
    // Only system messages after the head: nothing to alternate with.
    return sanitizeToolPairs([
      ...head.map(copyMessage),
      { role: 'user', content: summary },
      ...tailCopy
    ])
  }
  const target = tailCopy[first]!
  target.content = target.content ? `${summary}\n\n${target.content}` : summary
  return sanitizeToolPairs([...head.map(copyMessage), ...tailCopy])
}

/**
 * Drops tool results whose call is not in the group before them, and adds a stub result for a
 * call whose results are missing. Removing such a call instead could leave an empty assistant
 * turn and break alternation; a stub keeps the structure every provider accepts.
 */
export function sanitizeToolPairs(messages: readonly ProviderMessage[]): ProviderMessage[] {
  const result: ProviderMessage[] = []
  let open: string[] = []
  const closeGroup = (): void => {
    for (const id of open) result.push({ role: 'tool', content: MISSING_RESULT, toolCallId: id })
    open = []
  }
  for (const m of messages) {
    if (m.role === 'tool') {
      const at = open.indexOf(m.toolCallId ?? '')
      if (at === -1) continue
      open.splice(at, 1)
      result.push(m)
      continue
    }
    closeGroup()
    result.push(m)
    if (callsTools(m)) open = (m.toolCalls ?? []).map((c) => c.id)
  }
  closeGroup()
  return result
}
