import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { streamChat, type StreamTimeouts } from '../../src/main/services/providers/modelClient'
import {
  ProviderError,
  type ChatStreamEvent,
  type ProviderKind,
  type ProviderRecord
} from '../../src/main/services/providers/types'
import {
  startScriptedProvider,
  type Script,
  type ScriptedProvider
} from '../support/scriptedProvider'

const KEY = 'sk-live-SECRET-4f9a8b7c6d5e'

let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider()
})
afterAll(() => server.close())

function providerFor(kind: ProviderKind, baseUrl?: string): ProviderRecord {
  return {
    id: `p-${kind}`,
    kind,
    name: kind,
    baseUrl: baseUrl ?? (kind === 'ollama' ? server.url : server.v1),
    models: [{ id: 'test-model', contextWindow: 8_192, maxOutput: 1_024 }]
  }
}

/** Runs one call; returns what streamed before the failure and the failure itself. */
async function run(
  kind: ProviderKind,
  script?: Script,
  options: { baseUrl?: string; timeouts?: Partial<StreamTimeouts> } = {}
): Promise<{ events: ChatStreamEvent[]; error: ProviderError | null; ms: number }> {
  if (script) server.enqueue(script)
  const events: ChatStreamEvent[] = []
  const started = Date.now()
  try {
    for await (const event of streamChat({
      provider: providerFor(kind, options.baseUrl),
      modelId: 'test-model',
      apiKey: KEY,
      messages: [{ role: 'user', content: 'Hi' }],
      ...(options.timeouts && { timeouts: options.timeouts })
    })) {
      events.push(event)
    }
    return { events, error: null, ms: Date.now() - started }
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError)
    return { events, error: error as ProviderError, ms: Date.now() - started }
  }
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((done) => probe.close(() => done()))
  return port
}

describe.each(['openai', 'anthropic'] as const)('HTTP errors from the %s API', (kind) => {
  it('401 is "auth" with the status, and the key never appears in the message', async () => {
    const { error } = await run(kind, {
      type: 'error',
      status: 401,
      kind: 'auth',
      message: `Incorrect API key provided: ${KEY}.`
    })
    expect(error).toMatchObject({ kind: 'auth', status: 401 })
    expect(error!.message).not.toContain(KEY)
    expect(error!.message).toContain('[redacted]')
    expect(JSON.stringify(error)).not.toContain(KEY)
  })

  it('403 is "auth"', async () => {
    const { error } = await run(kind, { type: 'error', status: 403, kind: 'forbidden' })
    expect(error).toMatchObject({ kind: 'auth', status: 403 })
  })

  it('429 is "rate_limit" with retry-after in milliseconds', async () => {
    const { error } = await run(kind, {
      type: 'error',
      status: 429,
      kind: 'rate_limit',
      retryAfter: '7'
    })
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7_000 })
    expect(error!.toJSON()).toEqual({
      kind: 'rate_limit',
      status: 429,
      retryAfterMs: 7_000,
      message: 'Rate limit reached for requests. Please try again later.'
    })
  })

  it('429 with an HTTP-date retry-after is converted to a delay', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString()
    const { error } = await run(kind, {
      type: 'error',
      status: 429,
      kind: 'rate_limit',
      retryAfter: at
    })
    expect(error!.kind).toBe('rate_limit')
    expect(error!.retryAfterMs).toBeGreaterThan(25_000)
    expect(error!.retryAfterMs).toBeLessThanOrEqual(30_000)
  })

  it('500 is "server"', async () => {
    const { error } = await run(kind, { type: 'error', status: 500, kind: 'server' })
    expect(error).toMatchObject({ kind: 'server', status: 500 })
  })

  it('a prompt-too-long 400 is "context_length" with the provider\'s explanation', async () => {
    const { error } = await run(kind, { type: 'error', status: 400, kind: 'context_length' })
    expect(error).toMatchObject({ kind: 'context_length', status: 400 })
    expect(error!.message).toMatch(
      kind === 'anthropic' ? /prompt is too long/ : /maximum context length/
    )
  })

  it('another 400 is "invalid_request", and a 404 model too', async () => {
    expect(
      (await run(kind, { type: 'error', status: 400, kind: 'bad_request' })).error
    ).toMatchObject({
      kind: 'invalid_request',
      status: 400
    })
    expect(
      (await run(kind, { type: 'error', status: 404, kind: 'not_found' })).error
    ).toMatchObject({
      kind: 'invalid_request',
      status: 404
    })
  })

  it('a stream cut off mid-way is "network", after the text that did arrive', async () => {
    const { events, error } = await run(kind, { type: 'cut', chunks: ['Partial ', 'answer'] })
    expect(events).toEqual([
      { type: 'text', delta: 'Partial ' },
      { type: 'text', delta: 'answer' }
    ])
    expect(error!.kind).toBe('network')
    expect(error!.message).toMatch(/closed the connection/)
  })

  it('a stream that ends without finishing is "bad_response"', async () => {
    const { events, error } = await run(kind, { type: 'truncated', chunks: ['Half'] })
    expect(events).toEqual([{ type: 'text', delta: 'Half' }])
    expect(error).toMatchObject({ kind: 'bad_response' })
  })

  it('a malformed chunk is "bad_response"', async () => {
    const { error } = await run(kind, { type: 'malformed', chunks: ['Fine so far'] })
    expect(error).toMatchObject({ kind: 'bad_response' })
    expect(error!.message).toMatch(/could not read/)
  })

  it('an error event inside the stream is "server" (overloaded)', async () => {
    const { events, error } = await run(kind, {
      type: 'stream_error',
      chunks: ['Start'],
      message: 'Overloaded'
    })
    expect(events).toEqual([{ type: 'text', delta: 'Start' }])
    expect(error).toMatchObject({ kind: 'server', message: 'Overloaded' })
  })

  it('no first chunk within the first-chunk timeout is "timeout"', async () => {
    const { error, ms } = await run(
      kind,
      { type: 'hang', headers: true },
      {
        timeouts: { firstChunkMs: 300 }
      }
    )
    expect(error).toMatchObject({ kind: 'timeout' })
    expect(error!.message).toMatch(/No reply .* within 300 ms/)
    expect(ms).toBeLessThan(5_000)
  })

  it('a stream that stalls between chunks is "timeout"', async () => {
    const { events, error } = await run(
      kind,
      { type: 'reply', chunks: ['slow', 'er', 'still'], chunkDelayMs: 600 },
      { timeouts: { firstChunkMs: 5_000, idleMs: 250 } }
    )
    expect(error).toMatchObject({ kind: 'timeout' })
    expect(error!.message).toMatch(/further output/)
    expect(events.length).toBeLessThanOrEqual(1)
  })
})

