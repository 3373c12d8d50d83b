import { useTranslation } from 'react-i18next'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { useProvidersStore } from './providersStore'

/** The model new threads (and threads without their own) chat with, among all providers' models. */
export function DefaultModelSelect() {
  const { t } = useTranslation()
  const providers = useProvidersStore((state) => state.providers)
  const defaultModel = useSettingsStore((state) => state.settings.defaultModel)
  const setDefaultModel = useSettingsStore((state) => state.setDefaultModel)

  const allModels = providers.flatMap((provider) =>
    provider.models.map((model) => ({ provider, model }))
  )
  const value = defaultModel ? `${defaultModel.providerId}\u0000${defaultModel.modelId}` : ''

  return (
    <label className="providers__field providers__field--inline">
      <span>{t('providers.defaultModel')}</span>
      <select
        data-testid="default-model-select"
        value={value}
        onChange={(event) => {
          const [providerId, modelId] = event.target.value.split('\u0000')
          void setDefaultModel(providerId && modelId ? { providerId, modelId } : null)
        }}
      >
        <option value="">{t('providers.noDefault')}</option>
        {allModels.map(({ provider, model }) => (
          <option key={`${provider.id}/${model.id}`} value={`${provider.id}\u0000${model.id}`}>
            {provider.name} · {model.id}
          </option>
        ))}
      </select>
    </label>
  )
}
