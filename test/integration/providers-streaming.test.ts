import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { streamChat, type StreamChatRequest } from '../../src/main/services/providers/modelClient'
import type {
  CacheableMessage,
  ChatStreamEvent,
  ProviderKind,
  ProviderRecord
} from '../../src/main/services/providers/types'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'

let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider()
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
})

function providerFor(kind: ProviderKind): ProviderRecord {
  return {
    id: `p-${kind}`,
    kind,
    name: kind,
    baseUrl: kind === 'ollama' ? server.url : server.v1,
    models: [{ id: 'test-model', contextWindow: 16_384, maxOutput: 2_048 }]
  }
}

async function collect(request: Partial<StreamChatRequest> & { provider: ProviderRecord }) {
  const events: ChatStreamEvent[] = []
  for await (const event of streamChat({
    modelId: 'test-model',
    apiKey: 'sk-test-key-0123456789',
    messages: [{ role: 'user', content: 'Hello?' }],
    ...request
  })) {
    events.push(event)
  }
  return events
}

const conversation: CacheableMessage[] = [
  { role: 'system', content: 'You are Context Lens.' },
  { role: 'system', content: 'Summary: the user plans a trip to Kyoto.' },
  { role: 'user', content: 'What is the weather tomorrow?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Kyoto"}' }]
  },
  { role: 'tool', content: '{"forecast":"rain"}', toolCallId: 'call_1' },
  { role: 'assistant', content: 'Rain is expected.' },
  { role: 'system', content: 'Current goal: plan day one.' },
  { role: 'user', content: 'Then what should we do indoors?' }
]

describe.each(['openai', 'openai-compatible', 'anthropic', 'ollama'] as const)(
  'streaming through the %s client',
  (kind) => {
    it('delivers the scripted chunks in order, then usage and finish', async () => {
      const chunks = ['Kyo', 'to ', 'in ', 'April', ' is ', 'lovely', '.']
      server.enqueue({
        type: 'reply',
        chunks,
        usage: { prompt: 1200, completion: 7 },
        chunkDelayMs: 15
      })
      const events = await collect({ provider: providerFor(kind) })

      const deltas = events.filter((e) => e.type === 'text').map((e) => e.delta)
      expect(deltas).toEqual(chunks)
      expect(events.slice(-2)).toEqual([
        {
          type: 'usage',
          usage: {
            promptTokens: 1200,
            completionTokens: 7,
            cacheReadTokens: 0,
            cacheWriteTokens: 0
          }
        },
        { type: 'finish', reason: 'stop' }
      ])
    })

    it('sends the system prompt first, tool calls with their results, and the input last', async () => {
      await collect({ provider: providerFor(kind), messages: conversation })
      const [request] = server.completions()
      const body = request!.body as Record<string, unknown>
      const wire = JSON.stringify(body)
      // Every text the builder produced reaches the wire, in the builder's order.
      const positions = conversation
        .filter((m) => m.role !== 'tool' && m.content.length > 0)
        .map((m) => wire.indexOf(m.content))
      expect(positions.every((at) => at >= 0)).toBe(true)
      expect(positions).toEqual([...positions].sort((a, b) => a - b))
      expect(wire).toContain('forecast')

      if (kind === 'anthropic') {
        const system = body.system as { text: string }[]
        expect(system.map((s) => s.text)).toEqual([
          'You are Context Lens.',
          'Summary: the user plans a trip to Kyoto.'
        ])
        const messages = body.messages as { role: string; content: unknown[] }[]
        expect(messages.map((m) => m.role)).toEqual([
          'user',
          'assistant',
          'user',
          'assistant',
          'user'
        ])
        expect(JSON.stringify(messages[1])).toContain('"type":"tool_use"')
        expect(JSON.stringify(messages[2])).toContain('"tool_use_id":"call_1"')
        expect(body.max_tokens).toBe(2_048)
      } else if (kind === 'ollama') {
        const messages = body.messages as { role: string }[]
        expect(messages[0]).toMatchObject({ role: 'system', content: 'You are Context Lens.' })
        expect(messages.at(-1)).toMatchObject({ role: 'user' })
        // The builder's window and Ollama's must agree; num_predict is Ollama's output cap.
        expect(body.options).toEqual({ num_ctx: 16_384, num_predict: 2_048 })
      } else {
        const messages = body.messages as { role: string; tool_calls?: unknown[] }[]
        expect(messages.map((m) => m.role)).toEqual([
          'system',
          'system',
          'user',
          'assistant',
          'tool',
          'assistant',
          'system',
          'user'
        ])
        expect(messages[3]!.tool_calls).toEqual([
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Kyoto"}' }
          }
        ])
        expect(messages[4]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
        expect(body.stream_options).toEqual({ include_usage: true })
      }
    })
  }
)

