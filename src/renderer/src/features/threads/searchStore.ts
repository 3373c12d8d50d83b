import { create } from 'zustand'
import type { MemorySearchHit, SearchHit } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest, type RequestTicket } from '@renderer/lib/latestRequest'

/** Long enough to skip the intermediate keystrokes of a word, short enough to feel live. */
export const SEARCH_DEBOUNCE_MS = 200

/** Messages related by meaning shown under the full-text hits; more reads as noise. */
const SEMANTIC_LIMIT = 8

type SearchStatus = 'idle' | 'pending' | 'ready' | 'error'

interface SearchState {
  /** Exactly what is in the box; an empty (or blank) query means "not searching". */
  query: string
  hits: SearchHit[]
  status: SearchStatus
  error: string | null
  /** Messages the embedding model finds related, whatever their words (see semanticMatches). */
  semanticHits: MemorySearchHit[]
  semanticStatus: Exclude<SearchStatus, 'error'>
  setQuery(query: string): void
  clear(): void
}

export const useSearchStore = create<SearchState>()((set, get) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  // Answers can arrive out of order; only the ones for the latest query are shown.
  const querying = latestRequest()

  const runFullText = async (query: string, ticket: RequestTicket): Promise<void> => {
    try {
      const hits = await call(window.api.search.query({ query }))
      if (ticket.isLatest()) set({ hits, status: 'ready', error: null })
    } catch (error) {
      if (ticket.isLatest()) set({ hits: [], status: 'error', error: describeError(error) })
    }
  }

  // Runs beside the full-text search, never in its way: it waits for the embedding model, and
  // a failure only means no "related" group (the memory status line says why recall is down).
  const runSemantic = async (query: string, ticket: RequestTicket): Promise<void> => {
    try {
      const result = await call(
        window.api.memory.search({ query, kinds: ['message'], scope: 'all', limit: SEMANTIC_LIMIT })
      )
      if (ticket.isLatest()) set({ semanticHits: result.hits, semanticStatus: 'ready' })
    } catch {
      if (ticket.isLatest()) set({ semanticHits: [], semanticStatus: 'ready' })
    }
  }

  return {
    query: '',
    hits: [],
    status: 'idle',
    error: null,
    semanticHits: [],
    semanticStatus: 'idle',

    setQuery(query) {
      clearTimeout(timer)
      // Both searches for one query share its ticket; a newer query supersedes both.
      const ticket = querying.start()
      const trimmed = query.trim()
      if (trimmed === '') {
        set({
          query,
          hits: [],
          status: 'idle',
          error: null,
          semanticHits: [],
          semanticStatus: 'idle'
        })
        return
      }
      set({ query, status: 'pending', semanticStatus: 'pending' })
      timer = setTimeout(() => {
        void runFullText(trimmed, ticket)
        void runSemantic(trimmed, ticket)
      }, SEARCH_DEBOUNCE_MS)
    },

    clear: () => get().setQuery('')
  }
})
