import { create } from 'zustand'

interface MemoryViewState {
  /** The memory manager takes the chat column's place while open. */
  open: boolean
  /** A memory to bring into view and mark, e.g. one the inspector linked to. */
  focusId: number | null
  show(focusId?: number): void
  hide(): void
  /** The manager has shown the focused memory; a later link to the same one focuses again. */
  clearFocus(): void
}

export const useMemoryViewStore = create<MemoryViewState>()((set) => ({
  open: false,
  focusId: null,
  show: (focusId) => set({ open: true, focusId: focusId ?? null }),
  hide: () => set({ open: false, focusId: null }),
  clearFocus: () => set({ focusId: null })
}))
