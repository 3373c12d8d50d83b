import { create } from 'zustand'
import type {
  ConnectionTestResult,
  OllamaDetection,
  ProviderCatalogView,
  ProviderErrorInfo,
  ProviderInput,
  ProviderKind,
  ProviderPatch,
  ProviderView
} from '@shared/providers'
import { ApiError, call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'

/** The ids a saved provider serves, or why it could not say (its own words when it answered). */
export type RemoteModels =
  { ok: true; models: string[] } | { ok: false; error: ProviderErrorInfo | null; message: string }

interface ProvidersState {
  /** Whether the settings page is open. */
  open: boolean
  /** A new provider of this kind to start on when the page opens (the welcome's choice). */
  requestedKind: ProviderKind | null
  providers: ProviderView[]
  catalog: ProviderCatalogView | null
  /** Whether keys can be stored encrypted; null until asked. */
  encryptionAvailable: boolean | null
  ollama: OllamaDetection | null
  loaded: boolean
  error: string | null

  show(): void
  /** Opens the settings on a new provider of `kind`. */
  showNew(kind: ProviderKind): void
  /** The page took the requested kind. */
  takeRequestedKind(): ProviderKind | null
  hide(): void
  load(): Promise<void>
  /** Keeps the list in step with main; returns the unsubscribe. */
  watch(): () => void
  create(input: ProviderInput): Promise<ProviderView | null>
  update(id: string, patch: ProviderPatch): Promise<ProviderView | null>
  remove(id: string): Promise<boolean>
  test(
    target: { id: string } | { draft: ProviderInput },
    modelId?: string
  ): Promise<ConnectionTestResult | null>
  detectOllama(): Promise<OllamaDetection | null>
  /** Asks the provider itself which models it serves (its /models or /api/tags). */
  listRemoteModels(id: string): Promise<RemoteModels>
  dismissError(): void
}

export const useProvidersStore = create<ProvidersState>()((set, get) => {
  // Every change both answers its caller and sends `providers:changed`, so lists overlap:
  // only the newest one is shown.
  const listing = latestRequest()
  const refresh = async () => {
    const ticket = listing.start()
    try {
      const providers = await call(window.api.providers.list())
      if (ticket.isLatest()) set({ providers })
    } catch (error) {
      if (ticket.isLatest()) set({ error: describeError(error) })
    }
  }
  const attempt = async <T>(run: () => Promise<T>): Promise<T | null> => {
    set({ error: null })
    try {
      return await run()
    } catch (error) {
      set({ error: describeError(error) })
      return null
    }
  }

  return {
    open: false,
    requestedKind: null,
    providers: [],
    catalog: null,
    encryptionAvailable: null,
    ollama: null,
    loaded: false,
    error: null,

    show() {
      set({ open: true })
      void get().load()
    },
    showNew(kind) {
      set({ requestedKind: kind })
      get().show()
    },
    takeRequestedKind() {
      const kind = get().requestedKind
      if (kind) set({ requestedKind: null })
      return kind
    },
    hide: () => set({ open: false, error: null }),

    async load() {
      const ticket = listing.start()
      await attempt(async () => {
        const [providers, catalog, encryption] = await Promise.all([
          call(window.api.providers.list()),
          call(window.api.providers.catalog()),
          call(window.api.providers.encryptionStatus())
        ])
        set({
          ...(ticket.isLatest() && { providers }),
          catalog,
          encryptionAvailable: encryption.available,
          loaded: true
        })
      })
    },

    watch() {
      return window.api.on('providers:changed', () => void refresh())
    },

    create: (input) =>
      attempt(async () => {
        const created = await call(window.api.providers.create(input))
        await refresh()
        return created
      }),

    update: (id, patch) =>
      attempt(async () => {
        const updated = await call(window.api.providers.update({ id, patch }))
        await refresh()
        return updated
      }),

    async remove(id) {
      const done = await attempt(async () => {
        await call(window.api.providers.remove({ id }))
        await refresh()
        return true
      })
      return done === true
    },

    test: (target, modelId) =>
      attempt(() =>
        call(
          window.api.providers.test(
            'id' in target
              ? { id: target.id, ...(modelId && { modelId }) }
              : { draft: target.draft, ...(modelId && { modelId }) }
          )
        )
      ),

    detectOllama: () =>
      attempt(async () => {
        const ollama = await call(window.api.providers.detectOllama())
        set({ ollama })
        return ollama
      }),

    async listRemoteModels(id) {
      try {
        return { ok: true, models: await call(window.api.providers.listRemoteModels({ id })) }
      } catch (error) {
        const provider = error instanceof ApiError ? (error.provider ?? null) : null
        return { ok: false, error: provider, message: describeError(error) }
      }
    },

    dismissError: () => set({ error: null })
  }
})
