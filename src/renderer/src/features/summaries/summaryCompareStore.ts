import { create } from 'zustand'

/** Which summary version the before/after dialog shows; null while it is closed. */
interface SummaryCompareState {
  target: { threadId: string; version: number } | null
  open(threadId: string, version: number): void
  close(): void
}

export const useSummaryCompareStore = create<SummaryCompareState>()((set) => ({
  target: null,
  open: (threadId, version) => set({ target: { threadId, version } }),
  close: () => set({ target: null })
}))
