import type { ProviderView } from '@shared/providers'
import { modelOptionValue } from './modelOptionValue'

/** Every configured model as "provider · model", for the default and per-thread model pickers. */
export function ModelOptions({ providers }: { providers: readonly ProviderView[] }) {
  return providers.flatMap((provider) =>
    provider.models.map((model) => (
      <option
        key={`${provider.id}/${model.id}`}
        value={modelOptionValue({ providerId: provider.id, modelId: model.id })}
      >
        {provider.name} · {model.id}
      </option>
    ))
  )
}
