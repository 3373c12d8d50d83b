import { useState } from 'react'

/**
 * Renders a long list a page at a time. A 100k-message thread sends well over a thousand
 * trace entries; mounting them all on every preview would compete with the user's typing.
 */
export function useIncrementalList<T>(items: readonly T[], pageSize: number) {
  const [limit, setLimit] = useState(pageSize)
  return {
    visible: items.length > limit ? items.slice(0, limit) : items,
    hidden: Math.max(0, items.length - limit),
    showMore: () => setLimit((current) => current + pageSize)
  }
}
