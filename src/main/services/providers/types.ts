/**
 * The provider layer's data: provider records as the settings store keeps them, the events a
 * streamed reply produces, and the one error type every provider failure becomes. Plain data
 * only (ProviderError aside), so records and views can cross IPC as they are.
 */
import type { ProviderMessage } from '@shared/context'

export const PROVIDER_KINDS = ['openai', 'openai-compatible', 'anthropic', 'ollama'] as const
export type ProviderKind = (typeof PROVIDER_KINDS)[number]

/** Prices are US dollars per million tokens. */
export interface ModelPrices {
  inputPrice?: number
  outputPrice?: number
  /** Cached input read back (OpenAI "cached input", Anthropic cache hits, DeepSeek cache hits). */
  cacheReadPrice?: number
  /** Input written to the cache (Anthropic, 5-minute TTL). */
  cacheWritePrice?: number
}

export interface ModelRecord extends ModelPrices {
  id: string
  /** The model's whole window, prompt and reply together (for Ollama: the num_ctx we ask for). */
  contextWindow: number
  maxOutput: number
}

export interface ProviderRecord {
  id: string
  kind: ProviderKind
  /** What the user calls it ("OpenRouter", "Work Anthropic"). */
  name: string
  /** Required for openai-compatible; optional override for the others. */
  baseUrl?: string
  /** Where the encrypted key lives in the SecretStore; absent for keyless local servers. */
  apiKeyRef?: string
  models: ModelRecord[]
}

/** A provider as the renderer may see it: never the key, only whether there is one. */
export interface ProviderView extends Omit<ProviderRecord, 'apiKeyRef'> {
  hasApiKey: boolean
  /** "sk-…abcd", or null when no key is stored. */
  apiKeyHint: string | null
}

/** Anthropic prompt-cache breakpoint, as the caching layout places it on a message. */
export interface CacheControl {
  type: 'ephemeral'
  ttl?: '5m' | '1h'
}

/** A builder message that may carry a cache breakpoint (only Anthropic reads it). */
export type CacheableMessage = ProviderMessage & { cacheControl?: CacheControl }

/** Token usage of one reply. `promptTokens` includes the cached parts (read and written). */
export interface ChatUsage {
  promptTokens: number
  completionTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

export type ChatFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'other'

export type ChatStreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'usage'; usage: ChatUsage }
  | { type: 'finish'; reason: ChatFinishReason }

export const PROVIDER_ERROR_KINDS = [
  'auth',
  'rate_limit',
  'network',
  'timeout',
  'context_length',
  'server',
  'bad_response',
  'invalid_request',
  'aborted'
] as const
export type ProviderErrorKind = (typeof PROVIDER_ERROR_KINDS)[number]

/** A ProviderError as plain data, for IPC and storage. */
export interface ProviderErrorInfo {
  kind: ProviderErrorKind
  message: string
  status?: number
  retryAfterMs?: number
}

/**
 * Every failure of a provider call becomes one of these. The message is safe to show and to
 * log: it never contains the API key (the classifier redacts it).
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  readonly status?: number
  readonly retryAfterMs?: number

  constructor(info: ProviderErrorInfo) {
    super(info.message)
    this.name = 'ProviderError'
    this.kind = info.kind
    if (info.status !== undefined) this.status = info.status
    if (info.retryAfterMs !== undefined) this.retryAfterMs = info.retryAfterMs
  }

  toJSON(): ProviderErrorInfo {
    const info: ProviderErrorInfo = { kind: this.kind, message: this.message }
    if (this.status !== undefined) info.status = this.status
    if (this.retryAfterMs !== undefined) info.retryAfterMs = this.retryAfterMs
    return info
  }
}
