import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { ThemePreference } from '@shared/domain'
import { useSettingsStore } from './settingsStore'
import './settings.css'

const isTheme = (value: string): value is ThemePreference =>
  value === 'system' || value === 'light' || value === 'dark'

/** Light, dark, or as the system is; beside the language, where people look for both. */
export function ThemeSelect() {
  const { t } = useTranslation()
  const id = useId()
  const theme = useSettingsStore((state) => state.settings.theme)
  const setTheme = useSettingsStore((state) => state.setTheme)

  return (
    <div className="language-select">
      <label htmlFor={id}>{t('theme.label')}</label>
      <select
        id={id}
        data-testid="theme-select"
        value={theme}
        onChange={(event) => {
          if (isTheme(event.target.value)) void setTheme(event.target.value)
        }}
      >
        <option value="system">{t('theme.system')}</option>
        <option value="light">{t('theme.light')}</option>
        <option value="dark">{t('theme.dark')}</option>
      </select>
    </div>
  )
}
