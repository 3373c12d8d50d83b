import { useTranslation } from 'react-i18next'
import { defaultTotalBudget, type TokenStats } from '@shared/context'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { SectionBar } from './SectionBar'

/** The inspector's headline: the request's tokens against the budget, the window, the bar. */
export function BudgetBar({ stats }: { stats: TokenStats }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  // The automatic budget stopped at the safety net's limit, short of the window less the reply:
  // said, so the two figures above it add up.
  const capped =
    stats.budget === defaultTotalBudget(stats.contextWindow, stats.outputReserve) &&
    stats.budget < stats.contextWindow - stats.outputReserve

  return (
    <div className="budget">
      <div className="budget__totals">
        <span className="budget__total">
          {t('inspector.budget.total', { used: format(stats.total), budget: format(stats.budget) })}
        </span>
        <span className="budget__window">
          {t(capped ? 'inspector.budget.windowCapped' : 'inspector.budget.window', {
            window: format(stats.contextWindow),
            reserve: format(stats.outputReserve)
          })}
        </span>
      </div>
      <SectionBar stats={stats} />
    </div>
  )
}
