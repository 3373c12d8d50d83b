import { useTranslation } from 'react-i18next'
import { SECTIONS, type SectionName, type TokenStats } from '@shared/context'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import './sectionBar.css'

type BarStats = Pick<TokenStats, 'sections' | 'total' | 'budget'>

interface SectionBarProps {
  stats: BarStats
  /** `regular` in the inspector, `compact` by the composer, `thin` in the sidebar. */
  size?: 'regular' | 'compact' | 'thin'
  testId?: string
  /** A mark on the bar in tokens (the 85 % safety limit); drawn when inside the bar. */
  marker?: number
  /** Hidden from assistive technology when the caller says the same in words nearby. */
  decorative?: boolean
}

/**
 * What a request used, one coloured segment per section, against its total budget. Section
 * budgets overlap (unused budget is offered on), so they cannot be stacked honestly; the bar
 * stacks what each section used. The inspector, the chat's gauge and the sidebar all draw it,
 * from the same `tokenStats`.
 */
export function SectionBar({
  stats,
  size = 'regular',
  testId = 'budget-bar',
  marker,
  decorative = false
}: SectionBarProps) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  // An input or pinned message over budget is still sent: the bar then widens to the total
  // and marks where the budget ends, rather than cutting off what was sent.
  const scale = Math.max(stats.budget, stats.total, 1)
  const percent = (tokens: number) => `${(tokens / scale) * 100}%`
  const segmentTitle = (section: SectionName) =>
    t('inspector.budget.segment', {
      section: t(`inspector.sections.${section}`),
      used: format(stats.sections[section].used),
      budget: format(stats.sections[section].budget)
    })

  return (
    <div
      className={`budget-bar budget-bar--${size}`}
      data-testid={testId}
      data-used={stats.total}
      data-budget={stats.budget}
      {...(decorative
        ? { 'aria-hidden': true }
        : {
            role: 'img',
            'aria-label': `${t('inspector.budget.barLabel')}: ${SECTIONS.map(segmentTitle).join('; ')}`
          })}
    >
      {SECTIONS.map((section) => (
        <span
          key={section}
          className="budget-bar__segment"
          data-testid="budget-segment"
          data-section={section}
          data-used={stats.sections[section].used}
          style={{ width: percent(stats.sections[section].used) }}
          title={decorative ? undefined : segmentTitle(section)}
        />
      ))}
      {stats.total > stats.budget && (
        <span className="budget-bar__limit" style={{ left: percent(stats.budget) }} />
      )}
      {marker !== undefined && marker < scale && (
        <span
          className="budget-bar__marker"
          data-testid={`${testId}-marker`}
          style={{ left: percent(marker) }}
        />
      )}
    </div>
  )
}
