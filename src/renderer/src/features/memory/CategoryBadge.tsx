import { useTranslation } from 'react-i18next'
import type { MemoryCategory } from '@shared/domain'

export function CategoryBadge({ category }: { category: MemoryCategory }) {
  const { t } = useTranslation()
  return (
    <span className="category-badge" data-category={category}>
      {t(`memory.categories.${category}`)}
    </span>
  )
}
