/**
 * A real HTTP server on 127.0.0.1 that speaks just enough of three model APIs for the AI SDK's
 * own clients: OpenAI chat completions (SSE), Anthropic messages (SSE) and Ollama's native
 * /api/chat (NDJSON), plus the model lists (/v1/models, /api/tags). Each completion request
 * takes the next queued script (or the fallback): a streamed reply with usage, an HTTP error,
 * a slow or hanging stream, a stream cut off or ended early, malformed chunks, or an error
 * event inside the stream. Every request is recorded so tests can assert what was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EXTRACTION_PROMPT_HEAD } from '../../src/main/context/recall/memoryExtractionPrompt'

interface ScriptedUsage {
  /** Everything the prompt cost, cached or not (OpenAI's prompt_tokens). */
  prompt: number
  completion: number
  cacheRead?: number
  cacheWrite?: number
}

type ErrorKind =
  'auth' | 'forbidden' | 'rate_limit' | 'server' | 'context_length' | 'not_found' | 'bad_request'

export type Script =
  /** A normal streamed reply; `chunkDelayMs` spaces the chunks (a slow stream when large). */
  | {
      type: 'reply'
      chunks: string[]
      usage?: ScriptedUsage
      chunkDelayMs?: number
      /** A pause after the stream opened (OpenAI's role-only chunk) before the first text. */
      firstChunkDelayMs?: number
      finish?: 'stop' | 'length'
    }
  /** An HTTP error with the provider's error body; `retryAfter` becomes the header. */
  | { type: 'error'; status: number; kind: ErrorKind; message?: string; retryAfter?: string }
  /** Streams the chunks, then destroys the socket mid-stream. */
  | { type: 'cut'; chunks: string[] }
  /** Streams the chunks, then ends the response cleanly without any finish event. */
  | { type: 'truncated'; chunks: string[] }
  /** Streams the chunks, then a data line that is not JSON, then hangs up. */
  | { type: 'malformed'; chunks: string[] }
  /**
   * Streams the chunks, then the provider's in-stream error event. `plain`: the error is a bare
   * string (`{"error": "..."}`), as some OpenAI-compatible servers send it.
   */
  | { type: 'stream_error'; chunks: string[]; message: string; plain?: boolean }
  /** Never answers: with `headers`, sends 200 and the SSE headers first, then nothing. */
  | { type: 'hang'; headers?: boolean }
  /**
   * The model asks for tools (OpenAI dialect): optional text first, then each call's arguments
   * streamed in two pieces, finish reason `tool_calls`.
   */
  | { type: 'tool_calls'; calls: ScriptedToolCall[]; chunks?: string[]; usage?: ScriptedUsage }

interface ScriptedToolCall {
  id: string
  name: string
  arguments: Record<string, unknown>
}

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON body, or null for GET. */
  body: unknown
}

export interface ScriptedProvider {
  /** http://127.0.0.1:<port> */
  url: string
  port: number
  /** For the OpenAI, OpenAI-compatible and Anthropic clients. */
  v1: string
  /** For the Ollama client and detection. */
  ollama: string
  requests: RecordedRequest[]
  /** Chat completion requests (chat/messages), in order; memory extraction calls are not among them. */
  completions(): RecordedRequest[]
  /** The app's automatic memory-extraction requests, answered with `extraction`. */
  extractions(): RecordedRequest[]
  /** The answer to every extraction request (default: nothing worth remembering). */
  extraction: Script
  /** Queues scripts; each completion request takes the next one. */
  enqueue(...scripts: Script[]): void
  /** Used when the queue is empty. */
  fallback: Script
  /** Chooses a script by the request body before the queue is consulted (undefined: the queue). */
  route: ((body: unknown) => Script | undefined) | null
  /** Served by /v1/models and /api/tags. */
  models: string[]
  /** When set, completion and model-list requests carrying any other key get a 401. */
  requiredKey: string | null
  /** Responses the client hung up on before they were complete (aborts, timeouts). */
  disconnects: number
  close(): Promise<void>
}

const isCompletion = (r: RecordedRequest): boolean =>
  r.path === '/v1/chat/completions' || r.path === '/v1/messages' || r.path === '/api/chat'

/** Every dialect carries the system prompt somewhere in the JSON body. */
const isExtraction = (body: unknown): boolean =>
  body !== null && JSON.stringify(body).includes(EXTRACTION_PROMPT_HEAD)

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))

