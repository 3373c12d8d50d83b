import type { ModelRef, ProviderView } from './providers'

/**
 * The default model after the providers changed: kept while it names a model some provider
 * lists, else the first listed model (so the first model a newcomer adds answers at once, and
 * removing the default's provider falls back to another one), else none.
 */
export function adoptedDefaultModel(
  current: ModelRef | null,
  providers: readonly ProviderView[]
): ModelRef | null {
  const listed = providers.flatMap((provider) =>
    provider.models.map((model) => ({ providerId: provider.id, modelId: model.id }))
  )
  const kept = current
    ? listed.find((ref) => ref.providerId === current.providerId && ref.modelId === current.modelId)
    : undefined
  return kept ?? listed[0] ?? null
}
