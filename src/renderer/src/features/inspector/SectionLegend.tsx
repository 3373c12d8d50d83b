import { useTranslation } from 'react-i18next'
import { SECTIONS, type TokenStats } from '@shared/context'
import { useFormatNumber } from '@renderer/lib/formatNumber'

/** One row per section: used against its budget, and how many items it holds. */
export function SectionLegend({ stats }: { stats: TokenStats }) {
  const { t } = useTranslation()
  const format = useFormatNumber()

  return (
    <ul className="section-legend" aria-label={t('inspector.budget.legendLabel')}>
      {SECTIONS.map((section) => {
        const { used, budget, items } = stats.sections[section]
        const fill = budget > 0 ? Math.min(1, used / budget) : used > 0 ? 1 : 0
        return (
          <li
            key={section}
            className="section-row"
            data-testid="section-row"
            data-section={section}
            data-used={used}
            data-budget={budget}
            data-over={used > budget ? 'true' : 'false'}
          >
            <span className="section-row__swatch" aria-hidden="true" />
            <span className="section-row__name" tabIndex={-1}>
              {t(`inspector.sections.${section}`)}
            </span>
            <span className="section-row__meter" aria-hidden="true">
              <span style={{ width: `${fill * 100}%` }} />
            </span>
            <span className="section-row__usage">
              {t('inspector.budget.usage', { used: format(used), budget: format(budget) })}
            </span>
            <span className="section-row__items">
              {t('inspector.budget.items', { count: items })}
            </span>
          </li>
        )
      })}
    </ul>
  )
}
