import { useState, type FormEvent } from 'react'
import type { ConnectionTestResult, ProviderView } from '@shared/providers'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
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
    if (result) {
      setDraft(draftOf(result))
      setSaved(true)
    }
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

  /** A saved provider's own model list (with its stored key), offered in the model id field. */
  const fetchModels = async () => {
    if (!draft.providerId) return
    setBusy('models')
    setRemoteModels(null)
    setRemoteModels(await store.listRemoteModels(draft.providerId))
    setBusy(null)
  }

  const detectOllama = async () => {
    setBusy('detect')
    await store.detectOllama()
    setBusy(null)
  }

  const remove = async () => {
    if (!draft.providerId) return
    if (await store.remove(draft.providerId)) {
      const { settings, setDefaultModel } = useSettingsStore.getState()
      if (settings.defaultModel?.providerId === draft.providerId) void setDefaultModel(null)
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
    startNew: () => replaceDraft(emptyDraft()),
    addOllama: (ollama: FoundOllama) => replaceDraft(ollamaDraftOf(ollama)),
    save,
    test,
    fetchModels,
    detectOllama,
    remove
  }
}
