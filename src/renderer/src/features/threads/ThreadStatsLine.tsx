import { useTranslation } from 'react-i18next'
import { SECTIONS, type TokenStats } from '@shared/context'
import type { ThreadStats } from '@shared/domain'
import { SectionBar } from '@renderer/features/inspector/SectionBar'
import { formatCost } from '@renderer/lib/formatCost'
import { useFormatCompact, useFormatNumber } from '@renderer/lib/formatNumber'
import { formatFullTime } from '@renderer/lib/formatTime'

const percentOf = (stats: TokenStats): number =>
  Math.round((stats.total / Math.max(1, stats.budget)) * 100)

/**
 * A thread's last request at a glance, under its title: a thin bar per section in the
 * inspector's colours and the token total, said in words for screen readers.
 */
export function ThreadStatsLine({ stats }: { stats: ThreadStats | undefined }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const compact = useFormatCompact()
  const tokenStats = stats?.lastBuild?.tokenStats
  if (!tokenStats) {
    return (
      <span className="thread-stats thread-stats--empty" data-testid="thread-stats" data-used="">
        {t('threadStats.noBuild')}
      </span>
    )
  }
  return (
    <span
      className="thread-stats"
      data-testid="thread-stats"
      data-used={tokenStats.total}
      data-budget={tokenStats.budget}
      data-build-id={stats?.lastBuild?.buildId}
    >
      <SectionBar stats={tokenStats} size="thin" testId="thread-stats-bar" decorative />
      <span className="thread-stats__total" aria-hidden="true">
        {t('threadStats.total', { tokens: compact(tokenStats.total) })}
      </span>
      <span className="visually-hidden">
        {t('threadStats.barLabel', {
          used: format(tokenStats.total),
          budget: format(tokenStats.budget),
          percent: percentOf(tokenStats)
        })}
      </span>
    </span>
  )
}

interface ThreadStatsCardProps {
  id: string
  title: string
  stats: ThreadStats | undefined
  position: { left: number; top: number }
}

/** Shown while a row is hovered or focused: the breakdown, the cost so far, the summary's time. */
export function ThreadStatsCard({ id, title, stats, position }: ThreadStatsCardProps) {
  const { t, i18n } = useTranslation()
  const format = useFormatNumber()
  const last = stats?.lastBuild ?? null
  const cost = stats?.cost ?? null
  const unpriced = stats?.unpricedReplies ?? 0
  const costLine =
    cost === null
      ? t('threadStats.costNone')
      : unpriced > 0
        ? t('threadStats.costPartial', { cost: formatCost(cost), count: unpriced })
        : t('threadStats.cost', { cost: formatCost(cost) })

  return (
    <div
      className="thread-stats-card"
      id={id}
      role="tooltip"
      data-testid="thread-stats-card"
      style={{ left: position.left, top: position.top }}
    >
      <p className="thread-stats-card__title">{t('threadStats.details', { title })}</p>
      {last ? (
        <>
          <p>
            {t('threadStats.lastBuild', {
              time: formatFullTime(last.createdAt, i18n.language),
              used: format(last.tokenStats.total),
              budget: format(last.tokenStats.budget),
              percent: percentOf(last.tokenStats)
            })}
          </p>
          <ul className="thread-stats-card__sections">
            {SECTIONS.map((section) => (
              <li key={section} data-section={section} data-testid="thread-stats-section">
                <span className="thread-stats-card__swatch" aria-hidden="true" />
                {t('threadStats.section', {
                  section: t(`inspector.sections.${section}`),
                  used: format(last.tokenStats.sections[section].used)
                })}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{t('threadStats.noBuild')}</p>
      )}
      <p data-testid="thread-stats-cost">{costLine}</p>
      <p data-testid="thread-stats-summary">
        {stats?.summaryUpdatedAt
          ? t('threadStats.summaryAt', {
              time: formatFullTime(stats.summaryUpdatedAt, i18n.language)
            })
          : t('threadStats.summaryNever')}
      </p>
    </div>
  )
}
