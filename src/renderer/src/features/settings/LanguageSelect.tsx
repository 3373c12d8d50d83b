import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { LocalePreference } from '@shared/domain'
import { useSettingsStore } from './settingsStore'
import './settings.css'

const isLocalePreference = (value: string): value is LocalePreference =>
  value === 'system' || value === 'en' || value === 'zh-CN'

/** Language names are written in their own language so a user can find theirs in any UI language. */
export function LanguageSelect() {
  const { t } = useTranslation()
  const id = useId()
  const locale = useSettingsStore((state) => state.settings.locale)
  const setLocale = useSettingsStore((state) => state.setLocale)

  return (
    <div className="language-select">
      <label htmlFor={id}>{t('settings.language')}</label>
      <select
        id={id}
        data-testid="language-select"
        value={locale}
        onChange={(event) => {
          if (isLocalePreference(event.target.value)) void setLocale(event.target.value)
        }}
      >
        <option value="system">{t('settings.languageSystem')}</option>
        <option value="en">English</option>
        <option value="zh-CN">简体中文</option>
      </select>
    </div>
  )
}
