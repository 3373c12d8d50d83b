import { create } from 'zustand'
import type { SummaryCompressResult } from '@shared/summaryCompression'
import { call, describeError } from '@renderer/lib/call'
import { useChatStore } from './chatStore'

/** What the chat shows about the last "/compress" in a thread, until dismissed. */
export type CompressNotice =
  | { kind: 'running'; focusTopic: string | null }
  | { kind: 'result'; result: SummaryCompressResult }
  | { kind: 'error'; message: string }

interface CompressState {
  notices: Record<string, CompressNotice>
  /**
   * Runs "/compress [focus]" on a thread. The command never becomes a message: the draft is
   * emptied once main has answered (kept on an IPC failure, so the user can retry). The new
   * summary reaches the inspector as `summary:changed`; the emptied draft rebuilds its preview.
   */
  compress(threadId: string, focusTopic: string | null): Promise<void>
  dismiss(threadId: string): void
}

export const useCompressStore = create<CompressState>()((set, get) => ({
  notices: {},

  async compress(threadId, focusTopic) {
    if (get().notices[threadId]?.kind === 'running') return
    const notice = (next: CompressNotice) =>
      set((state) => ({ notices: { ...state.notices, [threadId]: next } }))
    notice({ kind: 'running', focusTopic })
    try {
      const result = await call(
        window.api.summary.compress({ threadId, ...(focusTopic && { focusTopic }) })
      )
      notice({ kind: 'result', result })
      useChatStore.getState().setDraft(threadId, '')
    } catch (error) {
      notice({ kind: 'error', message: describeError(error) })
    }
  },

  dismiss: (threadId) =>
    set((state) => {
      const notices = { ...state.notices }
      delete notices[threadId]
      return { notices }
    })
}))
