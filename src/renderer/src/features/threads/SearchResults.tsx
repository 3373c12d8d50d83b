import { useTranslation } from 'react-i18next'
import type { SearchHit } from '@shared/domain'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { HighlightedText } from './HighlightedText'
import { useSearchStore } from './searchStore'

interface SearchResultsProps {
  onPick: (hit: SearchHit) => void
}

export function SearchResults({ onPick }: SearchResultsProps) {
  const { t } = useTranslation()
  const query = useSearchStore((state) => state.query)
  const hits = useSearchStore((state) => state.hits)
  const status = useSearchStore((state) => state.status)
  const error = useSearchStore((state) => state.error)

  if (status === 'error') {
    return (
      <div className="sidebar__message">
        <ErrorBanner>{error}</ErrorBanner>
      </div>
    )
  }
  if (status === 'ready' && hits.length === 0) {
    return <p className="sidebar__message">{t('search.noResults', { query: query.trim() })}</p>
  }

  return (
    <div className="search-results" aria-busy={status === 'pending'}>
      {status === 'pending' && hits.length === 0 && (
        <p className="sidebar__message">{t('search.searching')}</p>
      )}
      <ul className="search-results__list" aria-label={t('search.resultsLabel')}>
        {hits.map((hit) => (
          <li key={`${hit.kind}:${hit.threadId}:${hit.messageId ?? ''}`}>
            <button
              type="button"
              className="search-hit"
              data-testid="search-hit"
              data-thread-id={hit.threadId}
              data-message-id={hit.messageId ?? undefined}
              onClick={() => onPick(hit)}
            >
              <span className="search-hit__title">
                <HighlightedText text={hit.threadTitle || t('threads.untitled')} query={query} />
              </span>
              <span className="search-hit__meta">
                {hit.kind === 'thread'
                  ? t('search.titleMatch')
                  : hit.role && t(`chat.roles.${hit.role}`)}
              </span>
              {hit.kind === 'message' && (
                <span className="search-hit__snippet">
                  <HighlightedText text={hit.snippet} query={query} />
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
