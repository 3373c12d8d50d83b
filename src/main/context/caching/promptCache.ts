/**
 * Anthropic prompt-cache breakpoints in Hermes Agent's `system_and_3` layout: one on the system
 * prompt, which never changes within a thread, and a rolling window on the last three messages
 * that can carry one, so each request reads the previous request's prefix from the cache and
 * writes its own. Anthropic honours at most four `cache_control` markers per request; this
 * layout uses at most four and never marks the same message twice.
 *
 * Which messages can carry a marker (Anthropic puts it on a content block):
 * - a user, assistant or system message with non-blank text (an empty text block is rejected,
 *   and so is a marker on one);
 * - an assistant message with tool calls, blank text or not: the marker goes on its last
 *   tool_use block;
 * - a tool result, even an empty one: the marker goes on the tool_result block.
 * A message that cannot is skipped and the window reaches one further back. System messages
 * after the first (the builder's summary, memories and pinning block) are not in the rolling
 * window: Anthropic lifts system text out of the conversation.
 *
 * When the build says how many leading messages form its stable prefix (the chunked window:
 * system prompt, summary, kept history; BuiltContext.window), the markers follow that prefix
 * instead: the system prompt, the summary, the prefix's last message, and the request's last
 * message. The next request repeats the prefix and extends it, so it reads this one's entry;
 * markers on the memories or the pinning block would only write entries no later request reads.
 *
 * The markers are request-local: new message objects are returned, the input is untouched.
 */
import type { ProviderMessage } from '@shared/context'
import type { CacheableMessage, CacheControl } from '@shared/providers'

export type CacheTtl = '5m' | '1h'

export const MAX_CACHE_BREAKPOINTS = 4
/** Markers in the rolling window after the system prompt. */
const ROLLING_BREAKPOINTS = 3

export interface CacheBreakpointOptions {
  /** From settings; default 5m. */
  ttl?: CacheTtl
  /** Leading messages that repeat from request to request (BuiltContext.window). */
  stablePrefixMessages?: number
}

/** Anthropic's marker. `ttl` is omitted for the default five minutes, as Anthropic's API does. */
function cacheControlFor(ttl: CacheTtl = '5m'): CacheControl {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' }
}

export function canCarryCacheMarker(message: ProviderMessage): boolean {
  if (message.role === 'tool') return true
  if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return true
  return message.content.trim().length > 0
}

function copyWithMarker(message: ProviderMessage, marker: CacheControl | null): CacheableMessage {
  const copy: CacheableMessage = { role: message.role, content: message.content }
  if (message.toolCalls) copy.toolCalls = message.toolCalls.map((call) => ({ ...call }))
  if (message.toolCallId !== undefined) copy.toolCallId = message.toolCallId
  if (marker) copy.cacheControl = { ...marker }
  return copy
}

/**
 * The system prompt, the summary after it, the last markable message of the prefix, and the
 * last message: when nothing per-turn follows the history, the next request repeats this one's
 * input too, and reads that entry.
 */
function stablePrefixIndexes(messages: readonly ProviderMessage[], stable: number): number[] {
  const marked: number[] = []
  const end = Math.min(stable, messages.length)
  for (let i = 0; i < Math.min(2, end) && messages[i]?.role === 'system'; i++) {
    if (canCarryCacheMarker(messages[i]!)) marked.push(i)
  }
  const lastMarkable = (from: number): number => {
    for (let i = from; i >= 0; i--) if (canCarryCacheMarker(messages[i]!)) return i
    return -1
  }
  for (const index of [lastMarkable(end - 1), lastMarkable(messages.length - 1)]) {
    const last = messages[index]
    if (index >= 0 && !marked.includes(index) && (index < end || last?.role !== 'system')) {
      marked.push(index)
    }
  }
  return marked.slice(0, MAX_CACHE_BREAKPOINTS)
}

/**
 * Indexes that get a marker: the system prompt, then the last three markable turns; or, for a
 * build with a stable prefix, the markers along that prefix.
 */
export function cacheBreakpointIndexes(
  messages: readonly ProviderMessage[],
  stablePrefixMessages?: number
): number[] {
  if (stablePrefixMessages !== undefined && stablePrefixMessages > 0) {
    return stablePrefixIndexes(messages, stablePrefixMessages)
  }
  const marked: number[] = []
  const first = messages[0]
  if (first?.role === 'system' && canCarryCacheMarker(first)) marked.push(0)
  const rolling: number[] = []
  for (let i = messages.length - 1; i >= 0 && rolling.length < ROLLING_BREAKPOINTS; i--) {
    const m = messages[i]!
    if (m.role !== 'system' && canCarryCacheMarker(m)) rolling.push(i)
  }
  return [...marked, ...rolling.reverse()].slice(0, MAX_CACHE_BREAKPOINTS)
}

/** New messages with `cacheControl` on the breakpoints; an existing marker is not kept. */
export function applyCacheBreakpoints(
  messages: readonly ProviderMessage[],
  options: CacheBreakpointOptions = {}
): CacheableMessage[] {
  const marker = cacheControlFor(options.ttl)
  const marked = new Set(cacheBreakpointIndexes(messages, options.stablePrefixMessages))
  return messages.map((m, i) => copyWithMarker(m, marked.has(i) ? marker : null))
}

/**
 * The marker in the shape the Vercel AI SDK's Anthropic provider reads from a message's
 * `providerOptions`; it puts a message-level marker on the message's last content part.
 */
export function anthropicCacheOptions(marker: CacheControl): {
  anthropic: { cacheControl: CacheControl }
} {
  return { anthropic: { cacheControl: { ...marker } } }
}
