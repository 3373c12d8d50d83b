import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { SearchHit } from '@shared/domain'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { HighlightedText } from './HighlightedText'
import { SemanticResults } from './SemanticResults'
import { semanticMatches, type SemanticHit } from './semanticMatches'
import { useSearchStore } from './searchStore'

interface SearchResultsProps {
  onPick: (hit: SearchHit) => void
  onPickSemantic: (hit: SemanticHit) => void
}

/** Full-text hits (the query's words, marked), then messages related by meaning. */
export function SearchResults({ onPick, onPickSemantic }: SearchResultsProps) {
  const { t } = useTranslation()
  const query = useSearchStore((state) => state.query)
  const hits = useSearchStore((state) => state.hits)
  const status = useSearchStore((state) => state.status)
  const error = useSearchStore((state) => state.error)
  const semanticHits = useSearchStore((state) => state.semanticHits)
  const semanticStatus = useSearchStore((state) => state.semanticStatus)
  // Shown once the full text has answered, so a message never jumps from one group to the other.
  const related = useMemo(
    () => (status === 'ready' ? semanticMatches(hits, semanticHits) : []),
    [status, hits, semanticHits]
  )

  if (status === 'error') {
    return (
      <div className="sidebar__message">
        <ErrorBanner>{error}</ErrorBanner>
      </div>
    )
  }
  const settled = status === 'ready' && semanticStatus === 'ready'
  if (settled && hits.length === 0 && related.length === 0) {
    return <p className="sidebar__message">{t('search.noResults', { query: query.trim() })}</p>
  }

  return (
    <div className="search-results" aria-busy={status === 'pending'}>
      {status === 'pending' && hits.length === 0 && (
        <p className="sidebar__message">{t('search.searching')}</p>
      )}
      {related.length > 0 && hits.length > 0 && (
        <h3 className="search-group__title">{t('search.exactTitle')}</h3>
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
      {related.length > 0 && <SemanticResults hits={related} onPick={onPickSemantic} />}
      {status === 'ready' && semanticStatus === 'pending' && (
        <p className="sidebar__message search-results__pending">{t('search.semanticSearching')}</p>
      )}
    </div>
  )
}
