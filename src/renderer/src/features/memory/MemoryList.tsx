import { useTranslation } from 'react-i18next'
import { EmptyState } from '@renderer/components/EmptyState'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { MemoryItem } from './MemoryItem'
import { useMemoryListStore } from './memoryListStore'

/** The memories that match the filters, newest activity first, a page at a time. */
export function MemoryList() {
  const { t } = useTranslation()
  const items = useMemoryListStore((state) => state.items)
  const total = useMemoryListStore((state) => state.total)
  const status = useMemoryListStore((state) => state.status)
  const pending = useMemoryListStore((state) => state.pending)
  const error = useMemoryListStore((state) => state.error)
  const highlightedId = useMemoryListStore((state) => state.highlightedId)
  const filtered = useMemoryListStore(
    (state) => state.query.trim() !== '' || state.category !== null
  )
  const { load, loadMore } = useMemoryListStore.getState()

  if (status === 'error') {
    return (
      <ErrorBanner action={{ label: t('common.retry'), run: () => void load() }}>
        {t('memory.loadFailed', { message: error })}
      </ErrorBanner>
    )
  }
  if (status !== 'ready') return <p className="memory-manager__hint">{t('memory.loading')}</p>
  if (items.length === 0) {
    return filtered ? (
      <p className="memory-manager__hint">{t('memory.noMatches')}</p>
    ) : (
      <EmptyState icon="bookmark" title={t('memory.emptyTitle')}>
        {t('memory.emptyBody')}
      </EmptyState>
    )
  }
  return (
    <>
      {/* Until the answer for the current filters is in, the rows are the previous result. */}
      <ul className="memory-list" aria-label={t('memory.listLabel')} aria-busy={pending}>
        {items.map((memory) => (
          <MemoryItem key={memory.id} memory={memory} highlighted={memory.id === highlightedId} />
        ))}
      </ul>
      {items.length < total && (
        <button
          type="button"
          className="memory-list__more"
          disabled={pending}
          onClick={() => void loadMore()}
        >
          {t('memory.showMore')}
        </button>
      )}
    </>
  )
}
