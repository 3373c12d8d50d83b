import { create } from 'zustand'
import type { SearchHit } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'

/** Long enough to skip the intermediate keystrokes of a word, short enough to feel live. */
export const SEARCH_DEBOUNCE_MS = 200

type SearchStatus = 'idle' | 'pending' | 'ready' | 'error'

interface SearchState {
  /** Exactly what is in the box; an empty (or blank) query means "not searching". */
  query: string
  hits: SearchHit[]
  status: SearchStatus
  error: string | null
  setQuery(query: string): void
  clear(): void
}

export const useSearchStore = create<SearchState>()((set, get) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  // Answers can arrive out of order; only the one for the latest query is shown.
  let querySeq = 0

  const run = async (query: string, seq: number): Promise<void> => {
    try {
      const hits = await call(window.api.search.query({ query }))
      if (seq === querySeq) set({ hits, status: 'ready', error: null })
    } catch (error) {
      if (seq === querySeq) set({ hits: [], status: 'error', error: describeError(error) })
    }
  }

  return {
    query: '',
    hits: [],
    status: 'idle',
    error: null,

    setQuery(query) {
      clearTimeout(timer)
      const seq = ++querySeq
      const trimmed = query.trim()
      if (trimmed === '') {
        set({ query, hits: [], status: 'idle', error: null })
        return
      }
      set({ query, status: 'pending' })
      timer = setTimeout(() => void run(trimmed, seq), SEARCH_DEBOUNCE_MS)
    },

    clear: () => get().setQuery('')
  }
})
