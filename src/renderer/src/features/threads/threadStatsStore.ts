import { create } from 'zustand'
import type { StoredBuild } from '@shared/context'
import {
  EMPTY_THREAD_STATS,
  type BuildStats,
  type ThreadListItem,
  type ThreadStats
} from '@shared/domain'
import { useThreadsStore } from './threadsStore'

export type ThreadOrder = 'recent' | 'fullest' | 'cost'

interface ThreadStatsState {
  /** Per thread: what its sidebar row shows. */
  byThread: Record<string, ThreadStats>
  order: ThreadOrder
  setOrder(order: ThreadOrder): void
  /** Stats that came with the thread list; a build already announced by an event is kept if newer. */
  fromList(threads: readonly ThreadListItem[]): void
  /** A build main just stored (`context:built`). */
  addBuild(build: StoredBuild): void
  /** Follows the thread list and main's events; returns the unsubscribe. No polling. */
  watch(): () => void
}

/**
 * Builds only ever get newer: ids grow with each one stored. A list answer that left main
 * before a `context:built` event, or events that overtake each other, never take a row back.
 */
const isNewer = (candidate: BuildStats | null, current: BuildStats | null): boolean =>
  candidate !== null &&
  (current === null ||
    candidate.buildId > current.buildId ||
    (candidate.buildId === current.buildId && candidate.createdAt > current.createdAt))

const newerBuild = (a: BuildStats | null, b: BuildStats | null): BuildStats | null =>
  isNewer(a, b) ? a : b

export const useThreadStatsStore = create<ThreadStatsState>()((set, get) => ({
  byThread: {},
  order: 'recent',

  setOrder: (order) => set({ order }),

  fromList(threads) {
    set((state) => {
      const byThread: Record<string, ThreadStats> = {}
      for (const thread of threads) {
        const known = state.byThread[thread.id]
        byThread[thread.id] = {
          ...thread.stats,
          lastBuild: newerBuild(thread.stats.lastBuild, known?.lastBuild ?? null),
          summaryUpdatedAt:
            Math.max(thread.stats.summaryUpdatedAt ?? 0, known?.summaryUpdatedAt ?? 0) || null
        }
      }
      return { byThread }
    })
  },

  addBuild(build) {
    const lastBuild: BuildStats = {
      buildId: build.id,
      createdAt: build.createdAt,
      tokenStats: build.context.tokenStats
    }
    set((state) => {
      const known = state.byThread[build.threadId] ?? EMPTY_THREAD_STATS
      if (!isNewer(lastBuild, known.lastBuild)) return {}
      return { byThread: { ...state.byThread, [build.threadId]: { ...known, lastBuild } } }
    })
  },

  watch() {
    const { fromList, addBuild } = get()
    fromList(useThreadsStore.getState().threads)
    const stops = [
      useThreadsStore.subscribe((state, previous) => {
        if (state.threads !== previous.threads) fromList(state.threads)
      }),
      window.api.on('context:built', addBuild),
      window.api.on('summary:changed', ({ threadId, updatedAt }) =>
        set((state) => {
          const known = state.byThread[threadId]
          if (!known || (known.summaryUpdatedAt ?? 0) >= updatedAt) return {}
          return {
            byThread: { ...state.byThread, [threadId]: { ...known, summaryUpdatedAt: updatedAt } }
          }
        })
      )
    ]
    return () => stops.forEach((stop) => stop())
  }
}))

/** How full a thread's last request was: tokens over its budget (0 without a build). */
const fillOf = (stats: ThreadStats | undefined): number => {
  const tokenStats = stats?.lastBuild?.tokenStats
  return tokenStats ? tokenStats.total / Math.max(1, tokenStats.budget) : 0
}

/**
 * The sidebar's rows in the chosen order. "Fullest" and "most expensive" also filter: a thread
 * with nothing sent, or no priced reply, has no place in a ranking by that figure.
 */
export function orderThreads(
  threads: readonly ThreadListItem[],
  byThread: Record<string, ThreadStats>,
  order: ThreadOrder
): readonly ThreadListItem[] {
  if (order === 'recent') return threads
  const value =
    order === 'fullest'
      ? (thread: ThreadListItem) =>
          byThread[thread.id]?.lastBuild ? fillOf(byThread[thread.id]) : null
      : (thread: ThreadListItem) => byThread[thread.id]?.cost ?? null
  return threads
    .map((thread) => ({ thread, value: value(thread) }))
    .filter((row): row is { thread: ThreadListItem; value: number } => row.value !== null)
    .sort((a, b) => b.value - a.value || b.thread.updatedAt - a.thread.updatedAt)
    .map((row) => row.thread)
}
