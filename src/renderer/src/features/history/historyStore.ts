import { create } from 'zustand'
import type { ExportFormat, ExportResult, ImportProgress, ImportSummary } from '@shared/history'
import { call, describeError } from '@renderer/lib/call'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'

type ImportView =
  | { state: 'idle' }
  | { state: 'choosing' }
  | {
      state: 'running'
      importId: string
      fileName: string
      progress: ImportProgress | null
      cancelling: boolean
    }
  | { state: 'done'; fileName: string; summary: ImportSummary }

type ExportView = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; result: ExportResult }

interface HistoryState {
  importView: ImportView
  exportView: ExportView
  error: string | null
  /** Subscribes to import progress and its end; returns the unsubscribe. */
  watch(): () => void
  startImport(withBranches: boolean): Promise<void>
  cancelImport(): Promise<void>
  exportHistory(options: {
    format: ExportFormat
    threadId?: string
    withRequests: boolean
  }): Promise<void>
  /** Forgets a finished import's summary and an export's result (the dialog was closed). */
  dismiss(): void
}

/** While an import runs, the sidebar is refreshed at most this often as threads arrive. */
const REFRESH_INTERVAL_MS = 1000

export const useHistoryStore = create<HistoryState>()((set, get) => {
  let lastRefresh = 0
  const refreshThreads = (force: boolean) => {
    if (!force && Date.now() - lastRefresh < REFRESH_INTERVAL_MS) return
    lastRefresh = Date.now()
    void useThreadsStore.getState().load()
  }
  const running = (importId: string) => {
    const view = get().importView
    return view.state === 'running' && view.importId === importId ? view : null
  }
  return {
    importView: { state: 'idle' },
    exportView: { state: 'idle' },
    error: null,

    watch() {
      const offProgress = window.api.on('history:progress', (progress) => {
        const view = running(progress.importId)
        if (!view) return
        set({ importView: { ...view, progress } })
        refreshThreads(false)
      })
      const offDone = window.api.on('history:done', ({ importId, summary }) => {
        const view = running(importId)
        if (!view) return
        set({ importView: { state: 'done', fileName: view.fileName, summary } })
        refreshThreads(true)
      })
      return () => {
        offProgress()
        offDone()
      }
    },

    async startImport(withBranches) {
      set({ importView: { state: 'choosing' }, error: null })
      try {
        const started = await call(window.api.history.import({ withBranches }))
        set({
          importView: started.started
            ? {
                state: 'running',
                importId: started.importId,
                fileName: started.fileName,
                progress: null,
                cancelling: false
              }
            : { state: 'idle' }
        })
      } catch (error) {
        set({ importView: { state: 'idle' }, error: describeError(error) })
      }
    },

    async cancelImport() {
      const view = get().importView
      if (view.state !== 'running') return
      set({ importView: { ...view, cancelling: true } })
      try {
        await call(window.api.history.cancelImport({ importId: view.importId }))
      } catch (error) {
        set({ error: describeError(error) })
      }
    },

    async exportHistory({ format, threadId, withRequests }) {
      set({ exportView: { state: 'saving' }, error: null })
      try {
        const outcome = await call(
          window.api.history.export({ format, withRequests, ...(threadId && { threadId }) })
        )
        set({
          exportView: outcome.saved
            ? {
                state: 'saved',
                result: { path: outcome.path, threads: outcome.threads, messages: outcome.messages }
              }
            : { state: 'idle' }
        })
      } catch (error) {
        set({ exportView: { state: 'idle' }, error: describeError(error) })
      }
    },

    dismiss() {
      const view = get().importView
      set({
        importView: view.state === 'done' ? { state: 'idle' } : view,
        exportView: { state: 'idle' },
        error: null
      })
    }
  }
})
