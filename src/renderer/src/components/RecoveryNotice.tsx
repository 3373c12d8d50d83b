import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AppInfo, SalvageReport } from '@shared/domain'
import { call } from '../lib/call'
import { ErrorBanner } from './ErrorBanner'

type Recovery = Pick<AppInfo, 'recoveredFromBackup' | 'salvage'>

/**
 * After a damaged database was salvaged, say what was recovered, what could not be read and
 * where the damaged file is kept, so nothing looks silently lost.
 */
export function RecoveryNotice() {
  const { t } = useTranslation()
  const [recovery, setRecovery] = useState<Recovery | null>(null)

  useEffect(() => {
    call(window.api.app.info()).then(
      (info) => setRecovery(info),
      () => setRecovery(null)
    )
  }, [])

  if (!recovery?.recoveredFromBackup) return null
  return (
    <div className="app__notice" data-testid="recovery-notice">
      <ErrorBanner onDismiss={() => setRecovery(null)}>
        <span className="banner__title">{t('app.recoveredTitle')}</span>
        {t('app.recoveredBody', { path: recovery.recoveredFromBackup })}
        {recovery.salvage && <SalvageSummary report={recovery.salvage} />}
      </ErrorBanner>
    </div>
  )
}

function SalvageSummary({ report }: { report: SalvageReport }) {
  const { t } = useTranslation()
  if (!report.schemaReadable) return <p>{t('app.recoveredNothing')}</p>
  const list = (counts: { table: string; count: number }[]) =>
    counts
      .filter(({ count }) => count > 0)
      .map(({ table, count }) =>
        t(`app.recoveredTables.${table as 'threads'}`, { count, defaultValue: `${count} ${table}` })
      )
      .join(', ')
  const copied = list(report.tables.map((r) => ({ table: r.table, count: r.copied })))
  const lost = list(report.tables.map((r) => ({ table: r.table, count: r.unreadable + r.invalid })))
  const unknown = report.tables
    .filter((r) => r.unknownLoss)
    .map((r) => t(`app.recoveredTableNames.${r.table as 'threads'}`, { defaultValue: r.table }))
    .join(', ')
  return (
    <>
      {copied && <p data-testid="recovery-copied">{t('app.recoveredCopied', { list: copied })}</p>}
      {lost && <p data-testid="recovery-lost">{t('app.recoveredLost', { list: lost })}</p>}
      {unknown && (
        <p data-testid="recovery-unknown">{t('app.recoveredUnknown', { tables: unknown })}</p>
      )}
    </>
  )
}
