import { useTranslation } from 'react-i18next'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { ModelOptions } from './ModelOptions'
import { modelOptionValue, parseModelOptionValue } from './modelOptionValue'
import { useProvidersStore } from './providersStore'

/** The model new threads (and threads without their own) chat with, among all providers' models. */
export function DefaultModelSelect() {
  const { t } = useTranslation()
  const providers = useProvidersStore((state) => state.providers)
  const defaultModel = useSettingsStore((state) => state.settings.defaultModel)
  const setDefaultModel = useSettingsStore((state) => state.setDefaultModel)

  return (
    <label className="providers__field providers__field--inline">
      <span>{t('providers.defaultModel')}</span>
      <select
        data-testid="default-model-select"
        value={modelOptionValue(defaultModel)}
        onChange={(event) => void setDefaultModel(parseModelOptionValue(event.target.value))}
      >
        <option value="">{t('providers.noDefault')}</option>
        <ModelOptions providers={providers} />
      </select>
    </label>
  )
}