describe.each(['openai', 'openai-compatible', 'ollama'] as const)(
  "an error inside the stream keeps the provider's words (%s)",
  (kind) => {
    it("as the provider's own error object", async () => {
      const { events, error } = await run(kind, {
        type: 'stream_error',
        chunks: ['Partial'],
        message: 'Overloaded: please retry in 30 seconds.'
      })
      expect(events).toEqual([{ type: 'text', delta: 'Partial' }])
      expect(error).toMatchObject({
        kind: 'server',
        message: 'Overloaded: please retry in 30 seconds.'
      })
    })

    it('as a bare string, and a context overflow is named as such', async () => {
      const { error } = await run(kind, {
        type: 'stream_error',
        chunks: ['Partial'],
        message: 'the input exceeds the context length of 8192 tokens',
        plain: true
      })
      expect(error).toMatchObject({
        kind: 'context_length',
        message: 'the input exceeds the context length of 8192 tokens'
      })
    })
  }
)

describe('Ollama failures', () => {
  it("an HTTP error keeps Ollama's own message", async () => {
    const { error } = await run('ollama', {
      type: 'error',
      status: 404,
      kind: 'not_found',
      message: "model 'llama9' not found, try pulling it first"
    })
    expect(error).toMatchObject({ kind: 'invalid_request', status: 404 })
    expect(error!.message).toBe("model 'llama9' not found, try pulling it first")
  })

  it('a stream without its final "done" line is "bad_response"', async () => {
    const { error } = await run('ollama', { type: 'truncated', chunks: ['Half'] })
    expect(error).toMatchObject({ kind: 'bad_response' })
  })

  it('a cut connection is "network"', async () => {
    const { error } = await run('ollama', { type: 'cut', chunks: ['Half'] })
    expect(error).toMatchObject({ kind: 'network' })
  })

  it('a malformed line is "bad_response" (the Ollama client skips it and never sees "done")', async () => {
    // ollama-ai-provider-v2 prints the bad line to stderr itself ("Failed to parse NDJSON line").
    const { error } = await run('ollama', { type: 'malformed', chunks: ['Half'] })
    expect(error).toMatchObject({ kind: 'bad_response' })
  })
})

describe('connection failures', () => {
  it('connection refused is "network" and names the address', async () => {
    const port = await closedPort()
    for (const kind of ['openai', 'anthropic', 'openai-compatible', 'ollama'] as const) {
      const { error } = await run(kind, undefined, { baseUrl: `http://127.0.0.1:${port}/v1` })
      expect(error, kind).toMatchObject({ kind: 'network' })
      expect(error!.message, kind).toContain(`127.0.0.1:${port}`)
    }
  })

  it('an unresolvable host is "network"', async () => {
    const { error } = await run('openai', undefined, { baseUrl: 'http://no-such-host.invalid/v1' })
    expect(error).toMatchObject({ kind: 'network' })
  })
})

describe.each(['openai', 'openai-compatible', 'anthropic', 'ollama'] as const)(
  'the first-token timeout (%s)',
  (kind) => {
    it('holds until the first real text, past an opening chunk without any', async () => {
      // A reasoning model: the stream opens (OpenAI's role-only chunk, Anthropic's
      // message_start), then nothing for longer than the idle limit, then the answer.
      const { events, error } = await run(
        kind,
        { type: 'reply', chunks: ['Thought ', 'it over.'], firstChunkDelayMs: 900 },
        { timeouts: { firstChunkMs: 10_000, idleMs: 300 } }
      )
      expect(error).toBeNull()
      expect(events.filter((e) => e.type === 'text').map((e) => e.delta)).toEqual([
        'Thought ',
        'it over.'
      ])
    })

    it('still gives up when no text comes within it', async () => {
      const { error } = await run(
        kind,
        { type: 'reply', chunks: ['too late'], firstChunkDelayMs: 2_000 },
        { timeouts: { firstChunkMs: 600, idleMs: 300 } }
      )
      expect(error).toMatchObject({ kind: 'timeout' })
      expect(error!.message).toMatch(/No reply from test-model within 600 ms/)
    })
  }
)
