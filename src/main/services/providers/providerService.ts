/**
 * The configured providers: records in the settings table (without keys), keys in the
 * SecretStore, and the views the settings UI receives (with `hasApiKey` and a masked hint,
 * never the key). The chat path asks `resolve` for a provider, its model and the decrypted key
 * for one call.
 */
import { randomUUID } from 'node:crypto'
import type { ProviderCatalogView } from '@shared/providers'
import { AppError } from '@shared/result'
import {
  CATALOG_DATE,
  catalogFor,
  defaultModelRecord,
  resolveModel,
  type ResolvedModel
} from './catalog'
import { listModels, testConnection, type ConnectionTestResult } from './connectionTest'
import { detectOllama, type OllamaDetection } from './ollamaDetector'
import { warmUpProviderKind } from './providerWarmUp'
import type { ModelInput, ProviderInput, ProviderPatch } from './schema'
import { SecretStoreError, type KeyValueStore, type SecretStore } from './secretStore'
import {
  PROVIDER_KINDS,
  type ModelRecord,
  type ProviderKind,
  type ProviderRecord,
  type ProviderView
} from './types'

/** The settings key holding ProviderRecord[] (no secrets in it). */
const PROVIDERS_KEY = 'providers.v1'

export type { ProviderCatalogView } from '@shared/providers'

export interface ResolvedProvider {
  provider: ProviderRecord
  model: ResolvedModel
  /** Decrypted for this call only; undefined for keyless servers. */
  apiKey: string | undefined
}

export interface ProviderServiceDeps {
  settings: KeyValueStore
  secrets: SecretStore
  newId?: () => string
  /** Told after every change so the renderer can refresh (`providers:changed`). */
  changed?: (providerId: string) => void
  /** Replaced in tests to point at a scripted server. */
  detect?: () => Promise<OllamaDetection>
}

/** A provider as the renderer may see it: `hasApiKey` and a masked hint, never the key. */
function describeProvider(record: ProviderRecord, secrets: SecretStore): ProviderView {
  const { apiKeyRef, ...rest } = record
  const hasApiKey = apiKeyRef !== undefined && secrets.has(apiKeyRef)
  return {
    ...rest,
    models: rest.models.map((m) => ({ ...m })),
    hasApiKey,
    apiKeyHint: hasApiKey && apiKeyRef ? secrets.hint(apiKeyRef) : null
  }
}

const keyRef = (providerId: string) => `provider:${providerId}:apiKey`

/** The user's values over the table's: whatever the user left out comes from the catalog. */
function completeModels(kind: ProviderKind, models: readonly ModelInput[]): ModelRecord[] {
  return models.map((input) => {
    const record: ModelRecord = { ...defaultModelRecord(kind, input.id) }
    for (const [field, value] of Object.entries(input)) {
      if (value !== undefined) (record as unknown as Record<string, unknown>)[field] = value
    }
    if (record.maxOutput >= record.contextWindow)
      record.maxOutput = Math.floor(record.contextWindow / 4)
    return record
  })
}

export class ProviderService {
  private readonly newId: () => string

  constructor(private readonly deps: ProviderServiceDeps) {
    this.newId = deps.newId ?? randomUUID
  }

  list(): ProviderView[] {
    return this.read().map((record) => describeProvider(record, this.deps.secrets))
  }

  /**
   * Readies the request code of every provider kind in use, in the background after start-up
   * (providerWarmUp.ts): no request leaves the machine. Never throws; resolves with the kinds
   * whose code ran.
   */
  async warmUp(log: (message: string, error: unknown) => void): Promise<ProviderKind[]> {
    const warmed: ProviderKind[] = []
    for (const kind of new Set(this.read().map((record) => record.kind))) {
      try {
        await warmUpProviderKind(kind)
        warmed.push(kind)
      } catch (error) {
        log(`warming up the ${kind} request code failed; the first send will be slower`, error)
      }
    }
    return warmed
  }

  hasAnyProvider(): boolean {
    return this.read().length > 0
  }

  get(id: string): ProviderView {
    return describeProvider(this.record(id), this.deps.secrets)
  }

  catalog(): ProviderCatalogView {
    const models = Object.fromEntries(PROVIDER_KINDS.map((kind) => [kind, catalogFor(kind)]))
    return { date: CATALOG_DATE, models: models as Record<ProviderKind, ModelRecord[]> }
  }

  /**
   * A provider starts with the models the input lists (none is fine): the settings then offer
   * the provider's own list, one click per model, rather than the catalog's sixty OpenAI ids.
   */
  create(input: ProviderInput): ProviderView {
    if (input.apiKey !== undefined) this.requireEncryption()
    const id = this.newId()
    const models = completeModels(input.kind, input.models)
    const record: ProviderRecord = { id, kind: input.kind, name: input.name, models }
    if (input.baseUrl !== undefined) record.baseUrl = input.baseUrl
    if (input.apiKey !== undefined) {
      this.storeKey(id, input.apiKey)
      record.apiKeyRef = keyRef(id)
    }
    this.write([...this.read(), record])
    this.deps.changed?.(id)
    return describeProvider(record, this.deps.secrets)
  }

