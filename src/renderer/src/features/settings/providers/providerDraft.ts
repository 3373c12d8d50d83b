import type {
  ModelInput,
  OllamaDetection,
  ProviderInput,
  ProviderKind,
  ProviderView
} from '@shared/providers'

/** One editable model line; numbers stay text so a half-typed value is not rejected. */
export interface ModelRow {
  id: string
  contextWindow: string
  maxOutput: string
}

/** What the provider form edits, before it becomes a `ProviderInput`. */
export interface Draft {
  /** null while adding a new provider. */
  providerId: string | null
  kind: ProviderKind
  name: string
  baseUrl: string
  apiKey: string
  models: ModelRow[]
}

/** A detection that found a running Ollama, the only kind that can be offered as a provider. */
export type FoundOllama = Extract<OllamaDetection, { found: true }>

export const KIND_NAMES: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
  ollama: 'Ollama'
}

export const emptyDraft = (kind: ProviderKind = 'openai-compatible'): Draft => ({
  providerId: null,
  kind,
  name: '',
  baseUrl: '',
  apiKey: '',
  models: []
})

export const draftOf = (provider: ProviderView): Draft => ({
  providerId: provider.id,
  kind: provider.kind,
  name: provider.name,
  baseUrl: provider.baseUrl ?? '',
  apiKey: '',
  models: provider.models.map((model) => ({
    id: model.id,
    contextWindow: String(model.contextWindow),
    maxOutput: String(model.maxOutput)
  }))
})

/** A new Ollama provider with every model the detection listed. */
export const ollamaDraftOf = (ollama: FoundOllama): Draft => ({
  ...emptyDraft('ollama'),
  name: 'Ollama',
  // The address that answered, not an assumed default: the provider talks to what was found.
  baseUrl: ollama.baseUrl,
  models: ollama.models.map((model) => ({
    id: model.name,
    contextWindow: '8192',
    maxOutput: '2048'
  }))
})

const toNumber = (text: string): number | undefined => {
  const value = Number(text.replace(/[,\s]/g, ''))
  return text.trim() !== '' && Number.isFinite(value) ? Math.round(value) : undefined
}

export const modelsOf = (draft: Draft): ModelInput[] =>
  draft.models
    .filter((row) => row.id.trim() !== '')
    .map((row) => {
      const contextWindow = toNumber(row.contextWindow)
      const maxOutput = toNumber(row.maxOutput)
      return {
        id: row.id.trim(),
        ...(contextWindow !== undefined && { contextWindow }),
        ...(maxOutput !== undefined && { maxOutput })
      }
    })

export const inputOf = (draft: Draft): ProviderInput => ({
  kind: draft.kind,
  name: draft.name.trim() || KIND_NAMES[draft.kind],
  ...(draft.baseUrl.trim() && { baseUrl: draft.baseUrl.trim() }),
  ...(draft.apiKey.trim() && { apiKey: draft.apiKey.trim() }),
  models: modelsOf(draft)
})
