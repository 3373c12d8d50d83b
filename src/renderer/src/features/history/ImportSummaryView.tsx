import { useTranslation } from 'react-i18next'
import { SKIP_REASONS, type ImportSummary } from '@shared/history'
import { ErrorBanner } from '@renderer/components/ErrorBanner'

/** What an import did: what came in, what was left out and why, and why it stopped if it did. */
export function ImportSummaryView({
  fileName,
  summary
}: {
  fileName: string
  summary: ImportSummary
}) {
  const { t } = useTranslation()
  const skipped = SKIP_REASONS.filter((reason) => (summary.skipped[reason] ?? 0) > 0)
  return (
    <div className="history-summary" data-testid="import-summary" role="status">
      <p className="history-summary__title">
        {summary.cancelled
          ? t('history.cancelledTitle', { file: fileName })
          : summary.error
            ? t('history.stoppedTitle', { file: fileName })
            : t('history.doneTitle', { file: fileName })}
      </p>
      {summary.format && (
        <p>{t('history.detectedFormat', { format: t(`history.formats.${summary.format}`) })}</p>
      )}
      <p data-testid="import-summary-counts">
        {t('history.importedCounts', {
          count: summary.threads,
          messages: summary.messages,
          forks: summary.forks,
          memories: summary.memories
        })}
      </p>
      {summary.placeholders > 0 && (
        <p>{t('history.placeholders', { count: summary.placeholders })}</p>
      )}
      {skipped.length > 0 && (
        <>
          <p>{t('history.skippedHeading')}</p>
          <ul className="history-summary__skipped" data-testid="import-summary-skipped">
            {skipped.map((reason) => (
              <li key={reason} data-reason={reason}>
                {t(`history.skipped.${reason}`, { count: summary.skipped[reason] ?? 0 })}
              </li>
            ))}
          </ul>
        </>
      )}
      {summary.error && <ErrorBanner>{summary.error}</ErrorBanner>}
      {summary.messages > 0 && <p className="history-section__hint">{t('history.indexingHint')}</p>}
    </div>
  )
}
