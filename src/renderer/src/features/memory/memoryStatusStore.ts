import { create } from 'zustand'
import type { MemorySettings, MemoryStatus } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'

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
  // A `memory:status` event that arrives while a status call is on its way is newer than its
  // answer, so it supersedes the call.
  const statusReads = latestRequest()
  const readStatus = (onError: (error: unknown) => void): void => {
    const ticket = statusReads.start()
    call(window.api.memory.status()).then(
      (status) => {
        if (ticket.isLatest()) set({ status, error: null })
      },
      (error: unknown) => {
        if (ticket.isLatest()) onError(error)
      }
    )
  }
  // Loading the form and saving it both answer with the settings; the newest call wins.
  const settingsCalls = latestRequest()

  return {
    status: null,
    error: null,
    settings: null,
    settingsError: null,
    settingsSaved: null,

    watch() {
      const stop = window.api.on('memory:status', (status) => {
        statusReads.supersede()
        set({ status, error: null })
      })
      readStatus((error) => set({ error: describeError(error) }))
      return stop
    },

    async loadSettings() {
      const ticket = settingsCalls.start()
      try {
        const settings = await call(window.api.memory.getSettings())
        if (ticket.isLatest()) set({ settings, settingsError: null })
      } catch (error) {
        if (ticket.isLatest()) set({ settingsError: describeError(error) })
      }
    },

    async saveSettings(patch) {
      const ticket = settingsCalls.start()
      set({ settingsSaved: null })
      try {
        const settings = await call(window.api.memory.updateSettings(patch))
        // Only where the model comes from reloads it (main does the same test).
        const reloading = patch.modelFolder !== undefined || patch.allowDownload !== undefined
        if (ticket.isLatest()) {
          set({ settings, settingsError: null, settingsSaved: reloading ? 'reloading' : 'saved' })
        }
        // The reload changes the model's state before any event may say so; if this read
        // fails, the next event still brings the status.
        readStatus(() => undefined)
        return true
      } catch (error) {
        if (ticket.isLatest()) set({ settingsError: describeError(error) })
        return false
      }
    }
  }
})
