import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useSearchStore } from './searchStore'

export function SearchBox() {
  const { t } = useTranslation()
  const query = useSearchStore((state) => state.query)
  const setQuery = useSearchStore((state) => state.setQuery)
  const clear = useSearchStore((state) => state.clear)

  return (
    <div className="search-box" role="search">
      <Icon name="search" />
      <input
        type="search"
        className="search-box__input"
        data-testid="search-input"
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={query}
        // The contract caps a query at 500 characters.
        maxLength={500}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && query) {
            event.preventDefault()
            clear()
          }
        }}
      />
      {query && (
        <button
          type="button"
          className="icon-button search-box__clear"
          aria-label={t('search.clear')}
          title={t('search.clear')}
          onClick={clear}
        >
          <Icon name="close" />
        </button>
      )}
    </div>
  )
}
