/**
 * "Test connection" in the provider settings. With a model to try, a tiny completion through
 * the real chat path proves the base URL, the key and the model id together (a few tokens of
 * cost). Without one, the provider's model list proves the URL and the key for free and shows
 * what can be added.
 */
import { kindForStatus, parseRetryAfter, redact, toProviderError } from './errors'
import { ollamaRoot, streamChat } from './modelClient'
import type { ConnectionTestResult } from '@shared/providers'
import { ProviderError, type ProviderRecord } from './types'

export type { ConnectionTestResult } from '@shared/providers'

export interface ConnectionTestOptions {
  provider: ProviderRecord
  apiKey?: string
  /** The model to try; defaults to the provider's first. With none, the model list is read. */
  modelId?: string
  timeoutMs?: number
  signal?: AbortSignal
}

const TEST_PROMPT = 'Reply with the single word: ok'

export async function testConnection(
  options: ConnectionTestOptions
): Promise<ConnectionTestResult> {
  const { provider, apiKey } = options
  const modelId = options.modelId ?? provider.models[0]?.id ?? null
  const started = Date.now()
  const elapsed = () => Date.now() - started
  const method = modelId === null ? 'models' : 'completion'
  try {
    if (modelId === null) {
      const models = await listModels(provider, apiKey, options)
      return { ok: true, latencyMs: elapsed(), method, modelId, models }
    }
    const timeoutMs = options.timeoutMs ?? 30_000
    for await (const event of streamChat({
      provider,
      modelId,
      ...(apiKey !== undefined && { apiKey }),
      messages: [{ role: 'user', content: TEST_PROMPT }],
      maxOutputTokens: 16,
      ...(options.signal && { signal: options.signal }),
      timeouts: { firstChunkMs: timeoutMs, idleMs: timeoutMs }
    })) {
      // Reaching the first event is the proof; the rest of the reply does not matter.
      if (event.type === 'text' || event.type === 'finish') break
    }
    return { ok: true, latencyMs: elapsed(), method, modelId, models: null }
  } catch (error) {
    const failure = toProviderError(error, {
      ...(apiKey !== undefined && { apiKey }),
      ...(provider.baseUrl !== undefined && { baseUrl: provider.baseUrl })
    })
    return { ok: false, latencyMs: elapsed(), method, modelId, error: failure.toJSON() }
  }
}

/** The ids the provider serves: /models (OpenAI and compatible, Anthropic) or /api/tags (Ollama). */
export async function listModels(
  provider: ProviderRecord,
  apiKey: string | undefined,
  options: { timeoutMs?: number; signal?: AbortSignal } = {}
): Promise<string[]> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const { url, headers } = modelsRequest(provider, apiKey)
  let response: Response
  try {
    response = await fetch(url, { headers, signal })
  } catch (error) {
    throw toProviderError(error, { ...(apiKey !== undefined && { apiKey }), baseUrl: url })
  }
  const text = await response.text()
  if (!response.ok) {
    const headerMap = Object.fromEntries(response.headers.entries())
    const retryAfterMs = parseRetryAfter(headerMap)
    throw new ProviderError({
      kind: kindForStatus(response.status, text),
      message: redact(errorText(text) ?? `${response.status} ${response.statusText}`, apiKey),
      status: response.status,
      ...(retryAfterMs !== undefined && { retryAfterMs })
    })
  }
  try {
    const body = JSON.parse(text) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] }
    const ids =
      provider.kind === 'ollama'
        ? (body.models ?? []).map((m) => m.name)
        : (body.data ?? []).map((m) => m.id)
    return ids.filter((id): id is string => typeof id === 'string')
  } catch {
    throw new ProviderError({ kind: 'bad_response', message: 'The model list was not JSON.' })
  }
}

function modelsRequest(
  provider: ProviderRecord,
  apiKey: string | undefined
): { url: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { accept: 'application/json' }
  switch (provider.kind) {
    case 'ollama':
      return { url: `${ollamaRoot(provider.baseUrl)}/api/tags`, headers }
    case 'anthropic':
      if (apiKey) headers['x-api-key'] = apiKey
      headers['anthropic-version'] = '2023-06-01'
      return { url: `${provider.baseUrl ?? 'https://api.anthropic.com/v1'}/models`, headers }
    case 'openai':
    case 'openai-compatible':
      if (apiKey) headers.authorization = `Bearer ${apiKey}`
      return { url: `${provider.baseUrl ?? 'https://api.openai.com/v1'}/models`, headers }
  }
}

function errorText(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown }
    if (typeof parsed.error === 'string') return parsed.error
    const inner = (parsed.error as { message?: unknown } | undefined)?.message
    if (typeof inner === 'string') return inner
    if (typeof parsed.message === 'string') return parsed.message
  } catch {
    // Not JSON.
  }
  return null
}