describe('usage with prompt caching', () => {
  it('reads OpenAI cached tokens (prompt_tokens_details.cached_tokens) as cache reads', async () => {
    server.enqueue({
      type: 'reply',
      chunks: ['ok'],
      usage: { prompt: 5000, completion: 12, cacheRead: 4096 }
    })
    const events = await collect({ provider: providerFor('openai') })
    expect(events.find((e) => e.type === 'usage')).toEqual({
      type: 'usage',
      usage: {
        promptTokens: 5000,
        completionTokens: 12,
        cacheReadTokens: 4096,
        cacheWriteTokens: 0
      }
    })
  })

  it('reads Anthropic cache creation and cache read tokens; prompt tokens include both', async () => {
    server.enqueue({
      type: 'reply',
      chunks: ['ok'],
      usage: { prompt: 9000, completion: 30, cacheRead: 6000, cacheWrite: 2500 }
    })
    const events = await collect({ provider: providerFor('anthropic') })
    expect(events.find((e) => e.type === 'usage')).toEqual({
      type: 'usage',
      usage: {
        promptTokens: 9000,
        completionTokens: 30,
        cacheReadTokens: 6000,
        cacheWriteTokens: 2500
      }
    })
    // No breakpoints were asked for, so none were sent.
    expect(JSON.stringify(server.requests.at(-1)?.body)).not.toContain('cache_control')
  })

  it('reports a length stop as finish reason "length"', async () => {
    server.enqueue({ type: 'reply', chunks: ['trunc'], finish: 'length' })
    const events = await collect({ provider: providerFor('anthropic') })
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' })
  })
})

describe('Anthropic cache breakpoints', () => {
  const marked: CacheableMessage[] = [
    { role: 'system', content: 'System prompt.', cacheControl: { type: 'ephemeral', ttl: '1h' } },
    { role: 'user', content: 'First question.' },
    { role: 'assistant', content: 'First answer.', cacheControl: { type: 'ephemeral' } },
    { role: 'user', content: 'Second question.', cacheControl: { type: 'ephemeral', ttl: '5m' } }
  ]

  it('puts cache_control on the marked system block and messages, and nowhere else', async () => {
    await collect({ provider: providerFor('anthropic'), messages: marked })
    const body = server.completions()[0]!.body as {
      system: { text: string; cache_control?: unknown }[]
      messages: { role: string; content: { text: string; cache_control?: unknown }[] }[]
    }
    expect(body.system).toEqual([
      { type: 'text', text: 'System prompt.', cache_control: { type: 'ephemeral', ttl: '1h' } }
    ])
    expect(body.messages.map((m) => m.content.map((c) => c.cache_control ?? null))).toEqual([
      [null],
      [{ type: 'ephemeral' }],
      [{ type: 'ephemeral', ttl: '5m' }]
    ])
  })

  it('applies a marker placement only for Anthropic, without touching the input', async () => {
    const input: CacheableMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'U' }
    ]
    const snapshot = structuredClone(input)
    const placement = (messages: readonly CacheableMessage[]) =>
      messages.map((m, i) =>
        i === 0 ? { ...m, cacheControl: { type: 'ephemeral' as const } } : { ...m }
      )
    await collect({
      provider: providerFor('anthropic'),
      messages: input,
      anthropicCache: placement
    })
    await collect({ provider: providerFor('openai'), messages: input, anthropicCache: placement })
    const [anthropic, openai] = server.completions()
    expect(JSON.stringify(anthropic!.body)).toContain('"cache_control":{"type":"ephemeral"}')
    expect(JSON.stringify(openai!.body)).not.toMatch(/cache_control|cacheControl/)
    expect(input).toEqual(snapshot)
  })
})

describe('headers', () => {
  it('sends the key as a bearer token to OpenAI and as x-api-key to Anthropic, and none to Ollama', async () => {
    await collect({ provider: providerFor('openai') })
    await collect({ provider: providerFor('anthropic') })
    await collect({ provider: providerFor('ollama') })
    const [openai, anthropic, ollama] = server.completions()
    expect(openai!.headers.authorization).toBe('Bearer sk-test-key-0123456789')
    expect(anthropic!.headers['x-api-key']).toBe('sk-test-key-0123456789')
    expect(ollama!.headers.authorization).toBeUndefined()
  })
})

describe('stopping', () => {
  it('an aborted signal ends the stream with an "aborted" error and hangs up the request', async () => {
    server.enqueue({
      type: 'reply',
      chunks: ['one', 'two', 'three', 'four', 'five'],
      chunkDelayMs: 80
    })
    const controller = new AbortController()
    const received: string[] = []
    const failure = await (async () => {
      try {
        for await (const event of streamChat({
          provider: providerFor('openai'),
          modelId: 'test-model',
          apiKey: 'sk-test-key-0123456789',
          messages: [{ role: 'user', content: 'Count.' }],
          signal: controller.signal
        })) {
          if (event.type === 'text') received.push(event.delta)
          if (received.length === 2) controller.abort()
        }
        return null
      } catch (error) {
        return error
      }
    })()
    expect(failure).toMatchObject({ name: 'ProviderError', kind: 'aborted' })
    expect(received).toEqual(['one', 'two'])
    await expect.poll(() => server.disconnects).toBeGreaterThan(0)
  })

  it('breaking out of the loop cancels the request too', async () => {
    const before = server.disconnects
    server.enqueue({ type: 'reply', chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 80 })
    for await (const event of streamChat({
      provider: providerFor('anthropic'),
      modelId: 'test-model',
      apiKey: 'sk-test-key-0123456789',
      messages: [{ role: 'user', content: 'Go.' }]
    })) {
      if (event.type === 'text') break
    }
    await expect.poll(() => server.disconnects).toBeGreaterThan(before)
  })

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(
      collect({ provider: providerFor('openai'), signal: controller.signal })
    ).rejects.toMatchObject({
      kind: 'aborted'
    })
    expect(server.completions()).toHaveLength(0)
  })
})
