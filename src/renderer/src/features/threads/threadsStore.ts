import { create } from 'zustand'
import { EMPTY_THREAD_STATS, type Thread, type ThreadListItem } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'

type ListStatus = 'idle' | 'loading' | 'ready'

interface ThreadsState {
  threads: ThreadListItem[]
  status: ListStatus
  selectedId: string | null
  /** A failed list/create/delete, shown at the top of the sidebar. */
  error: string | null
  /** A failed rename is shown next to the title being edited, so it names its thread. */
  renameError: { threadId: string; message: string } | null

  load(): Promise<void>
  /** Loads the list and keeps it fresh while main reports changes; returns the unsubscribe. */
  watch(): () => void
  select(threadId: string | null): void
  create(): Promise<Thread | null>
  rename(threadId: string, title: string): Promise<boolean>
  remove(threadId: string): Promise<boolean>
  clearRenameError(): void
  dismissError(): void
}

/** Most recent activity first; main already sorts, this keeps local edits in the same order. */
const byActivity = (a: ThreadListItem, b: ThreadListItem): number => b.updatedAt - a.updatedAt

const withThread = (threads: ThreadListItem[], thread: Thread): ThreadListItem[] => {
  const existing = threads.find((item) => item.id === thread.id)
  const item: ThreadListItem = existing
    ? { ...existing, ...thread }
    : { ...thread, messageCount: 0, lastMessagePreview: null, stats: EMPTY_THREAD_STATS }
  return [item, ...threads.filter((other) => other.id !== thread.id)].sort(byActivity)
}

export const useThreadsStore = create<ThreadsState>()((set, get) => {
  // Change events can arrive faster than list calls return: only the newest answer is applied.
  const listing = latestRequest()
  // After a local edit, a list call already in flight could answer with the old state; a fresh
  // call supersedes it.
  const refresh = (): void => void get().load()

  return {
    threads: [],
    status: 'idle',
    selectedId: null,
    error: null,
    renameError: null,

    async load() {
      const ticket = listing.start()
      if (get().status === 'idle') set({ status: 'loading' })
      try {
        const threads = await call(window.api.threads.list())
        if (ticket.isLatest()) set({ threads: [...threads].sort(byActivity), status: 'ready' })
      } catch (error) {
        if (ticket.isLatest()) set({ status: 'ready', error: describeError(error) })
      }
    },

    watch() {
      void get().load()
      return window.api.on('threads:changed', refresh)
    },

    select(threadId) {
      set({ selectedId: threadId, renameError: null })
    },

    async create() {
      try {
        const thread = await call(window.api.threads.create())
        set((state) => ({
          threads: withThread(state.threads, thread),
          selectedId: thread.id,
          error: null
        }))
        refresh()
        return thread
      } catch (error) {
        set({ error: describeError(error) })
        return null
      }
    },

    async rename(threadId, title) {
      try {
        const thread = await call(window.api.threads.rename({ id: threadId, title }))
        set((state) => ({ threads: withThread(state.threads, thread), renameError: null }))
        refresh()
        return true
      } catch (error) {
        set({ renameError: { threadId, message: describeError(error) } })
        return false
      }
    },

    async remove(threadId) {
      try {
        await call(window.api.threads.delete({ id: threadId }))
        set((state) => ({
          threads: state.threads.filter((thread) => thread.id !== threadId),
          selectedId: state.selectedId === threadId ? null : state.selectedId,
          error: null
        }))
        refresh()
        return true
      } catch (error) {
        set({ error: describeError(error) })
        return false
      }
    },

    clearRenameError: () => set({ renameError: null }),
    dismissError: () => set({ error: null })
  }
})

export const selectSelectedThread = (state: ThreadsState): ThreadListItem | null =>
  state.threads.find((thread) => thread.id === state.selectedId) ?? null
