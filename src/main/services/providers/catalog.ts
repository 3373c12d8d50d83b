/**
 * Well-known models: context window, maximum output and prices, the defaults the settings UI
 * offers when a model is added. Users override any value per provider (the record wins), and
 * models not listed here get the context core's fallback window. Prices are US dollars per
 * million tokens; a missing price means "unknown", never "free".
 */
import { describeModel } from '../../context/modelCatalog'
import type { ModelRecord, ProviderKind, ProviderRecord } from './types'

/** When this table was written; prices change, so the UI shows the date next to them. */
export const CATALOG_DATE = '2026-11-21'

type CatalogEntry = Omit<ModelRecord, 'id'>

const OPENAI: Record<string, CatalogEntry> = {
  'gpt-4o': {
    contextWindow: 128_000,
    maxOutput: 16_384,
    inputPrice: 2.5,
    cacheReadPrice: 1.25,
    outputPrice: 10
  },
  'gpt-4o-mini': {
    contextWindow: 128_000,
    maxOutput: 16_384,
    inputPrice: 0.15,
    cacheReadPrice: 0.075,
    outputPrice: 0.6
  },
  'gpt-4.1': {
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    inputPrice: 2,
    cacheReadPrice: 0.5,
    outputPrice: 8
  },
  'gpt-4.1-mini': {
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    inputPrice: 0.4,
    cacheReadPrice: 0.1,
    outputPrice: 1.6
  },
  'gpt-4.1-nano': {
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    inputPrice: 0.1,
    cacheReadPrice: 0.025,
    outputPrice: 0.4
  },
  o3: {
    contextWindow: 200_000,
    maxOutput: 100_000,
    inputPrice: 2,
    cacheReadPrice: 0.5,
    outputPrice: 8
  },
  'o4-mini': {
    contextWindow: 200_000,
    maxOutput: 100_000,
    inputPrice: 1.1,
    cacheReadPrice: 0.275,
    outputPrice: 4.4
  },
  'gpt-5': {
    contextWindow: 400_000,
    maxOutput: 128_000,
    inputPrice: 1.25,
    cacheReadPrice: 0.125,
    outputPrice: 10
  },
  'gpt-5-mini': {
    contextWindow: 400_000,
    maxOutput: 128_000,
    inputPrice: 0.25,
    cacheReadPrice: 0.025,
    outputPrice: 2
  },
  'gpt-5-nano': {
    contextWindow: 400_000,
    maxOutput: 128_000,
    inputPrice: 0.05,
    cacheReadPrice: 0.005,
    outputPrice: 0.4
  }
}

// Cache writes are priced for the default 5-minute TTL (1.25x input); 1-hour writes cost 2x.
const ANTHROPIC: Record<string, CatalogEntry> = {
  'claude-opus-4-5': {
    contextWindow: 200_000,
    maxOutput: 64_000,
    inputPrice: 5,
    cacheWritePrice: 6.25,
    cacheReadPrice: 0.5,
    outputPrice: 25
  },
  'claude-opus-4-1': {
    contextWindow: 200_000,
    maxOutput: 32_000,
    inputPrice: 15,
    cacheWritePrice: 18.75,
    cacheReadPrice: 1.5,
    outputPrice: 75
  },
  'claude-opus-4-0': {
    contextWindow: 200_000,
    maxOutput: 32_000,
    inputPrice: 15,
    cacheWritePrice: 18.75,
    cacheReadPrice: 1.5,
    outputPrice: 75
  },
  'claude-sonnet-4-5': {
    contextWindow: 200_000,
    maxOutput: 64_000,
    inputPrice: 3,
    cacheWritePrice: 3.75,
    cacheReadPrice: 0.3,
    outputPrice: 15
  },
  'claude-sonnet-4-0': {
    contextWindow: 200_000,
    maxOutput: 64_000,
    inputPrice: 3,
    cacheWritePrice: 3.75,
    cacheReadPrice: 0.3,
    outputPrice: 15
  },
  'claude-haiku-4-5': {
    contextWindow: 200_000,
    maxOutput: 64_000,
    inputPrice: 1,
    cacheWritePrice: 1.25,
    cacheReadPrice: 0.1,
    outputPrice: 5
  }
}

