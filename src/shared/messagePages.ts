/**
 * Pages of a thread held in memory in seq order (`messages.list`): the main process's cached
 * threads answer from here, by binary search, never by a pass over the thread.
 */

/** Messages in a page when the caller names no size. */
export const DEFAULT_PAGE_SIZE = 100

export interface PageQuery {
  /** The newest `limit` messages before this seq (older pages, scrolling up). */
  beforeSeq?: number
  /** Every message from this seq on (a refresh of what is loaded, or a jump). */
  fromSeq?: number
  limit?: number
}

/** The index of the first item whose seq is >= `seq` (the length when there is none). */
export function firstAtOrAfter(items: readonly { seq: number }[], seq: number): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const mid = (low + high) >> 1
    if ((items[mid] as { seq: number }).seq < seq) low = mid + 1
    else high = mid
  }
  return low
}

export function pageOf<T extends { seq: number }>(
  all: readonly T[],
  query: PageQuery
): { messages: T[]; hasOlder: boolean } {
  if (query.fromSeq !== undefined) {
    const start = firstAtOrAfter(all, query.fromSeq)
    return { messages: all.slice(start), hasOlder: start > 0 }
  }
  const end = query.beforeSeq === undefined ? all.length : firstAtOrAfter(all, query.beforeSeq)
  const start = Math.max(0, end - (query.limit ?? DEFAULT_PAGE_SIZE))
  return { messages: all.slice(start, end), hasOlder: start > 0 }
}
