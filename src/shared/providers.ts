/**
 * The provider layer's plain data and the settings schemas, shared by main (the provider
 * service), the IPC contract and the renderer. No behaviour beyond zod validation lives here;
 * the ProviderError class and the SDK clients stay in src/main/services/providers.
 * The API key travels renderer -> main once, in `apiKey`; nothing ever sends it back.
 */
import { z } from 'zod'
import type { ProviderMessage } from './context'

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

/**
 * Anthropic prompt-cache breakpoint, as the caching layout (main/context/promptCache.ts) places
 * it on a message. The layout omits `ttl` for the default five minutes, as Anthropic's API does.
 */
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
  /** The model asks for a tool; nothing runs it here (the tool loop asks the user first). */
  | { type: 'tool-call'; call: { id: string; name: string; arguments: string } }

export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'network'
  | 'timeout'
  | 'context_length'
  | 'server'
  | 'bad_response'
  | 'invalid_request'
  | 'aborted'

/** A ProviderError as plain data, for IPC and storage. */
export interface ProviderErrorInfo {
  kind: ProviderErrorKind
  message: string
  status?: number
  retryAfterMs?: number
}

/** The outcome of "Test connection" (a tiny completion, or the model list). */
export type ConnectionTestResult =
  | {
      ok: true
      latencyMs: number
      method: 'completion' | 'models'
      modelId: string | null
      models: string[] | null
    }
  | {
      ok: false
      latencyMs: number
      method: 'completion' | 'models'
      modelId: string | null
      error: ProviderErrorInfo
    }

export interface OllamaModel {
  name: string
  sizeBytes: number | null
  family: string | null
  parameterSize: string | null
  quantization: string | null
}

export type OllamaDetection =
  | { found: true; baseUrl: string; models: OllamaModel[] }
  | { found: false; baseUrl: string; reason: 'not_running' | 'timeout' | 'not_ollama' }

/** The built-in table of well-known models, dated (prices change). */
export interface ProviderCatalogView {
  date: string
  models: Record<ProviderKind, ModelRecord[]>
}

/** Usage summed over replies (a thread's total), as `sumUsage` computes it. */
export interface UsageTotals extends ChatUsage {
  /** Replies counted. */
  replies: number
  /** Sum of the known costs; null when no reply had a known cost. */
  cost: number | null
  /** Replies whose cost is unknown (the total then understates what was spent). */
  unpricedReplies: number
}

/** Which provider and model a thread (or the global default) chats with. */
export interface ModelRef {
  providerId: string
  modelId: string
}

// ---- Settings input (zod) ------------------------------------------------------------

const Price = z
  .number()
  .nonnegative({ message: 'A price cannot be negative' })
  .max(10_000, { message: 'A price above $10,000 per million tokens is a typo' })

/** A model as the user configures it; omitted numbers come from the built-in table. */
const ModelInputSchema = z
  .strictObject({
    id: z
      .string()
      .trim()
      .min(1, { message: 'Model id is empty' })
      .max(200, { message: 'Model id is longer than 200 characters' }),
    contextWindow: z.number().int().min(512).max(20_000_000).optional(),
    maxOutput: z.number().int().min(1).max(2_000_000).optional(),
    inputPrice: Price.optional(),
    outputPrice: Price.optional(),
    cacheReadPrice: Price.optional(),
    cacheWritePrice: Price.optional()
  })
  .refine(
    (m) =>
      m.maxOutput === undefined || m.contextWindow === undefined || m.maxOutput < m.contextWindow,
    {
      message: 'Max output must be smaller than the context window',
      path: ['maxOutput']
    }
  )
export type ModelInput = z.infer<typeof ModelInputSchema>

const BaseUrl = z
  .url({ protocol: /^https?$/, message: 'Base URL must be an http(s) URL' })
  .max(2_000)
  .transform((url) => url.replace(/\/+$/, ''))

const ApiKey = z
  .string()
  .trim()
  .min(1, { message: 'API key is empty' })
  .max(1_000, { message: 'API key is longer than 1,000 characters' })
  .refine((key) => !/\s/.test(key), { message: 'API key contains whitespace' })

const Name = z
  .string()
  .trim()
  .min(1, { message: 'Name is empty' })
  .max(100, { message: 'Name is longer than 100 characters' })

const Models = z
  .array(ModelInputSchema)
  .max(500)
  .refine((models) => new Set(models.map((m) => m.id)).size === models.length, {
    message: 'The same model is listed twice'
  })

const needsBaseUrl = (input: { kind?: string; baseUrl?: string }) =>
  input.kind !== 'openai-compatible' || input.baseUrl !== undefined

/** providers.create */
export const ProviderInputSchema = z
  .strictObject({
    kind: z.enum(PROVIDER_KINDS),
    name: Name,
    baseUrl: BaseUrl.optional(),
    apiKey: ApiKey.optional(),
    models: Models.default([])
  })
  .refine(needsBaseUrl, {
    message: 'An OpenAI-compatible provider needs a base URL',
    path: ['baseUrl']
  })
export type ProviderInput = z.infer<typeof ProviderInputSchema>

/**
 * providers.update: every field optional. `apiKey: null` removes the stored key, an absent
 * `apiKey` keeps it; `baseUrl: null` returns to the provider's default endpoint.
 */
export const ProviderPatchSchema = z.strictObject({
  name: Name.optional(),
  baseUrl: BaseUrl.nullable().optional(),
  apiKey: ApiKey.nullable().optional(),
  models: Models.optional()
})
export type ProviderPatch = z.infer<typeof ProviderPatchSchema>
