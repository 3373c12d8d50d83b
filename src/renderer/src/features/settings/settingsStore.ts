import { create } from 'zustand'
import type { AppSettings, LocalePreference, ThemePreference } from '@shared/domain'
import type { ModelRef } from '@shared/providers'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'
import { applyLanguagePreference } from '@renderer/i18n'

/** Used until main answers, and kept if it cannot: the app must still open. */
const DEFAULT_SETTINGS: AppSettings = {
  locale: 'system',
  inspectorOpen: true,
  systemPrompt: '',
  defaultModel: null,
  promptCacheTtl: '5m',
  theme: 'system'
}

type SettingsError = { kind: 'load' | 'save'; message: string }

interface SettingsState {
  settings: AppSettings
  error: SettingsError | null
  load(): Promise<void>
  /** Main moves the default model when providers change: reads it again; returns the unsubscribe. */
  watch(): () => void
  setLocale(locale: LocalePreference): Promise<void>
  setInspectorOpen(open: boolean): Promise<void>
  setDefaultModel(model: ModelRef | null): Promise<void>
  /** Anthropic's prompt-cache TTL; other providers ignore it. */
  setPromptCacheTtl(ttl: AppSettings['promptCacheTtl']): Promise<void>
  setTheme(theme: ThemePreference): Promise<void>
  dismissError(): void
}

export const useSettingsStore = create<SettingsState>()((set, get) => {
  // Each answer carries every setting as main stored it then; an older one would undo a later
  // change on screen. Only the newest call's answer (or failure) is applied.
  const requests = latestRequest()

  /** Applies a change at once, then persists it; a failed save rolls back and says why. */
  const update = async (patch: Partial<AppSettings>): Promise<void> => {
    const ticket = requests.start()
    const previous = get().settings
    set({ settings: { ...previous, ...patch }, error: null })
    try {
      const saved = await call(window.api.settings.update(patch))
      if (ticket.isLatest()) set({ settings: saved })
    } catch (error) {
      // Only what this patch put on screen goes back: a newer change to the same setting
      // keeps its own value, and its answer brings main's state.
      set((state) => ({
        settings: {
          ...state.settings,
          ...Object.fromEntries(
            (Object.keys(patch) as (keyof AppSettings)[])
              .filter((key) => state.settings[key] === patch[key])
              .map((key) => [key, previous[key]])
          )
        },
        error: { kind: 'save', message: describeError(error) }
      }))
    }
  }

  return {
    settings: DEFAULT_SETTINGS,
    error: null,

    async load() {
      const ticket = requests.start()
      try {
        const settings = await call(window.api.settings.get())
        if (ticket.isLatest()) set({ settings, error: null })
      } catch (error) {
        if (ticket.isLatest()) set({ error: { kind: 'load', message: describeError(error) } })
      }
    },

    watch() {
      return window.api.on('providers:changed', () => void get().load())
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

    setTheme: (theme) => update({ theme }),

    dismissError: () => set({ error: null })
  }
})
