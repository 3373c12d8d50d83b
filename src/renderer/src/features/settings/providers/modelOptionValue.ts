import type { ModelRef } from '@shared/providers'

// A <select> value holds provider and model id joined by a character neither can contain.
const SEPARATOR = '\u0000'

export const modelOptionValue = (ref: ModelRef | null): string =>
  ref ? `${ref.providerId}${SEPARATOR}${ref.modelId}` : ''

export function parseModelOptionValue(value: string): ModelRef | null {
  const [providerId, modelId] = value.split(SEPARATOR)
  return providerId && modelId ? { providerId, modelId } : null
}