type Dialect = 'openai' | 'anthropic' | 'ollama'

export async function startScriptedProvider(
  options: { models?: string[]; requiredKey?: string | null } = {}
): Promise<ScriptedProvider> {
  const queue: Script[] = []
  let closing = false
  const requests: RecordedRequest[] = []

  const provider: ScriptedProvider = {
    url: '',
    port: 0,
    v1: '',
    ollama: '',
    requests,
    completions: () => requests.filter((r) => isCompletion(r) && !isExtraction(r.body)),
    extractions: () => requests.filter((r) => isCompletion(r) && isExtraction(r.body)),
    extraction: { type: 'reply', chunks: ['{"memories":[]}'] },
    enqueue: (...scripts) => void queue.push(...scripts),
    fallback: { type: 'reply', chunks: ['Hello', ' from', ' the', ' script.'] },
    route: null,
    models: options.models ?? ['scripted-model', 'scripted-small'],
    requiredKey: options.requiredKey ?? null,
    disconnects: 0,
    close: () =>
      new Promise<void>((done) => {
        closing = true
        server.closeAllConnections()
        server.close(() => done())
      })
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('close', () => {
      if (!res.writableFinished && !closing) provider.disconnects += 1
    })
    const raw = await readBody(req)
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    requests.push({
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body: raw.length > 0 ? JSON.parse(raw) : null
    })

    const dialect: Dialect | null =
      path === '/v1/chat/completions'
        ? 'openai'
        : path === '/v1/messages'
          ? 'anthropic'
          : path === '/api/chat'
            ? 'ollama'
            : null

    if (req.method === 'GET' && path === '/api/tags') return ollamaTags(res)
    if (req.method === 'GET' && path === '/v1/models') {
      if (!keyAccepted(req)) return sendError(res, 'openai', unauthorized)
      return json(res, 200, {
        object: 'list',
        data: provider.models.map((id) => ({ id, object: 'model', owned_by: 'scripted' }))
      })
    }
    if (req.method !== 'POST' || dialect === null) return json(res, 404, { error: 'not found' })
    if (!keyAccepted(req)) return sendError(res, dialect, unauthorized)

    const body = requestsLast()?.body ?? null
    // Extraction runs after a turn, in the background: it must not take a chat test's scripts.
    const script = isExtraction(body)
      ? provider.extraction
      : (provider.route?.(body) ?? queue.shift() ?? provider.fallback)
    const model = String((requestsLast()?.body as { model?: unknown } | null)?.model ?? 'scripted')
    await play(res, dialect, model, script)
  }

  const requestsLast = (): RecordedRequest | undefined => requests[requests.length - 1]

  function keyAccepted(req: IncomingMessage): boolean {
    if (provider.requiredKey === null) return true
    const bearer = req.headers.authorization
    const header = req.headers['x-api-key']
    return bearer === `Bearer ${provider.requiredKey}` || header === provider.requiredKey
  }

  function ollamaTags(res: ServerResponse): void {
    json(res, 200, {
      models: provider.models.map((name) => ({
        name,
        model: name,
        modified_at: '2026-11-20T10:00:00Z',
        size: 2_000_000_000,
        digest: 'sha256:0000',
        details: { family: 'llama', parameter_size: '3B', quantization_level: 'Q4_K_M' }
      }))
    })
  }

  async function play(res: ServerResponse, dialect: Dialect, model: string, script: Script) {
    if (script.type === 'error') return sendError(res, dialect, script)
    if (script.type === 'hang') {
      if (script.headers) startStream(res, dialect)
      return // the connection stays open until the client gives up or the server closes
    }
    if (script.type === 'tool_calls') return playToolCalls(res, dialect, model, script)
    const usage =
      (script.type === 'reply' ? script.usage : undefined) ?? defaultUsage(script.chunks)
    const stream = new StreamWriter(res, dialect, model, usage)
    stream.start()
    const delay = script.type === 'reply' ? (script.chunkDelayMs ?? 5) : 5
    if (script.type === 'reply' && script.firstChunkDelayMs) await sleep(script.firstChunkDelayMs)
    for (const chunk of script.chunks) {
      await sleep(delay)
      if (res.destroyed) return
      stream.text(chunk)
    }
    await sleep(delay)
    switch (script.type) {
      case 'reply':
        stream.finish(script.finish ?? 'stop')
        res.end()
        return
      case 'cut':
        res.socket?.destroy()
        return
      case 'truncated':
        res.end()
        return
      case 'malformed':
        res.write(dialect === 'ollama' ? '{"message": {"content": "oops"\n' : 'data: {"oops": \n\n')
        await sleep(delay)
        res.end()
        return
      case 'stream_error':
        stream.error(script.message, script.plain)
        res.end()
        return
    }
  }

  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as AddressInfo
  provider.port = port
  provider.url = `http://127.0.0.1:${port}`
  provider.v1 = `${provider.url}/v1`
  provider.ollama = `${provider.url}/api`
  return provider
}

