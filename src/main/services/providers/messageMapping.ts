/**
 * The builder's ProviderMessage list in the AI SDK's prompt shape. Leading system messages
 * become `instructions` (one block each, so a cache breakpoint can sit on the system prompt);
 * later system messages (the summary after a memory block, the pinning block before the
 * input) stay where the builder put them, except for Anthropic, whose Messages API has no
 * system role mid-conversation: there they are sent as user turns. Empty assistant turns are
 * skipped. Tool calls keep their ids; tool results get their tool's name from the call they
 * answer.
 */
import type { ModelMessage, SystemModelMessage } from 'ai'
import type { CacheableMessage, CacheControl, ProviderKind } from './types'
import { hasVisibleText } from '../../context/emptyReplies'

export interface ModelPrompt {
  instructions: SystemModelMessage[]
  messages: ModelMessage[]
}

type ProviderOptions = NonNullable<SystemModelMessage['providerOptions']>

/** Only Anthropic reads cache breakpoints; other providers never see the field. */
function cacheOptions(
  kind: ProviderKind,
  cache: CacheControl | undefined
): { providerOptions?: ProviderOptions } {
  if (kind !== 'anthropic' || !cache) return {}
  const cacheControl = cache.ttl ? { type: cache.type, ttl: cache.ttl } : { type: cache.type }
  return { providerOptions: { anthropic: { cacheControl } } }
}

/** Tool-call arguments are JSON text; the SDK wants the parsed value and re-serializes it. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function toModelPrompt(kind: ProviderKind, input: readonly CacheableMessage[]): ModelPrompt {
  const instructions: SystemModelMessage[] = []
  const messages: ModelMessage[] = []
  const toolNames = new Map<string, string>()
  let leading = true

  for (const message of input) {
    const options = cacheOptions(kind, message.cacheControl)
    if (message.role !== 'system') leading = false
    switch (message.role) {
      case 'system':
        if (leading) instructions.push({ role: 'system', content: message.content, ...options })
        else if (kind === 'anthropic')
          messages.push({ role: 'user', content: message.content, ...options })
        else messages.push({ role: 'system', content: message.content, ...options })
        break
      case 'user':
        messages.push({ role: 'user', content: message.content, ...options })
        break
      case 'assistant': {
        const calls = message.toolCalls ?? []
        // An empty reply is never sent back (the builder already leaves it out; this is the
        // last guard, since Anthropic rejects an empty assistant turn outright).
        if (calls.length === 0 && !hasVisibleText(message.content)) break
        if (calls.length === 0) {
          messages.push({ role: 'assistant', content: message.content, ...options })
          break
        }
        for (const call of calls) toolNames.set(call.id, call.name)
        messages.push({
          role: 'assistant',
          content: [
            ...(message.content.length > 0
              ? [{ type: 'text' as const, text: message.content }]
              : []),
            ...calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: parseArguments(call.arguments)
            }))
          ],
          ...options
        })
        break
      }
      case 'tool': {
        const toolCallId = message.toolCallId ?? ''
        messages.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId,
              toolName: toolNames.get(toolCallId) ?? 'unknown_tool',
              output: { type: 'text', value: message.content }
            }
          ],
          ...options
        })
        break
      }
    }
  }
  return { instructions, messages }
}
