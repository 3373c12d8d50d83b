import { adoptedDefaultModel } from '@shared/defaultModel'
import type { AppSettings } from '@shared/domain'
import type { ProviderView } from '@shared/providers'
import type { SettingsRepository } from '../store/settingsRepository'

const KEY = 'app'

const DEFAULT_SETTINGS: AppSettings = {
  locale: 'system',
  inspectorOpen: true,
  systemPrompt:
    'You are Context Lens, a careful and concise assistant. Answer in the language the user writes in.',
  defaultModel: null,
  promptCacheTtl: '5m',
  theme: 'system'
}

export class SettingsService {
  constructor(private readonly settings: SettingsRepository) {}

  get(): AppSettings {
    const stored = this.settings.get(KEY)
    return { ...DEFAULT_SETTINGS, ...(typeof stored === 'object' ? stored : {}) }
  }

  /** The language the user chose, or the system's (`systemLocale`) when they chose none. */
  language(systemLocale: string): string {
    const chosen = this.get().locale
    return chosen === 'system' ? systemLocale : chosen
  }

  update(patch: Partial<AppSettings>): AppSettings {
    const next = { ...this.get(), ...patch }
    this.settings.set(KEY, next)
    return next
  }

  /**
   * After the providers changed: the default model is kept while some provider lists it, else
   * the first listed model becomes the default (adoptedDefaultModel), else there is none.
   */
  keepDefaultModel(providers: readonly ProviderView[]): void {
    const current = this.get().defaultModel
    const next = adoptedDefaultModel(current, providers)
    if (next?.providerId !== current?.providerId || next?.modelId !== current?.modelId) {
      this.update({ defaultModel: next })
    }
  }
}