async function playToolCalls(
  res: ServerResponse,
  dialect: Dialect,
  model: string,
  script: Extract<Script, { type: 'tool_calls' }>
): Promise<void> {
  if (dialect !== 'openai') return json(res, 501, { error: 'tool calls are scripted for OpenAI' })
  const chunks = script.chunks ?? []
  const stream = new StreamWriter(res, dialect, model, script.usage ?? defaultUsage(chunks))
  stream.start()
  for (const chunk of chunks) {
    await sleep(5)
    stream.text(chunk)
  }
  for (const [index, call] of script.calls.entries()) {
    const args = JSON.stringify(call.arguments)
    const half = Math.floor(args.length / 2)
    await sleep(5)
    stream.toolCallDelta(index, { id: call.id, name: call.name, arguments: args.slice(0, half) })
    await sleep(5)
    stream.toolCallDelta(index, { arguments: args.slice(half) })
  }
  await sleep(5)
  stream.finish('tool_calls')
  res.end()
}

const unauthorized = { kind: 'auth', status: 401 } as const

function defaultUsage(chunks: string[]): ScriptedUsage {
  return { prompt: 42, completion: chunks.length }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => done(Buffer.concat(parts).toString('utf8')))
    req.on('error', fail)
  })
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

function startStream(res: ServerResponse, dialect: Dialect): void {
  res.writeHead(200, {
    'content-type': dialect === 'ollama' ? 'application/x-ndjson' : 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive'
  })
  res.flushHeaders()
}

/** Error bodies in each provider's own shape, with the messages real servers send. */
function sendError(
  res: ServerResponse,
  dialect: Dialect,
  script: { kind: ErrorKind; status: number; message?: string; retryAfter?: string }
): void {
  const defaults: Record<
    ErrorKind,
    { message: string; openaiCode: string; anthropicType: string }
  > = {
    auth: {
      message:
        'Incorrect API key provided: sk-wrong***. You can find your API key in your account.',
      openaiCode: 'invalid_api_key',
      anthropicType: 'authentication_error'
    },
    forbidden: {
      message: 'Your API key does not have permission to use the specified resource.',
      openaiCode: 'unsupported_country_region_territory',
      anthropicType: 'permission_error'
    },
    rate_limit: {
      message: 'Rate limit reached for requests. Please try again later.',
      openaiCode: 'rate_limit_exceeded',
      anthropicType: 'rate_limit_error'
    },
    server: {
      message: 'The server had an error while processing your request.',
      openaiCode: 'server_error',
      anthropicType: 'api_error'
    },
    context_length:
      dialect === 'anthropic'
        ? {
            message: 'prompt is too long: 208310 tokens > 200000 maximum',
            openaiCode: '',
            anthropicType: 'invalid_request_error'
          }
        : {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
            openaiCode: 'context_length_exceeded',
            anthropicType: 'invalid_request_error'
          },
    not_found: {
      message: 'The model `no-such-model` does not exist or you do not have access to it.',
      openaiCode: 'model_not_found',
      anthropicType: 'not_found_error'
    },
    bad_request: {
      message: "Invalid value for 'temperature': must be between 0 and 2.",
      openaiCode: 'invalid_value',
      anthropicType: 'invalid_request_error'
    }
  }
  const known = defaults[script.kind]
  const message = script.message ?? known.message
  const headers: Record<string, string> = {}
  if (script.retryAfter !== undefined) headers['retry-after'] = script.retryAfter
  const body =
    dialect === 'anthropic'
      ? { type: 'error', error: { type: known.anthropicType, message } }
      : dialect === 'ollama'
        ? { error: message }
        : {
            error: {
              message,
              type: script.kind === 'context_length' ? 'invalid_request_error' : script.kind,
              param: null,
              code: known.openaiCode || null
            }
          }
  json(res, script.status, body, headers)
}

