/**
 * Turns whatever a provider call threw (the SDK's APICallError and StreamProviderError, fetch's
 * TypeError with an undici cause, parse errors, aborts) into one ProviderError kind the UI can
 * act on. The messages are the provider's own where they help ("prompt is too long: ..."),
 * cut to a readable length, with the API key redacted.
 */
import { APICallError, StreamProviderError } from 'ai'
import { ProviderError, type ProviderErrorKind } from './types'

const MAX_MESSAGE = 400

/** Prompt-too-long messages from OpenAI, Anthropic, DeepSeek, OpenRouter, vLLM, llama.cpp, LM Studio. */
const CONTEXT_LENGTH_PATTERNS: readonly RegExp[] = [
  /context_length_exceeded/i,
  /prompt is too long/i,
  /maximum context length/i,
  /context (?:length|window|size)[^.]{0,40}(?:exceed|too (?:long|large|small))/i,
  /exceeds? (?:the )?(?:model'?s? )?(?:maximum |max |available )?context/i,
  /(?:input|prompt|request) (?:is )?too long/i,
  /too many (?:input )?tokens/i,
  /reduce the length of (?:the )?messages/i,
  /greater than the context length/i,
  /context_window_exceeded|exceed_context_size/i
]

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
])

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT'
])

export interface ClassifyContext {
  /** Redacted from every message. */
  apiKey?: string
  /** The endpoint, named in network errors ("Could not reach 127.0.0.1:1234"). */
  baseUrl?: string
}

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH_PATTERNS.some((pattern) => pattern.test(text))
}

/** `retry-after-ms` (OpenAI), `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(
  headers: Record<string, string> | undefined,
  now: number = Date.now()
): number | undefined {
  if (!headers) return undefined
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
  const ms = Number.parseFloat(lower['retry-after-ms'] ?? '')
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms)
  const value = lower['retry-after']?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The kind an HTTP status and the provider's message imply. */
export function kindForStatus(status: number, text: string): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth'
  if (status === 429) return 'rate_limit'
  if (status === 408) return 'timeout'
  if (status === 413) return 'context_length'
  if (status >= 500) return isContextLengthMessage(text) ? 'context_length' : 'server'
  if (status >= 400) return isContextLengthMessage(text) ? 'context_length' : 'invalid_request'
  return 'bad_response'
}

