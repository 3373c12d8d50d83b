import { create } from 'zustand'
import type { Memory, MemoryCategory, MemoryChange } from '@shared/domain'
import { HIGHLIGHT_MS } from '@renderer/features/chat/chatStore'
import { ApiError, call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'

/** Memories fetched per page; the contract allows up to 500 in one call. */
const MEMORY_PAGE_SIZE = 100
const MAX_PAGE = 500
/** Like the sidebar search: skips the keystrokes of a word, still feels live. */
const MEMORY_SEARCH_DEBOUNCE_MS = 200
/** How long "Undo" is offered after a delete. */
export const UNDO_MS = 10_000

type ListStatus = 'idle' | 'loading' | 'ready' | 'error'

/** Something the user should know after an action that did not fail (keys of `memory.*`). */
type MemoryNotice = 'createdSimilar' | 'createdSame' | 'missing'

interface MemoryListState {
  items: Memory[]
  /** How many memories match the filters; more than `items` until "Show more". */
  total: number
  query: string
  category: MemoryCategory | null
  status: ListStatus
  /**
   * The filters changed (or main reported a change) and the answer is not in yet: `items`
   * still match the previous filters, so the list must not pass for the new result.
   */
  pending: boolean
  error: string | null
  /** A refused create, edit, delete or undo; the list keeps its previous state. */
  actionError: string | null
  notice: MemoryNotice | null
  /** The memory just deleted, while its undo is offered. */
  deleted: Memory | null
  highlightedId: number | null

  /** Loads the list and reloads it whenever main reports a change; returns the unsubscribe. */
  watch(): () => void
  load(): Promise<void>
  loadMore(): Promise<void>
  setQuery(query: string): void
  setCategory(category: MemoryCategory | null): void
  create(content: string, category: MemoryCategory): Promise<MemoryChange | null>
  update(id: number, change: { content?: string; category?: MemoryCategory }): Promise<boolean>
  remove(memory: Memory): Promise<boolean>
  undo(): Promise<boolean>
  /** Clears the filters and brings one memory into view, marked for a moment. */
  reveal(id: number): Promise<void>
  dismissUndo(): void
  dismissMessages(): void
}

export const useMemoryListStore = create<MemoryListState>()((set, get) => {
  let searchTimer: ReturnType<typeof setTimeout> | undefined
  let undoTimer: ReturnType<typeof setTimeout> | undefined
  let highlightTimer: ReturnType<typeof setTimeout> | undefined
  // Change events and typing can overtake list calls: only the newest answer is applied.
  const listing = latestRequest()

  const fetchPage = (offset: number, limit: number) => {
    const { query, category } = get()
    const trimmed = query.trim()
    return call(
      window.api.memory.list({
        ...(trimmed && { query: trimmed }),
        ...(category && { category }),
        offset,
        limit
      })
    )
  }

  const highlight = (id: number): void => {
    clearTimeout(highlightTimer)
    set({ highlightedId: id })
    highlightTimer = setTimeout(() => {
      if (get().highlightedId === id) set({ highlightedId: null })
    }, HIGHLIGHT_MS)
  }

  const offerUndo = (memory: Memory | null): void => {
    clearTimeout(undoTimer)
    set({ deleted: memory })
    if (memory) undoTimer = setTimeout(() => set({ deleted: null }), UNDO_MS)
  }

  const failed = (error: unknown): void => set({ actionError: describeError(error), notice: null })

  return {
    items: [],
    total: 0,
    query: '',
    category: null,
    status: 'idle',
    pending: false,
    error: null,
    actionError: null,
    notice: null,
    deleted: null,
    highlightedId: null,

    watch() {
      void get().load()
      return window.api.on('memory:changed', () => void get().load())
    },

    async load() {
      const ticket = listing.start()
      set({ pending: true, ...(get().status !== 'ready' && { status: 'loading' }) })
      // A reload keeps as many rows as "Show more" had revealed.
      const limit = Math.min(MAX_PAGE, Math.max(MEMORY_PAGE_SIZE, get().items.length))
      try {
        const page = await fetchPage(0, limit)
        if (!ticket.isLatest()) return
        set({ items: page.items, total: page.total, status: 'ready', pending: false, error: null })
      } catch (error) {
        if (ticket.isLatest()) set({ status: 'error', pending: false, error: describeError(error) })
      }
    },

    async loadMore() {
      // The rows on screen belong to the previous filters until the pending answer is in:
      // paging on from them would mix two results.
      if (get().pending) return
      const ticket = listing.start()
      const { items } = get()
      try {
        const page = await fetchPage(items.length, MEMORY_PAGE_SIZE)
        if (!ticket.isLatest()) return
        const known = new Set(items.map((memory) => memory.id))
        set({ items: [...items, ...page.items.filter((m) => !known.has(m.id))], total: page.total })
      } catch (error) {
        if (ticket.isLatest()) failed(error)
      }
    },

    setQuery(query) {
      clearTimeout(searchTimer)
      // No longer the list for this query, even before the debounced call goes out.
      set({ query, pending: true })
      searchTimer = setTimeout(() => void get().load(), MEMORY_SEARCH_DEBOUNCE_MS)
    },

    setCategory(category) {
      set({ category })
      void get().load()
    },

    async create(content, category) {
      try {
        const change = await call(window.api.memory.create({ content, category }))
        const notice: MemoryNotice | null =
          change.action === 'created'
            ? null
            : change.dedup === 'similar'
              ? 'createdSimilar'
              : 'createdSame'
        set({ actionError: null, notice })
        await get().load()
        highlight(change.memory.id)
        return change
      } catch (error) {
        failed(error)
        return null
      }
    },

    async update(id, change) {
      try {
        const updated = await call(window.api.memory.update({ id, ...change }))
        set((state) => ({
          actionError: null,
          items: state.items.map((memory) => (memory.id === id ? updated : memory))
        }))
        return true
      } catch (error) {
        failed(error)
        return false
      }
    },

    async remove(memory) {
      try {
        await call(window.api.memory.delete({ id: memory.id }))
        set((state) => ({
          actionError: null,
          items: state.items.filter((item) => item.id !== memory.id),
          total: Math.max(0, state.total - 1)
        }))
        offerUndo(memory)
        return true
      } catch (error) {
        failed(error)
        return false
      }
    },

    async undo() {
      const { deleted } = get()
      if (!deleted) return false
      offerUndo(null)
      try {
        const restored = await call(window.api.memory.restore({ id: deleted.id }))
        set({ actionError: null })
        await get().load()
        highlight(restored.id)
        return true
      } catch (error) {
        failed(error)
        return false
      }
    },

    async reveal(id) {
      clearTimeout(searchTimer)
      set({ query: '', category: null, notice: null })
      await get().load()
      if (get().items.some((memory) => memory.id === id)) {
        highlight(id)
        return
      }
      // Older than the first page: shown on top rather than paging until it turns up.
      try {
        const { memory } = await call(window.api.memory.origin({ id }))
        set((state) => ({ items: [memory, ...state.items.filter((m) => m.id !== id)] }))
        highlight(id)
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') set({ notice: 'missing' })
        else failed(error)
      }
    },

    dismissUndo: () => offerUndo(null),
    dismissMessages: () => set({ actionError: null, notice: null })
  }
})
