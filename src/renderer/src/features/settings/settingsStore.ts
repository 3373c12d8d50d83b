import { create } from 'zustand'
import type { AppSettings, LocalePreference } from '@shared/domain'
import type { ModelRef } from '@shared/providers'
import { call, describeError } from '@renderer/lib/call'
import { applyLanguagePreference } from '@renderer/i18n'

/** Used until main answers, and kept if it cannot: the app must still open. */
const DEFAULT_SETTINGS: AppSettings = {
  locale: 'system',
  inspectorOpen: true,
  systemPrompt: '',
  defaultModel: null,
  promptCacheTtl: '5m'
}

type SettingsError = { kind: 'load' | 'save'; message: string }

interface SettingsState {
  settings: AppSettings
  error: SettingsError | null
  load(): Promise<void>
  setLocale(locale: LocalePreference): Promise<void>
  setInspectorOpen(open: boolean): Promise<void>
  setDefaultModel(model: ModelRef | null): Promise<void>
  /** Anthropic's prompt-cache TTL; other providers ignore it. */
  setPromptCacheTtl(ttl: AppSettings['promptCacheTtl']): Promise<void>
  dismissError(): void
}

export const useSettingsStore = create<SettingsState>()((set, get) => {
  /** Applies a change at once, then persists it; a failed save rolls back and says why. */
  const update = async (patch: Partial<AppSettings>): Promise<void> => {
    const previous = get().settings
    set({ settings: { ...previous, ...patch }, error: null })
    try {
      const saved = await call(window.api.settings.update(patch))
      set({ settings: saved })
    } catch (error) {
      set({ settings: previous, error: { kind: 'save', message: describeError(error) } })
    }
  }

  return {
    settings: DEFAULT_SETTINGS,
    error: null,

    async load() {
      try {
        set({ settings: await call(window.api.settings.get()), error: null })
      } catch (error) {
        set({ error: { kind: 'load', message: describeError(error) } })
      }
    },

    async setLocale(locale) {
      const previous = get().settings.locale
      await applyLanguagePreference(locale)
      await update({ locale })
      // The save failed and rolled back: the visible language follows the stored preference.
      if (get().settings.locale !== locale) await applyLanguagePreference(previous)
    },

    setInspectorOpen: (inspectorOpen) => update({ inspectorOpen }),

    setDefaultModel: (defaultModel) => update({ defaultModel }),

    setPromptCacheTtl: (promptCacheTtl) => update({ promptCacheTtl }),

    dismissError: () => set({ error: null })
  }
})
