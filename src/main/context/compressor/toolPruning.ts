/**
 * Phase 1 of compression, cheap and without a model: old tool output is usually what fills a
 * window (file contents, test logs, search results) and is rarely needed verbatim once the
 * assistant has acted on it. Only messages outside the protected head and tail are touched.
 */
import type { ProviderMessage } from '@shared/context'
import type { ToolCall } from '@shared/domain'
import { copyMessage } from './messageGroups'

/** Results longer than this are replaced by a one-line description (Hermes uses 200 too). */
const PRUNE_RESULT_CHARS = 200
/** Identical results shorter than this are cheaper to keep than to describe. */
const DEDUPE_MIN_CHARS = 120
/** Tool-call arguments longer than this are shrunk... */
const SHRINK_ARGUMENTS_CHARS = 500
/** ...by cutting each string value inside the JSON to this many characters. */
const ARGUMENT_STRING_KEEP = 160

export const PRUNED_MARKER = 'pruned]'

export interface PruneResult {
  messages: ProviderMessage[]
  /** Long results replaced by a one-line description. */
  summarized: number
  /** Results identical to a later one, replaced by a pointer to it. */
  deduplicated: number
  /** Tool calls whose arguments were shrunk. */
  shrunkCalls: number
}

const HINT_KEYS = [
  'path',
  'file',
  'file_path',
  'filename',
  'command',
  'cmd',
  'query',
  'url',
  'pattern'
]

/** The argument that says what the call was about (a path, a command), if short. */
function argumentHint(call: ToolCall | undefined): string {
  if (!call) return ''
  try {
    const args: unknown = JSON.parse(call.arguments)
    if (!args || typeof args !== 'object') return ''
    for (const key of HINT_KEYS) {
      const value = (args as Record<string, unknown>)[key]
      if (
        typeof value === 'string' &&
        value.length > 0 &&
        value.length <= 80 &&
        !value.includes('\n')
      ) {
        return ` (${key}: ${value})`
      }
    }
  } catch {
    // Arguments that are not JSON give no hint.
  }
  return ''
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length
}

/** "[tool result of read_file (path: src/app.ts): 412 lines, pruned]" */
export function describeToolResult(content: string, call: ToolCall | undefined): string {
  const lines = lineCount(content)
  return `[tool result of ${call?.name ?? 'a tool'}${argumentHint(call)}: ${lines} line${lines === 1 ? '' : 's'}, ${content.length} chars, ${PRUNED_MARKER}`
}

function shrinkValue(value: unknown): unknown {
  if (typeof value === 'string' && value.length > ARGUMENT_STRING_KEEP + 40) {
    return `${value.slice(0, ARGUMENT_STRING_KEEP)}…[${value.length - ARGUMENT_STRING_KEEP} chars truncated]`
  }
  if (Array.isArray(value)) return value.map(shrinkValue)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrinkValue(v)]))
  }
  return value
}

/**
 * Long arguments (a whole file passed to write_file) shrunk inside the JSON, so the result is
 * still valid JSON; a provider rejects a call whose arguments do not parse. Arguments that are
 * not JSON are left alone: cutting them could only make them worse.
 */
export function shrinkArguments(args: string): string {
  if (args.length <= SHRINK_ARGUMENTS_CHARS) return args
  let parsed: unknown
  try {
    parsed = JSON.parse(args)
  } catch {
    return args
  }
  const shrunk = JSON.stringify(shrinkValue(parsed))
  return shrunk.length < args.length ? shrunk : args
}

/** Prunes tool output in `messages[from, to)`; returns new messages, the input is untouched. */
export function pruneToolOutput(
  messages: readonly ProviderMessage[],
  from: number,
  to: number
): PruneResult {
  const calls = new Map<string, ToolCall>()
  for (const m of messages) for (const call of m.toolCalls ?? []) calls.set(call.id, call)

  // Newest first, so the copy that survives a dedupe is the most recent one.
  const seen = new Set<string>()
  const result = messages.map(copyMessage)
  let summarized = 0
  let deduplicated = 0
  let shrunkCalls = 0
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = result[i]!
    const inRange = i >= from && i < to
    if (m.role === 'tool') {
      const call = calls.get(m.toolCallId ?? '')
      const duplicate = m.content.length >= DEDUPE_MIN_CHARS && seen.has(m.content)
      seen.add(m.content)
      if (!inRange || m.content.endsWith(PRUNED_MARKER)) continue
      if (duplicate) {
        m.content = `[duplicate tool output of ${call?.name ?? 'a tool'}: same as a later result, ${PRUNED_MARKER}`
        deduplicated++
      } else if (m.content.length > PRUNE_RESULT_CHARS) {
        m.content = describeToolResult(m.content, call)
        summarized++
      }
    } else if (inRange && m.toolCalls) {
      m.toolCalls = m.toolCalls.map((call) => {
        const args = shrinkArguments(call.arguments)
        if (args === call.arguments) return call
        shrunkCalls++
        return { ...call, arguments: args }
      })
    }
  }
  return { messages: result, summarized, deduplicated, shrunkCalls }
}
