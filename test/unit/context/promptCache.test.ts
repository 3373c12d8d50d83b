import { describe, expect, it } from 'vitest'
import {
  fromOpenAi,
  OpenAiMessageSchema,
  toOpenAi
} from '../../../src/main/context/cli/openaiMessages'
import {
  anthropicCacheOptions,
  applyCacheBreakpoints,
  cacheBreakpointIndexes,
  canCarryCacheMarker,
  MAX_CACHE_BREAKPOINTS
} from '../../../src/main/context/caching/promptCache'
import type { ProviderMessage } from '@shared/context'
import type { CacheableMessage } from '@shared/providers'

const sys: ProviderMessage = { role: 'system', content: 'You are a helpful assistant.' }
const u = (content: string): ProviderMessage => ({ role: 'user', content })
const a = (content: string): ProviderMessage => ({ role: 'assistant', content })
const calls = (...ids: string[]): ProviderMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 'read_file', arguments: '{"path":"a.ts"}' }))
})
const result = (id: string, content = 'ok'): ProviderMessage => ({
  role: 'tool',
  content,
  toolCallId: id
})

const markedAt = (messages: CacheableMessage[]): number[] =>
  messages.flatMap((m, i) => (m.cacheControl ? [i] : []))

describe('system_and_3 cache breakpoints', () => {
  it('marks the system prompt and the last three messages of a plain chat', () => {
    const messages = [sys, u('a'), a('b'), u('c'), a('d'), u('e')]
    const marked = applyCacheBreakpoints(messages)
    expect(markedAt(marked)).toEqual([0, 3, 4, 5])
    expect(marked[0]!.cacheControl).toEqual({ type: 'ephemeral' })
    expect(marked.filter((m) => m.cacheControl)).toHaveLength(MAX_CACHE_BREAKPOINTS)
  })

  it('uses three markers without a system prompt, and fewer for short chats', () => {
    expect(cacheBreakpointIndexes([u('a'), a('b'), u('c'), a('d')])).toEqual([1, 2, 3])
    expect(cacheBreakpointIndexes([sys, u('hi')])).toEqual([0, 1])
    expect(cacheBreakpointIndexes([])).toEqual([])
  })

  it('marks tool calls and tool results in a tool loop', () => {
    const messages = [
      sys,
      u('fix it'),
      calls('x', 'y'),
      result('x'),
      result('y', ''),
      calls('z'),
      result('z')
    ]
    expect(cacheBreakpointIndexes(messages)).toEqual([0, 4, 5, 6])
    // An assistant message with only tool calls carries its marker on the last tool_use block,
    // an empty tool result on its tool_result block.
    expect(canCarryCacheMarker(calls('q'))).toBe(true)
    expect(canCarryCacheMarker(result('q', ''))).toBe(true)
  })

  it('skips messages that cannot carry a marker and reaches further back', () => {
    const messages = [sys, u('a'), a('b'), u('c'), a(''), u('   '), a('\n')]
    expect(cacheBreakpointIndexes(messages)).toEqual([0, 1, 2, 3])
    expect(canCarryCacheMarker(a(''))).toBe(false)
    expect(canCarryCacheMarker(u(' '))).toBe(false)
    // An empty system prompt is not marked; the rolling window stays at three.
    expect(
      cacheBreakpointIndexes([{ role: 'system', content: '' }, u('a'), a('b'), u('c'), a('d')])
    ).toEqual([2, 3, 4])
  })

  it('leaves later system messages (summary, memories, pinning block) out of the window', () => {
    const summary: ProviderMessage = {
      role: 'system',
      content: '[Summary of the conversation up to message #4]'
    }
    const pinning: ProviderMessage = { role: 'system', content: '[Current goal] ...' }
    expect(cacheBreakpointIndexes([sys, summary, u('a'), a('b'), pinning, u('c')])).toEqual([
      0, 2, 3, 5
    ])
  })

  it('uses the TTL from settings', () => {
    const marked = applyCacheBreakpoints([sys, u('a')], { ttl: '1h' })
    expect(marked.map((m) => m.cacheControl)).toEqual([
      { type: 'ephemeral', ttl: '1h' },
      { type: 'ephemeral', ttl: '1h' }
    ])
    expect(anthropicCacheOptions(marked[0]!.cacheControl!)).toEqual({
      anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } }
    })
  })

  it('never mutates its input and is idempotent', () => {
    const messages = [sys, u('a'), calls('x'), result('x'), a('done'), u('next')]
    const frozen = structuredClone(messages)
    const once = applyCacheBreakpoints(messages, { ttl: '5m' })
    expect(messages).toEqual(frozen)
    expect(messages.some((m) => 'cacheControl' in m)).toBe(false)
    once.forEach((m, i) => expect(m).not.toBe(messages[i]))
    expect(once[2]!.toolCalls).not.toBe(messages[2]!.toolCalls)
    const twice = applyCacheBreakpoints(once, { ttl: '5m' })
    expect(twice).toEqual(once)
    expect(twice.filter((m) => m.cacheControl)).toHaveLength(4)
  })
})

