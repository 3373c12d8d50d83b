import { useTranslation } from 'react-i18next'
import { MEMORY_CATEGORIES, type MemoryCategory } from '@shared/domain'
import { isMemoryCategory } from './isMemoryCategory'

interface CategorySelectProps {
  value: MemoryCategory | null
  onChange: (category: MemoryCategory | null) => void
  /** Offers "All categories" (null), for filtering rather than choosing. */
  allowAll?: boolean
  label: string
  testId: string
}

/** The four categories in the UI language; the filter and the editor share it. */
export function CategorySelect({ value, onChange, allowAll, label, testId }: CategorySelectProps) {
  const { t } = useTranslation()
  return (
    <select
      className="memory-select"
      data-testid={testId}
      aria-label={label}
      value={value ?? ''}
      onChange={(event) =>
        onChange(isMemoryCategory(event.target.value) ? event.target.value : null)
      }
    >
      {allowAll && <option value="">{t('memory.allCategories')}</option>}
      {MEMORY_CATEGORIES.map((category) => (
        <option key={category} value={category}>
          {t(`memory.categories.${category}`)}
        </option>
      ))}
    </select>
  )
}
