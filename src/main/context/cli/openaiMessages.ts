/**
 * The OpenAI chat format (what the CLI reads and prints, and what most tools export) and its
 * conversion to and from our `ProviderMessage`. The one place that knows both shapes.
 */
import { z } from 'zod'
import type { ProviderMessage } from '@shared/context'
import type { CacheableMessage, CacheControl } from '@shared/providers'

const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() })

const ToolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string() })
})

export const OpenAiMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.union([z.string(), z.null(), z.array(TextPartSchema)]).optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
    tool_call_id: z.string().min(1).optional()
  })
  .superRefine((m, ctx) => {
    if (m.role === 'tool' && !m.tool_call_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['tool_call_id'],
        message: 'a tool message needs tool_call_id'
      })
    }
    if (m.tool_calls && m.role !== 'assistant') {
      ctx.addIssue({
        code: 'custom',
        path: ['tool_calls'],
        message: 'only assistant messages call tools'
      })
    }
  })

interface OpenAiTextPart {
  type: 'text'
  text: string
  cache_control?: CacheControl
}

export interface OpenAiMessage {
  role: ProviderMessage['role']
  content: string | null | OpenAiTextPart[]
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[]
  tool_call_id?: string
  cache_control?: CacheControl
}

export function fromOpenAi(message: z.output<typeof OpenAiMessageSchema>): ProviderMessage {
  const content = Array.isArray(message.content)
    ? message.content.map((part) => part.text).join('\n')
    : (message.content ?? '')
  const result: ProviderMessage = { role: message.role, content }
  if (message.tool_calls && message.tool_calls.length > 0) {
    result.toolCalls = message.tool_calls.map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments
    }))
  }
  if (message.tool_call_id) result.toolCallId = message.tool_call_id
  return result
}

/**
 * Back to the OpenAI shape. A cache marker goes where OpenRouter and Anthropic-compatible
 * gateways read it: on a text part for a message with text, on the message itself for an
 * assistant message with tool calls (the Anthropic adapter moves it to the last tool_use block)
 * and for a blank tool result.
 */
export function toOpenAi(message: CacheableMessage): OpenAiMessage {
  const calls = message.toolCalls ?? []
  const result: OpenAiMessage = {
    role: message.role,
    content:
      message.role === 'assistant' && calls.length > 0 && message.content === ''
        ? null
        : message.content
  }
  if (calls.length > 0) {
    result.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments }
    }))
  }
  if (message.toolCallId !== undefined) result.tool_call_id = message.toolCallId
  const marker = message.cacheControl
  if (marker) {
    if (calls.length === 0 && message.content.trim()) {
      result.content = [{ type: 'text', text: message.content, cache_control: { ...marker } }]
    } else {
      result.cache_control = { ...marker }
    }
  }
  return result
}
