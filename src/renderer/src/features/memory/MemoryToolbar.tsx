import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { SearchField } from '@renderer/components/SearchField'
import { CategorySelect } from './CategorySelect'
import { useMemoryListStore } from './memoryListStore'

/** Search and category filter over the list, and the way to add a memory by hand. */
export function MemoryToolbar({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation()
  const query = useMemoryListStore((state) => state.query)
  const category = useMemoryListStore((state) => state.category)
  const { setQuery, setCategory } = useMemoryListStore.getState()

  return (
    <div className="memory-toolbar">
      <SearchField
        value={query}
        onChange={setQuery}
        onClear={() => setQuery('')}
        label={t('memory.searchLabel')}
        placeholder={t('memory.searchPlaceholder')}
        testId="memory-search"
        className="memory-toolbar__search"
      />
      <CategorySelect
        value={category}
        onChange={setCategory}
        allowAll
        label={t('memory.filterLabel')}
        testId="memory-category-filter"
      />
      <button
        type="button"
        className="button button--primary"
        data-testid="memory-create"
        onClick={onCreate}
      >
        <Icon name="plus" />
        {t('memory.newMemory')}
      </button>
    </div>
  )
}