  update(id: string, patch: ProviderPatch): ProviderView {
    const records = this.read()
    const index = records.findIndex((r) => r.id === id)
    const current = records[index]
    if (!current) throw new AppError('not_found', 'This provider no longer exists.')
    if (typeof patch.apiKey === 'string') this.requireEncryption()
    const next: ProviderRecord = { ...current }
    if (patch.name !== undefined) next.name = patch.name
    if (patch.baseUrl === null) {
      if (current.kind === 'openai-compatible') {
        throw new AppError('invalid_input', 'An OpenAI-compatible provider needs a base URL.')
      }
      delete next.baseUrl
    } else if (patch.baseUrl !== undefined) next.baseUrl = patch.baseUrl
    if (patch.models !== undefined) next.models = completeModels(current.kind, patch.models)
    if (patch.apiKey === null) {
      this.deps.secrets.delete(keyRef(id))
      delete next.apiKeyRef
    } else if (patch.apiKey !== undefined) {
      this.storeKey(id, patch.apiKey)
      next.apiKeyRef = keyRef(id)
    }
    records[index] = next
    this.write(records)
    this.deps.changed?.(id)
    return describeProvider(next, this.deps.secrets)
  }

  remove(id: string): void {
    const records = this.read()
    if (!records.some((r) => r.id === id))
      throw new AppError('not_found', 'This provider no longer exists.')
    this.deps.secrets.delete(keyRef(id))
    this.write(records.filter((r) => r.id !== id))
    this.deps.changed?.(id)
  }

  /** The provider and model without the key (for building a request); null when gone. */
  describeModel(
    providerId: string,
    modelId: string
  ): { provider: ProviderRecord; model: ResolvedModel } | null {
    const provider = this.read().find((r) => r.id === providerId)
    return provider ? { provider, model: resolveModel(provider, modelId) } : null
  }

  /** Everything one chat call needs. Throws AppError for a missing provider or unreadable key. */
  resolve(providerId: string, modelId: string): ResolvedProvider {
    const provider = this.record(providerId)
    return { provider, model: resolveModel(provider, modelId), apiKey: this.readKey(provider) }
  }

  /** A saved provider, or a draft from the settings form before it is saved. */
  async test(
    target: { id: string } | { draft: ProviderInput },
    modelId?: string
  ): Promise<ConnectionTestResult> {
    let provider: ProviderRecord
    let apiKey: string | undefined
    if ('id' in target) {
      provider = this.record(target.id)
      apiKey = this.readKey(provider)
    } else {
      const { draft } = target
      provider = {
        id: 'draft',
        kind: draft.kind,
        name: draft.name,
        models: completeModels(draft.kind, draft.models)
      }
      if (draft.baseUrl !== undefined) provider.baseUrl = draft.baseUrl
      apiKey = draft.apiKey
    }
    return testConnection({
      provider,
      ...(apiKey !== undefined && { apiKey }),
      ...(modelId !== undefined && { modelId })
    })
  }

  /** The ids the provider serves (its /models or /api/tags), for "add model" pickers. */
  listRemoteModels(id: string): Promise<string[]> {
    const provider = this.record(id)
    return listModels(provider, this.readKey(provider))
  }

  /** The settings page warns before the user types a key that could not be saved. */
  encryptionAvailable(): boolean {
    return this.deps.secrets.isEncryptionAvailable()
  }

  detectOllama(): Promise<OllamaDetection> {
    return (this.deps.detect ?? detectOllama)()
  }

  private record(id: string): ProviderRecord {
    const record = this.read().find((r) => r.id === id)
    if (!record) throw new AppError('not_found', 'This provider no longer exists.')
    return record
  }

  private readKey(provider: ProviderRecord): string | undefined {
    if (provider.apiKeyRef === undefined) return undefined
    try {
      return this.deps.secrets.get(provider.apiKeyRef) ?? undefined
    } catch (error) {
      if (error instanceof SecretStoreError) throw new AppError('storage_error', error.message)
      throw error
    }
  }

  private requireEncryption(): void {
    if (!this.deps.secrets.isEncryptionAvailable()) {
      throw new AppError(
        'storage_error',
        'This system offers no encrypted storage for API keys (on Linux, a running keyring is needed: GNOME Keyring, KWallet, or KeePassXC with its Secret Service turned on), so the key was not saved.'
      )
    }
  }

  private storeKey(providerId: string, apiKey: string): void {
    try {
      this.deps.secrets.set(keyRef(providerId), apiKey)
    } catch (error) {
      if (error instanceof SecretStoreError) throw new AppError('storage_error', error.message)
      throw error
    }
  }

  private read(): ProviderRecord[] {
    const value = this.deps.settings.get(PROVIDERS_KEY)
    return Array.isArray(value) ? (value as ProviderRecord[]) : []
  }

  private write(records: ProviderRecord[]): void {
    this.deps.settings.set(PROVIDERS_KEY, records)
  }
}
