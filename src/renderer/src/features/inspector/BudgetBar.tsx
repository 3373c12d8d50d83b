import { useTranslation } from 'react-i18next'
import { SECTIONS, type TokenStats } from '@shared/context'
import { useFormatNumber } from '@renderer/lib/formatNumber'

/**
 * The request's tokens, one coloured segment per section, against the total budget. Section
 * budgets overlap (unused budget is offered on), so they cannot be stacked honestly; the bar
 * stacks what each section used and the legend below compares used with budget per section.
 */
export function BudgetBar({ stats }: { stats: TokenStats }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  // An input or pinned message over budget is still sent: the bar then widens to the total
  // and marks where the budget ends, rather than cutting off what was sent.
  const scale = Math.max(stats.budget, stats.total, 1)
  const percent = (tokens: number) => `${(tokens / scale) * 100}%`
  const segmentTitle = (section: (typeof SECTIONS)[number]) =>
    t('inspector.budget.segment', {
      section: t(`inspector.sections.${section}`),
      used: format(stats.sections[section].used),
      budget: format(stats.sections[section].budget)
    })

  return (
    <div className="budget">
      <div className="budget__totals">
        <span className="budget__total">
          {t('inspector.budget.total', { used: format(stats.total), budget: format(stats.budget) })}
        </span>
        <span className="budget__window">
          {t('inspector.budget.window', {
            window: format(stats.contextWindow),
            reserve: format(stats.outputReserve)
          })}
        </span>
      </div>
      <div
        className="budget-bar"
        data-testid="budget-bar"
        data-used={stats.total}
        data-budget={stats.budget}
        role="img"
        aria-label={`${t('inspector.budget.barLabel')}: ${SECTIONS.map(segmentTitle).join('; ')}`}
      >
        {SECTIONS.map((section) => (
          <span
            key={section}
            className="budget-bar__segment"
            data-testid="budget-segment"
            data-section={section}
            data-used={stats.sections[section].used}
            style={{ width: percent(stats.sections[section].used) }}
            title={segmentTitle(section)}
          />
        ))}
        {stats.total > stats.budget && (
          <span className="budget-bar__limit" style={{ left: percent(stats.budget) }} />
        )}
      </div>
    </div>
  )
}
