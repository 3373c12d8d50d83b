import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { BackupInfo } from '@shared/domain'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { formatFullTime } from '@renderer/lib/formatTime'
import { useBackupStore } from './backupStore'
import './backup.css'

/**
 * Settings: back up now (with progress), the kept backups, and restore one of them or a file.
 * A restore asks first; the current conversations are kept aside, never deleted.
 */
export function BackupSection() {
  const { t } = useTranslation()
  const { backups, progress, restoring, restored, error } = useBackupStore()
  const [confirming, setConfirming] = useState<string | null>(null)
  useEffect(() => void useBackupStore.getState().load(), [])
  const store = useBackupStore.getState()
  const busy = progress !== null || restoring || restored !== null

  return (
    <section className="backup" data-testid="backup-section" aria-labelledby="backup-title">
      <h3 id="backup-title" className="backup__title">
        {t('backup.title')}
      </h3>
      <p className="backup__explain">{t('backup.explain')}</p>
      <div className="backup__actions">
        <button
          type="button"
          className="button button--primary"
          data-testid="backup-now"
          disabled={busy}
          onClick={() => void store.backUp()}
        >
          {t('backup.now')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="backup-restore-file"
          disabled={busy}
          onClick={() => void store.restore(null)}
        >
          {t('backup.restoreFile')}
        </button>
        {progress !== null && (
          <progress
            className="backup__progress"
            data-testid="backup-progress"
            aria-label={t('backup.progress')}
            value={progress}
            max={1}
          />
        )}
      </div>
      {error && <ErrorBanner onDismiss={store.dismissError}>{error}</ErrorBanner>}
      {restored && (
        <p className="backup__restored" role="status" data-testid="backup-restored">
          {t('backup.restored', {
            threads: restored.threads,
            messages: restored.messages,
            keptAt: restored.keptAt
          })}
        </p>
      )}
      {backups.length === 0 ? (
        <p className="backup__empty">{t('backup.none')}</p>
      ) : (
        <ul className="backup__list" data-testid="backup-list">
          {backups.map((backup) => (
            <BackupRow
              key={backup.name}
              backup={backup}
              busy={busy}
              confirming={confirming === backup.name}
              onAsk={() => setConfirming(backup.name)}
              onCancel={() => setConfirming(null)}
              onRestore={() => {
                setConfirming(null)
                void store.restore(backup.name)
              }}
            />
          ))}
        </ul>
      )}
    </section>
  )
}

function BackupRow(props: {
  backup: BackupInfo
  busy: boolean
  confirming: boolean
  onAsk: () => void
  onCancel: () => void
  onRestore: () => void
}) {
  const { t, i18n } = useTranslation()
  const { backup, busy, confirming } = props
  return (
    <li className="backup__row" data-testid="backup-row" data-name={backup.name}>
      <span className="backup__when">{formatFullTime(backup.createdAt, i18n.language)}</span>
      <span className="backup__reason">{t(`backup.reasons.${backup.reason}`)}</span>
      <span className="backup__size">
        {t('backup.size', { mb: (backup.bytes / 1e6).toFixed(1) })}
      </span>
      {confirming ? (
        <span className="backup__confirm" role="group" aria-label={t('backup.confirm')}>
          <span>{t('backup.confirm')}</span>
          <button
            type="button"
            className="button button--danger"
            data-testid="backup-restore-confirm"
            onClick={props.onRestore}
          >
            {t('backup.restore')}
          </button>
          <button type="button" className="button" onClick={props.onCancel}>
            {t('common.cancel')}
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="button"
          data-testid="backup-restore"
          disabled={busy}
          onClick={props.onAsk}
        >
          {t('backup.restore')}
        </button>
      )}
    </li>
  )
}
