import { create } from 'zustand'
import type { MemorySettings, MemoryStatus } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'

interface MemoryStatusState {
  /** Null until main first answers. */
  status: MemoryStatus | null
  error: string | null
  settings: MemorySettings | null
  settingsError: string | null
  /** Set after a save, so the form can say whether the model is reloading. */
  settingsSaved: 'reloading' | 'saved' | null

  /** Loads the status and follows main's `memory:status` events; returns the unsubscribe. */
  watch(): () => void
  loadSettings(): Promise<void>
  saveSettings(patch: Partial<MemorySettings>): Promise<boolean>
}

export const useMemoryStatusStore = create<MemoryStatusState>()((set) => {
  // An event that arrives while the first status call is on its way is newer than its answer.
  let eventSeen = false

  return {
    status: null,
    error: null,
    settings: null,
    settingsError: null,
    settingsSaved: null,

    watch() {
      eventSeen = false
      const stop = window.api.on('memory:status', (status) => {
        eventSeen = true
        set({ status, error: null })
      })
      call(window.api.memory.status()).then(
        (status) => {
          if (!eventSeen) set({ status, error: null })
        },
        (error: unknown) => set({ error: describeError(error) })
      )
      return stop
    },

    async loadSettings() {
      try {
        set({ settings: await call(window.api.memory.getSettings()), settingsError: null })
      } catch (error) {
        set({ settingsError: describeError(error) })
      }
    },

    async saveSettings(patch) {
      set({ settingsSaved: null })
      try {
        const settings = await call(window.api.memory.updateSettings(patch))
        // Only where the model comes from reloads it (main does the same test).
        const reloading =
          patch.modelFolder !== undefined ||
          patch.embeddingModel !== undefined ||
          patch.allowDownload !== undefined
        set({ settings, settingsError: null, settingsSaved: reloading ? 'reloading' : 'saved' })
        // The reload changes the model's state before any event may say so; if this read
        // fails, the next event still brings the status.
        call(window.api.memory.status()).then(
          (status) => set({ status }),
          () => undefined
        )
        return true
      } catch (error) {
        set({ settingsError: describeError(error) })
        return false
      }
    }
  }
})