describe('OpenAI-format messages', () => {
  it('round-trip through ProviderMessage', () => {
    const input = [
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'part one' },
          { type: 'text', text: 'part two' }
        ]
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a.ts"}' }
          }
        ]
      },
      { role: 'tool', content: 'text', tool_call_id: 'c1' }
    ]
    const internal = input.map((m) => fromOpenAi(OpenAiMessageSchema.parse(m)))
    expect(internal).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'part one\npart two' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }]
      },
      { role: 'tool', content: 'text', toolCallId: 'c1' }
    ])
    expect(internal.map(toOpenAi)[2]).toEqual(input[2])
  })

  it('places markers where Anthropic-compatible gateways read them', () => {
    const marked = applyCacheBreakpoints([sys, u('a'), calls('x'), result('x', '')]).map(toOpenAi)
    expect(marked[0]!.content).toEqual([
      { type: 'text', text: sys.content, cache_control: { type: 'ephemeral' } }
    ])
    expect(marked[1]!.content).toEqual([
      { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }
    ])
    expect(marked[2]).toMatchObject({ content: null, cache_control: { type: 'ephemeral' } })
    expect(marked[3]).toMatchObject({ content: '', cache_control: { type: 'ephemeral' } })
  })

  it('rejects malformed messages', () => {
    expect(OpenAiMessageSchema.safeParse({ role: 'tool', content: 'x' }).success).toBe(false)
    expect(
      OpenAiMessageSchema.safeParse({ role: 'user', content: 'x', tool_calls: [] }).success
    ).toBe(false)
    expect(OpenAiMessageSchema.safeParse({ role: 'robot', content: 'x' }).success).toBe(false)
  })
})

describe('breakpoints along a stable prefix', () => {
  it('marks the system prompt, the summary, the last kept message and the input', () => {
    const messages: ProviderMessage[] = [
      { role: 'system', content: 'SYSTEM' },
      { role: 'system', content: 'SUMMARY' },
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'old answer' },
      { role: 'system', content: '[Memories] changes every turn' },
      { role: 'user', content: 'INPUT' }
    ]
    expect(cacheBreakpointIndexes(messages, 4)).toEqual([0, 1, 3, 5])
    const marked = applyCacheBreakpoints(messages, { stablePrefixMessages: 4 })
    expect(marked.map((m) => m.cacheControl !== undefined)).toEqual([
      true,
      true,
      false,
      true,
      false,
      true
    ])
  })

  it('reaches back past a blank message to one that can carry a marker', () => {
    const messages: ProviderMessage[] = [
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'question' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'INPUT' }
    ]
    expect(cacheBreakpointIndexes(messages, 3)).toEqual([0, 1, 3])
  })
})
