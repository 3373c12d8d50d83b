import { useState, type FormEvent } from 'react'
import type { ConnectionTestResult, ProviderKind, ProviderView } from '@shared/providers'
import { useProvidersStore, type RemoteModels } from './providersStore'
import {
  draftOf,
  emptyDraft,
  inputOf,
  modelsOf,
  ollamaDraftOf,
  type Draft,
  type FoundOllama
} from './providerDraft'

/** The action in flight: any of them disables Test and Save; detection also its own button. */
export type EditorBusy = 'save' | 'test' | 'detect' | 'models' | null

export type ProviderEditor = ReturnType<typeof useProviderEditor>

/**
 * The provider being edited and what can be done with it. Held above the list and the form
 * because both change it: picking a provider or an Ollama offer replaces the draft.
 */
export function useProviderEditor() {
  const [draft, setDraft] = useState<Draft>(() => emptyDraft())
  const [testResult, setTestResult] = useState<ConnectionTestResult | null>(null)
  const [remoteModels, setRemoteModels] = useState<RemoteModels | null>(null)
  const [busy, setBusy] = useState<EditorBusy>(null)
  const [saved, setSaved] = useState(false)
  const store = useProvidersStore.getState()

  /** Starts editing another draft; the last one's test result and "saved" no longer apply. */
  const replaceDraft = (next: Draft) => {
    setDraft(next)
    setTestResult(null)
    setRemoteModels(null)
    setSaved(false)
  }

  const change = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }))
    setSaved(false)
  }

  const save = async (event?: FormEvent) => {
    event?.preventDefault()
    setBusy('save')
    const input = inputOf(draft)
    const result = draft.providerId
      ? await store.update(draft.providerId, {
          name: input.name,
          baseUrl: input.baseUrl ?? null,
          ...(input.apiKey && { apiKey: input.apiKey }),
          models: input.models
        })
      : await store.create(input)
    setBusy(null)
    if (!result) return
    setDraft(draftOf(result))
    setSaved(true)
    // A new provider's own list comes at once: its models are then one click from being added.
    if (!draft.providerId) await listModelsOf(result.id)
  }

  const listModelsOf = async (providerId: string) => {
    setBusy('models')
    setRemoteModels(null)
    setRemoteModels(await store.listRemoteModels(providerId))
    setBusy(null)
  }

  /** Adds one of the provider's listed models and saves at once; main fills in its limits. */
  const addRemoteModel = async (modelId: string) => {
    if (!draft.providerId) return
    setBusy('save')
    const result = await store.update(draft.providerId, {
      models: [...modelsOf(draft), { id: modelId }]
    })
    setBusy(null)
    if (result) setDraft(draftOf(result))
  }

  const test = async () => {
    setBusy('test')
    setTestResult(null)
    const modelId = modelsOf(draft)[0]?.id
    // A saved provider without a new key is tested with its stored key.
    const target =
      draft.providerId && !draft.apiKey.trim()
        ? { id: draft.providerId }
        : { draft: inputOf(draft) }
    setTestResult(await store.test(target, modelId))
    setBusy(null)
  }

  /** A saved provider's own model list (with its stored key), each one click from being added. */
  const fetchModels = async () => {
    if (draft.providerId) await listModelsOf(draft.providerId)
  }

  const detectOllama = async () => {
    setBusy('detect')
    await store.detectOllama()
    setBusy(null)
  }

  // Main moves the default off a removed provider (to another provider's model, or none).
  const remove = async () => {
    if (!draft.providerId) return
    if (await store.remove(draft.providerId)) {
      setDraft(emptyDraft())
      setTestResult(null)
      // "Saved" described the provider that is now gone.
      setSaved(false)
    }
  }

  return {
    draft,
    testResult,
    remoteModels,
    busy,
    saved,
    change,
    select: (provider: ProviderView) => replaceDraft(draftOf(provider)),
    startNew: (kind?: ProviderKind) => replaceDraft(emptyDraft(kind)),
    addOllama: (ollama: FoundOllama) => replaceDraft(ollamaDraftOf(ollama)),
    save,
    test,
    fetchModels,
    addRemoteModel,
    detectOllama,
    remove
  }
}
