import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { LocalePreference } from '@shared/domain'
import { en, zhCN } from './resources'

export type UiLanguage = 'en' | 'zh-CN'

const resources = {
  en: { translation: en },
  'zh-CN': { translation: zhCN }
} as const

/** 'system' follows the OS language: any Chinese variant gets Simplified Chinese, all else English. */
export function resolveLanguage(preference: LocalePreference, systemLanguage: string): UiLanguage {
  if (preference !== 'system') return preference
  return systemLanguage.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'
}

/** One instance for the whole renderer, registered with react-i18next so useTranslation finds it. */
export const i18n = i18next.createInstance()

// The html lang attribute makes Chromium pick Simplified Chinese glyphs from the CJK fonts.
i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language
})

export async function initI18n(language: UiLanguage): Promise<void> {
  await i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'zh-CN'],
    // React already escapes text; escaping twice would show entities.
    interpolation: { escapeValue: false },
    initAsync: false
  })
}

export async function applyLanguagePreference(preference: LocalePreference): Promise<void> {
  await i18n.changeLanguage(resolveLanguage(preference, navigator.language))
}
