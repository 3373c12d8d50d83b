import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { call } from '../lib/call'
import { ErrorBanner } from './ErrorBanner'

/**
 * After the user chose to start over from a damaged database, say where the old file is kept,
 * so nothing looks silently lost.
 */
export function RecoveryNotice() {
  const { t } = useTranslation()
  const [backupPath, setBackupPath] = useState<string | null>(null)

  useEffect(() => {
    call(window.api.app.info()).then(
      (info) => setBackupPath(info.recoveredFromBackup),
      () => setBackupPath(null)
    )
  }, [])

  if (!backupPath) return null
  return (
    <div className="app__notice" data-testid="recovery-notice">
      <ErrorBanner onDismiss={() => setBackupPath(null)}>
        <span className="banner__title">{t('app.recoveredTitle')}</span>
        {t('app.recoveredBody', { path: backupPath })}
      </ErrorBanner>
    </div>
  )
}