export function redact(text: string, apiKey: string | undefined): string {
  let out = text
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted]')
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE - 1)}…` : out
}

/** Walks `cause` links (undici nests the socket error two levels down). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  let current = error
  for (let depth = 0; current != null && depth < 6; depth++) {
    chain.push(current)
    current = (current as { cause?: unknown }).cause
  }
  return chain
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

function nameOf(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null)?.name
  return typeof name === 'string' ? name : undefined
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  return 'Unknown error'
}

function hostOf(baseUrl: string | undefined): string {
  if (!baseUrl) return 'the provider'
  try {
    return new URL(baseUrl).host
  } catch {
    return 'the provider'
  }
}

/** The one place provider failures get a kind. Already-classified errors pass through. */
export function toProviderError(error: unknown, context: ClassifyContext = {}): ProviderError {
  if (error instanceof ProviderError) return error
  // Raised inside a response body (ollamaStream) and wrapped by the SDK on its way out.
  const carried = causes(error).find((link) => link instanceof ProviderError)
  if (carried instanceof ProviderError) return carried
  const make = (
    kind: ProviderErrorKind,
    message: string,
    extra: { status?: number; retryAfterMs?: number } = {}
  ) => new ProviderError({ kind, message: redact(message, context.apiKey), ...extra })

  // A 2xx APICallError ("Failed to process successful response") is a stream that broke
  // after it started; its cause says how, below.
  if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 400) {
    const text = `${error.message} ${error.responseBody ?? ''}`
    const kind = kindForStatus(error.statusCode, text)
    const retryAfterMs = parseRetryAfter(error.responseHeaders)
    return make(kind, providerMessage(error), {
      status: error.statusCode,
      ...(retryAfterMs !== undefined && { retryAfterMs })
    })
  }

  if (StreamProviderError.isInstance(error)) {
    // An error event inside a stream that had started: overloaded, a server fault, or rarely
    // a limit the provider only noticed while generating.
    const status = error.statusCode
    const kind: ProviderErrorKind = isContextLengthMessage(error.message)
      ? 'context_length'
      : status !== undefined
        ? kindForStatus(status, error.message)
        : 'server'
    return make(kind, error.message, status !== undefined ? { status } : {})
  }

  const chain = causes(error)
  for (const link of chain) {
    const code = codeOf(link)
    const name = nameOf(link)
    if ((code && TIMEOUT_CODES.has(code)) || name === 'TimeoutError') {
      return make('timeout', `${hostOf(context.baseUrl)} did not answer in time.`)
    }
    if (code && NETWORK_CODES.has(code)) {
      return make('network', networkMessage(code, context.baseUrl))
    }
  }
  for (const link of chain) {
    const name = nameOf(link)
    const words = name === 'AI_TypeValidationError' ? inStreamError(link) : null
    if (words !== null)
      return make(isContextLengthMessage(words) ? 'context_length' : 'server', words)
    if (name === 'AbortError' || name === 'ResponseAborted')
      return make('aborted', 'The request was stopped.')
    if (
      name === 'AI_JSONParseError' ||
      name === 'AI_TypeValidationError' ||
      name === 'AI_InvalidResponseDataError' ||
      name === 'AI_EmptyResponseBodyError' ||
      name === 'AI_NoOutputGeneratedError'
    ) {
      return make(
        'bad_response',
        `The provider sent a response the app could not read (${messageOf(link).split('\n')[0]}).`
      )
    }
    if (name === 'AI_LoadAPIKeyError') return make('auth', 'No API key is set for this provider.')
    if (
      name === 'AI_InvalidPromptError' ||
      name === 'AI_InvalidMessageRoleError' ||
      name === 'AI_MessageConversionError' ||
      name === 'AI_InvalidArgumentError'
    ) {
      return make('invalid_request', messageOf(link))
    }
  }
  // fetch's own failures: "fetch failed", "terminated" (a dropped stream), "bad port".
  if (chain.some((link) => link instanceof TypeError) || APICallError.isInstance(error)) {
    return make(
      'network',
      `${hostOf(context.baseUrl)} could not be reached or dropped the connection (${rootMessage(chain)}).`
    )
  }
  return make('bad_response', messageOf(error))
}

/**
 * The provider's own words when a streamed line failed the SDK's schema because it was an
 * error object: Ollama's `{"error": "..."}` line (its client only knows the reply shape), or
 * a compatible server's `{"error": {"message": ...}}` in a shape the client does not expect.
 */
function inStreamError(link: unknown): string | null {
  const value = (link as { value?: unknown }).value
  if (value === null || typeof value !== 'object' || !('error' in value)) return null
  const inner = value.error
  if (typeof inner === 'string') return inner.length > 0 ? inner : null
  const message = (inner as { message?: unknown } | null)?.message
  return typeof message === 'string' && message.length > 0 ? message : null
}

function rootMessage(chain: unknown[]): string {
  const last = chain[chain.length - 1]
  return messageOf(last).split('\n')[0] ?? 'unknown cause'
}

/** The provider's own sentence, not the SDK's generic "Bad Request" when a body explains more. */
function providerMessage(error: APICallError): string {
  const generic =
    /^(Bad Request|Unauthorized|Forbidden|Not Found|Too Many Requests|Internal Server Error|Service Unavailable|Bad Gateway|Gateway Timeout)$/
  if (!generic.test(error.message) || !error.responseBody) return error.message
  try {
    const body = JSON.parse(error.responseBody) as { error?: unknown; message?: unknown }
    const inner =
      typeof body.error === 'string' ? body.error : (body.error as { message?: unknown })?.message
    if (typeof inner === 'string' && inner.length > 0) return inner
    if (typeof body.message === 'string') return body.message
  } catch {
    // Not JSON: an HTML error page from a proxy, say. The status text says enough.
  }
  return error.message
}

function networkMessage(code: string, baseUrl: string | undefined): string {
  const host = hostOf(baseUrl)
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing is listening at ${host} (connection refused). Is the server running?`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The address ${host} could not be resolved. Check the base URL and your connection.`
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
    case 'UND_ERR_CLOSED':
    case 'EPIPE':
      return `${host} closed the connection before the reply was complete.`
    default:
      return code.includes('CERT')
        ? `The TLS certificate of ${host} was not accepted (${code}).`
        : `${host} could not be reached (${code}).`
  }
}
