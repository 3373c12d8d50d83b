/** Small builders for hand-written threads in tests. */
import type { ToolCall } from '@shared/domain'
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '@shared/contextConfig'
import { countMessageTokens } from '../../../src/main/context/tokens/messageTokens'
import { o200kCounter } from '../../../src/main/context/tokens/tokenCounter'
import type { BuildRequest, ContextMessage, ToolInput } from '@shared/context'

type Extra = Partial<Omit<ContextMessage, 'seq' | 'role' | 'content'>>

export function message(
  seq: number,
  role: ContextMessage['role'],
  content: string,
  extra: Extra = {}
): ContextMessage {
  const toolCalls = extra.toolCalls ?? null
  return {
    id: String(seq),
    seq,
    role,
    content,
    toolCalls,
    toolCallId: null,
    tokenCount: countMessageTokens(o200kCounter, { content, toolCalls }),
    pinned: false,
    excluded: false,
    ...extra
  }
}

function call(id: string, name = 'read_file', args = '{"path":"a.ts"}'): ToolCall {
  return { id, name, arguments: args }
}

/** An assistant message calling `ids` and one tool result per call. */
export function toolGroup(seq: number, ids: string[], result = 'file contents'): ContextMessage[] {
  return [
    message(seq, 'assistant', '', { toolCalls: ids.map((id) => call(id)) }),
    ...ids.map((id, i) => message(seq + 1 + i, 'tool', `${result} ${i}`, { toolCallId: id }))
  ]
}

/** `count` alternating user/assistant messages of fixed size, seqs starting at `from`. */
export function chat(
  count: number,
  from = 1,
  text = 'a short message about the project'
): ContextMessage[] {
  return Array.from({ length: count }, (_, i) =>
    message(from + i, i % 2 === 0 ? 'user' : 'assistant', `${text} ${from + i}`)
  )
}

export function request(overrides: Partial<BuildRequest> = {}): BuildRequest {
  return {
    systemPrompt: '',
    summary: null,
    memories: [],
    messages: [],
    input: 'hello',
    ...overrides
  }
}

/** The shares before attachments and tools existed, which older tests reason in. */
export const FIVE_SECTIONS = {
  system: 20,
  summary: 10,
  retrieved: 10,
  recent: 55,
  input: 5,
  attachments: 0,
  tools: 0
}

export function config(overrides: Partial<ContextConfig> = {}): ContextConfig {
  return { ...DEFAULT_CONTEXT_CONFIG, pinning: false, ...overrides }
}

/** A tool schema of about `words` words, as the MCP and built-in tools arrive. */
export const tool = (name: string, relevance: number | null, words = 20): ToolInput => ({
  name,
  description: `Tool ${name}: ${'does something useful '.repeat(words)}`.trim(),
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  relevance,
  source: 'builtin'
})