// DeepSeek (OpenAI-compatible at https://api.deepseek.com): cache hits are the read price.
const DEEPSEEK: Record<string, CatalogEntry> = {
  'deepseek-chat': {
    contextWindow: 128_000,
    maxOutput: 8_192,
    inputPrice: 0.28,
    cacheReadPrice: 0.028,
    outputPrice: 0.42
  },
  'deepseek-reasoner': {
    contextWindow: 128_000,
    maxOutput: 65_536,
    inputPrice: 0.28,
    cacheReadPrice: 0.028,
    outputPrice: 0.42
  }
}

/**
 * Local models run free. Their window here is the num_ctx the app asks Ollama to allocate,
 * deliberately far below what the models support (llama3.x: 128K): the KV cache for a full
 * window needs more memory than most machines have. Raise it per model in settings.
 */
const LOCAL_WINDOW = 8_192
const local = (maxOutput = 4_096): CatalogEntry => ({
  contextWindow: LOCAL_WINDOW,
  maxOutput,
  inputPrice: 0,
  outputPrice: 0
})
const OLLAMA: Record<string, CatalogEntry> = {
  'llama3.1': local(),
  'llama3.2': local(),
  'llama3.3': local(),
  'qwen2.5': local(),
  qwen3: local(),
  gemma3: local(),
  'gpt-oss': local()
}

/** The table per provider kind; openai-compatible endpoints may serve any of them. */
export const BUILT_IN_MODELS: Readonly<
  Record<ProviderKind, Readonly<Record<string, CatalogEntry>>>
> = {
  openai: OPENAI,
  anthropic: ANTHROPIC,
  ollama: OLLAMA,
  'openai-compatible': { ...DEEPSEEK, ...OPENAI, ...ANTHROPIC }
}

/** Dated snapshots resolve to their family: "gpt-4o-2024-08-06", "claude-sonnet-4-5-20250929". */
const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/

/** "openai/gpt-4o" (OpenRouter), "claude-sonnet-4.5", "llama3.2:3b", "gpt-4o-2024-08-06". */
function candidates(modelId: string): string[] {
  const id = modelId.trim().toLowerCase()
  const bare = id.slice(id.lastIndexOf('/') + 1)
  const names = [id, bare, bare.replace(DATE_SUFFIX, ''), bare.split(':')[0] ?? bare]
  // Anthropic ids use dashes where OpenRouter writes dots ("claude-sonnet-4.5").
  if (bare.startsWith('claude-')) names.push(bare.replace(/\./g, '-'))
  // "claude-sonnet-4" is the same model as the "claude-sonnet-4-0" alias.
  if (/^claude-(opus|sonnet)-4$/.test(bare)) names.push(`${bare}-0`)
  return [...new Set(names)]
}

/** The built-in defaults for a model, or null when the table does not know it. */
export function lookupModel(kind: ProviderKind, modelId: string): ModelRecord | null {
  const table = BUILT_IN_MODELS[kind]
  for (const name of candidates(modelId)) {
    const entry = table[name]
    if (entry) return { id: modelId, ...entry }
  }
  return null
}

/** A model the user just added: the table's values, or the context core's fallback window. */
export function defaultModelRecord(kind: ProviderKind, modelId: string): ModelRecord {
  const known = lookupModel(kind, modelId)
  if (known) return known
  const contextWindow = kind === 'ollama' ? LOCAL_WINDOW : describeModel(modelId).contextWindow
  return { id: modelId, contextWindow, maxOutput: Math.min(8_192, Math.floor(contextWindow / 4)) }
}

export interface ResolvedModel extends ModelRecord {
  /** Where the values came from: the provider record (user), the table, or a guess. */
  source: 'provider' | 'catalog' | 'fallback'
}

/** The model as a call uses it: the provider's record wins, then the table, then a guess. */
export function resolveModel(provider: ProviderRecord, modelId: string): ResolvedModel {
  const record = provider.models.find((m) => m.id === modelId)
  if (record) return { ...record, source: 'provider' }
  const known = lookupModel(provider.kind, modelId)
  if (known) return { ...known, source: 'catalog' }
  return { ...defaultModelRecord(provider.kind, modelId), source: 'fallback' }
}

/** What the settings UI lists per kind when the user adds a provider. */
export function catalogFor(kind: ProviderKind): ModelRecord[] {
  return Object.entries(BUILT_IN_MODELS[kind]).map(([id, entry]) => ({ id, ...entry }))
}
