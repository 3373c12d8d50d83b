import type { ModelRef, ProviderView } from '@shared/providers'
import { modelOfThread } from '@shared/threadSettings'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { selectSelectedThread, useThreadsStore } from '@renderer/features/threads/threadsStore'

/** As main's ModelResolver.targetFor: the thread's own model, else the default, if its provider exists. */
function answeringModel(
  own: ModelRef | null,
  defaultModel: ModelRef | null,
  providers: readonly ProviderView[]
): ModelRef | null {
  return (
    [own, defaultModel].find(
      (ref) => ref && providers.some((provider) => provider.id === ref.providerId)
    ) ?? null
  )
}

/**
 * Whether a message sent in the open thread gets a reply: 'unknown' until the providers are
 * loaded (so no notice flashes at start-up), then the model that will answer, or 'none'.
 */
export function useAnsweringModel(threadId: string): ModelRef | 'none' | 'unknown' {
  const loaded = useProvidersStore((state) => state.loaded)
  const providers = useProvidersStore((state) => state.providers)
  const defaultModel = useSettingsStore((state) => state.settings.defaultModel)
  const thread = useThreadsStore(selectSelectedThread)
  if (!loaded) return 'unknown'
  const own = modelOfThread(thread?.id === threadId ? thread.settings : undefined)
  return answeringModel(own, defaultModel, providers) ?? 'none'
}
