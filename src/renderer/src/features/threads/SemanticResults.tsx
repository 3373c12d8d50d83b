import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import type { SemanticHit } from './semanticMatches'

interface SemanticResultsProps {
  hits: SemanticHit[]
  onPick: (hit: SemanticHit) => void
}

/**
 * Messages related to the query by meaning rather than by its words, e.g. a paraphrase or the
 * other language. Nothing to highlight: they may share no word with the query.
 */
export function SemanticResults({ hits, onPick }: SemanticResultsProps) {
  const { t } = useTranslation()
  return (
    <section className="search-group" aria-label={t('search.semanticTitle')}>
      <h3 className="search-group__title">
        <Icon name="layers" />
        {t('search.semanticTitle')}
      </h3>
      <ul className="search-results__list">
        {hits.map((hit) => (
          <li key={hit.ref}>
            <button
              type="button"
              className="search-hit search-hit--semantic"
              data-testid="semantic-hit"
              data-thread-id={hit.threadId}
              data-message-id={hit.id}
              onClick={() => onPick(hit)}
            >
              <span className="search-hit__title">{hit.threadTitle || t('threads.untitled')}</span>
              <span className="search-hit__meta">
                {hit.role && t(`chat.roles.${hit.role}`)}
                {hit.similarity !== null && (
                  <>
                    {' · '}
                    {t('search.similarity', { value: hit.similarity.toFixed(2) })}
                  </>
                )}
              </span>
              <span className="search-hit__snippet">{hit.content}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
