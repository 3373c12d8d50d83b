import { useTranslation } from 'react-i18next'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { useSettingsStore } from './settingsStore'

/** A failed save has already been rolled back; this tells the user it did not stick, and why. */
export function SettingsError() {
  const { t } = useTranslation()
  const error = useSettingsStore((state) => state.error)
  const dismissError = useSettingsStore((state) => state.dismissError)
  if (!error) return null
  const key = error.kind === 'load' ? 'settings.loadFailed' : 'settings.saveFailed'
  return <ErrorBanner onDismiss={dismissError}>{t(key, { message: error.message })}</ErrorBanner>
}
