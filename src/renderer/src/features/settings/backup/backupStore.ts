import { create } from 'zustand'
import type { BackupInfo, BackupProgress, RestoreOutcome } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'

interface BackupState {
  backups: BackupInfo[]
  /** The running backup's progress (0-1), null when none runs. */
  progress: number | null
  /** A restore is being checked or swapped in. */
  restoring: boolean
  /** The restore that went through: the app reopens on it. */
  restored: RestoreOutcome | null
  error: string | null
  load(): Promise<void>
  backUp(): Promise<void>
  restore(name: string | null): Promise<void>
  dismissError(): void
}

/** After a restore, the window reloads on the reopened store (Electron relaunches anyway). */
const RELOAD_AFTER_MS = 1500

export const useBackupStore = create<BackupState>()((set, get) => ({
  backups: [],
  progress: null,
  restoring: false,
  restored: null,
  error: null,

  async load() {
    try {
      set({ backups: await call(window.api.backup.list()) })
    } catch (error) {
      set({ error: describeError(error) })
    }
  },

  async backUp() {
    set({ progress: 0, error: null })
    const stop = window.api.on('backup:progress', (step: BackupProgress) => {
      if (step.totalPages > 0) set({ progress: 1 - step.remainingPages / step.totalPages })
    })
    try {
      await call(window.api.backup.create())
      await get().load()
    } catch (error) {
      set({ error: describeError(error) })
    } finally {
      stop()
      set({ progress: null })
    }
  },

  /** A listed backup by name, or (null) a file the user picks in main's dialog. */
  async restore(name) {
    set({ restoring: true, error: null })
    try {
      const restored = await call(
        name === null ? window.api.backup.restoreFile() : window.api.backup.restore({ name })
      )
      if (!restored) return
      set({ restored })
      setTimeout(() => window.location.reload(), RELOAD_AFTER_MS)
    } catch (error) {
      set({ error: describeError(error) })
    } finally {
      set({ restoring: false })
    }
  },

  dismissError: () => set({ error: null })
}))