/** Writes one reply in the dialect of the endpoint that was called. */
class StreamWriter {
  private readonly id = `scripted-${Math.random().toString(36).slice(2, 10)}`
  private readonly created = Math.floor(Date.now() / 1000)
  private textStarted = false

  constructor(
    private readonly res: ServerResponse,
    private readonly dialect: Dialect,
    private readonly model: string,
    private readonly usage: ScriptedUsage
  ) {}

  start(): void {
    startStream(this.res, this.dialect)
    if (this.dialect === 'openai') {
      this.sse({
        ...this.openaiBase(),
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]
      })
    } else if (this.dialect === 'anthropic') {
      // As the real API does: the input side of usage in message_start, the output side in
      // message_delta. Anthropic's input_tokens excludes the cached parts, reported apart.
      const { prompt, cacheRead = 0, cacheWrite = 0 } = this.usage
      this.event('message_start', {
        type: 'message_start',
        message: {
          id: this.id,
          type: 'message',
          role: 'assistant',
          model: this.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: prompt - cacheRead - cacheWrite,
            cache_creation_input_tokens: cacheWrite,
            cache_read_input_tokens: cacheRead,
            output_tokens: 1
          }
        }
      })
    }
  }

  text(delta: string): void {
    if (this.dialect === 'openai') {
      this.sse({
        ...this.openaiBase(),
        choices: [{ index: 0, delta: { content: delta }, finish_reason: null }]
      })
    } else if (this.dialect === 'anthropic') {
      if (!this.textStarted) {
        this.event('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' }
        })
        this.event('ping', { type: 'ping' })
      }
      this.event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: delta }
      })
    } else {
      this.ndjson({
        ...this.ollamaBase(),
        message: { role: 'assistant', content: delta },
        done: false
      })
    }
    this.textStarted = true
  }

  toolCallDelta(index: number, part: { id?: string; name?: string; arguments: string }): void {
    const fn = { ...(part.name && { name: part.name }), arguments: part.arguments }
    this.sse({
      ...this.openaiBase(),
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index, ...(part.id && { id: part.id, type: 'function' }), function: fn }]
          },
          finish_reason: null
        }
      ]
    })
  }

  finish(reason: 'stop' | 'length' | 'tool_calls'): void {
    const usage = this.usage
    if (this.dialect === 'openai') {
      this.sse({ ...this.openaiBase(), choices: [{ index: 0, delta: {}, finish_reason: reason }] })
      this.sse({
        ...this.openaiBase(),
        choices: [],
        usage: {
          prompt_tokens: usage.prompt,
          completion_tokens: usage.completion,
          total_tokens: usage.prompt + usage.completion,
          // cache_write_tokens is what OpenRouter adds for providers with explicit caching.
          prompt_tokens_details: {
            cached_tokens: usage.cacheRead ?? 0,
            ...(usage.cacheWrite !== undefined && { cache_write_tokens: usage.cacheWrite })
          },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 }
        }
      })
      this.res.write('data: [DONE]\n\n')
    } else if (this.dialect === 'anthropic') {
      if (this.textStarted)
        this.event('content_block_stop', { type: 'content_block_stop', index: 0 })
      this.event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: reason === 'stop' ? 'end_turn' : 'max_tokens', stop_sequence: null },
        usage: { output_tokens: usage.completion }
      })
      this.event('message_stop', { type: 'message_stop' })
    } else {
      this.ndjson({
        ...this.ollamaBase(),
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: reason,
        prompt_eval_count: usage.prompt,
        eval_count: usage.completion
      })
    }
  }

  error(message: string, plain = false): void {
    if (this.dialect === 'openai') {
      this.sse(
        plain
          ? { error: message }
          : { error: { message, type: 'server_error', param: null, code: 'server_error' } }
      )
    } else if (this.dialect === 'anthropic') {
      this.event('error', { type: 'error', error: { type: 'overloaded_error', message } })
    } else {
      this.ndjson({ error: message })
    }
  }

  private openaiBase() {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      system_fingerprint: 'fp_scripted'
    }
  }

  private ollamaBase() {
    return { model: this.model, created_at: new Date().toISOString() }
  }

  private sse(data: unknown): void {
    this.res.write(`data: ${JSON.stringify(data)}\n\n`)
  }

  private event(name: string, data: unknown): void {
    this.res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  private ndjson(data: unknown): void {
    this.res.write(`${JSON.stringify(data)}\n`)
  }
}
