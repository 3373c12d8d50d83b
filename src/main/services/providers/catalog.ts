/**
 * What the app knows about a model before the user says otherwise: context window, output
 * limit and prices, from the maintained offline catalog `@pydantic/genai-prices` (updated with
 * each release; docs/PROVIDERS.md says why this package). The user's values on the provider
 * record always win; a model the catalog does not know gets a guessed window, and says so.
 * Prices are US dollars per million tokens; a missing price means "unknown", never "free".
 */
import { calcPrice, findProvider } from '@pydantic/genai-prices'
import { defaultOutputReserve, describeModel } from '../../context/modelCatalog'
import type { ModelRecord, ProviderKind, ProviderRecord } from './types'

/** The catalog release the app ships (0.1.8); prices change, so the UI shows it by them. */
export const CATALOG_DATE = '2026-09-23'

type CatalogEntry = Omit<ModelRecord, 'id'>

/** Where the catalog keeps the models a provider kind serves; OpenAI-compatible: any of these. */
const CATALOG_PROVIDERS: Record<ProviderKind, readonly string[]> = {
  openai: ['openai'],
  anthropic: ['anthropic'],
  'openai-compatible': ['openai', 'anthropic', 'google', 'deepseek', 'mistral', 'x-ai', 'groq'],
  ollama: []
}

/**
 * Local models run free. Their window here is the num_ctx the app asks Ollama to allocate,
 * deliberately far below what the models support (llama3.x: 128K): the KV cache for a full
 * window needs more memory than most machines have. Raise it per model in settings.
 */
const LOCAL_WINDOW = 8_192
const LOCAL: CatalogEntry = {
  contextWindow: LOCAL_WINDOW,
  maxOutput: 4_096,
  inputPrice: 0,
  outputPrice: 0
}

/** A tiered price (long prompts cost more) is read at its base: the app's requests rarely reach a tier. */
const base = (price: unknown): number | undefined => {
  if (typeof price === 'number') return price
  const tiered = (price as { base?: unknown } | undefined)?.base
  return typeof tiered === 'number' ? tiered : undefined
}

/** The catalog's prices and window as our record; null without a window or input/output prices. */
function entryOf(
  contextWindow: number | undefined,
  prices: Record<string, unknown>
): CatalogEntry | null {
  const inputPrice = base(prices['input_mtok'])
  const outputPrice = base(prices['output_mtok'])
  if (!contextWindow || inputPrice === undefined || outputPrice === undefined) return null
  const cacheReadPrice = base(prices['cache_read_mtok'])
  const cacheWritePrice = base(prices['cache_write_mtok'])
  return {
    contextWindow,
    // The catalog has no output limits: the reply gets the reserve the builder keeps for it.
    maxOutput: defaultOutputReserve(contextWindow),
    inputPrice,
    outputPrice,
    ...(cacheReadPrice !== undefined && { cacheReadPrice }),
    ...(cacheWritePrice !== undefined && { cacheWritePrice })
  }
}

/**
 * The catalog's own matcher resolves dated snapshots ("gpt-4o-2024-08-06"), aliases, and prices
 * that changed on a date (the ones in effect today).
 */
function catalogEntry(modelId: string, providerId: string): CatalogEntry | null {
  const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, modelId, { providerId })
  return found && entryOf(found.model.context_window, found.model_price)
}

/** "openai/gpt-4o" (OpenRouter) and "claude-sonnet-4.5" as the catalog names them. */
function candidates(modelId: string): string[] {
  const id = modelId.trim().toLowerCase()
  const bare = id.slice(id.lastIndexOf('/') + 1)
  // Anthropic ids use dashes where OpenRouter writes dots ("claude-sonnet-4.5").
  const dashed = bare.startsWith('claude-') ? bare.replace(/\./g, '-') : bare
  return [...new Set([id, bare, dashed])]
}

/** The catalog's values for a model, or null when it does not know it. */
export function lookupModel(kind: ProviderKind, modelId: string): ModelRecord | null {
  if (kind === 'ollama') return { id: modelId, ...LOCAL }
  for (const providerId of CATALOG_PROVIDERS[kind]) {
    for (const name of candidates(modelId)) {
      const entry = catalogEntry(name, providerId)
      if (entry) return { id: modelId, ...entry }
    }
  }
  return null
}

/** A model the user just added: the catalog's values, or a guessed window from the context core. */
export function defaultModelRecord(kind: ProviderKind, modelId: string): ModelRecord {
  const known = lookupModel(kind, modelId)
  if (known) return known
  const { contextWindow } = describeModel(modelId)
  return { id: modelId, contextWindow, maxOutput: Math.min(8_192, Math.floor(contextWindow / 4)) }
}

export interface ResolvedModel extends ModelRecord {
  /** Where the values came from: the provider record (user), the catalog, or a guess. */
  source: 'provider' | 'catalog' | 'fallback'
}

/** The model as a call uses it: the provider's record wins, then the catalog, then a guess. */
export function resolveModel(provider: ProviderRecord, modelId: string): ResolvedModel {
  const record = provider.models.find((m) => m.id === modelId)
  if (record) return { ...record, source: 'provider' }
  const known = lookupModel(provider.kind, modelId)
  if (known) return { ...known, source: 'catalog' }
  return { ...defaultModelRecord(provider.kind, modelId), source: 'fallback' }
}

/**
 * The models the catalog knows for a kind, offered as ids when a model is added and used to
 * tell a known model from a guessed one. Ollama's are whatever the local server has.
 */
export function catalogFor(kind: ProviderKind): ModelRecord[] {
  const seen = new Set<string>()
  const models: ModelRecord[] = []
  for (const providerId of CATALOG_PROVIDERS[kind]) {
    for (const model of findProvider({ providerId })?.models ?? []) {
      if (seen.has(model.id) || model.deprecated) continue
      const entry = catalogEntry(model.id, providerId)
      if (!entry) continue
      seen.add(model.id)
      models.push({ id: model.id, ...entry })
    }
  }
  return models
}
