import { useTranslation } from 'react-i18next'
import { SearchField } from '@renderer/components/SearchField'
import { useSearchStore } from './searchStore'

export function SearchBox() {
  const { t } = useTranslation()
  const query = useSearchStore((state) => state.query)
  const setQuery = useSearchStore((state) => state.setQuery)
  const clear = useSearchStore((state) => state.clear)

  return (
    <SearchField
      value={query}
      onChange={setQuery}
      onClear={clear}
      label={t('search.label')}
      placeholder={t('search.placeholder')}
      testId="search-input"
      clearLabel={t('search.clear')}
    />
  )
}
