import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useHistoryStore } from './historyStore'
import { ImportSummaryView } from './ImportSummaryView'

/** Choose a file (main's dialog), follow the import's progress, cancel it, read its summary. */
export function ImportControls() {
  const { t } = useTranslation()
  const id = useId()
  const [withBranches, setWithBranches] = useState(false)
  const view = useHistoryStore((state) => state.importView)
  const { startImport, cancelImport } = useHistoryStore.getState()
  const busy = view.state === 'choosing' || view.state === 'running'

  return (
    <section className="history-section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="history-section__title">
        {t('history.importHeading')}
      </h3>
      <p className="history-section__hint">{t('history.importHint')}</p>
      <label className="history-check">
        <input
          type="checkbox"
          data-testid="import-with-branches"
          checked={withBranches}
          disabled={busy}
          onChange={(event) => setWithBranches(event.target.checked)}
        />
        {t('history.withBranches')}
      </label>
      <div className="history-row">
        <button
          type="button"
          className="button button--primary"
          data-testid="import-choose"
          disabled={busy}
          onClick={() => void startImport(withBranches)}
        >
          {t('history.chooseFile')}
        </button>
      </div>
      {view.state === 'running' && (
        <div className="history-progress" data-testid="import-progress" role="status">
          <p>{t('history.importing', { file: view.fileName })}</p>
          <progress
            max={view.progress?.totalBytes || 1}
            value={view.progress ? view.progress.bytesRead : 0}
          />
          <p data-testid="import-progress-counts">
            {t('history.progress', {
              conversations: view.progress?.conversations ?? 0,
              messages: view.progress?.messages ?? 0
            })}
          </p>
          <button
            type="button"
            className="button"
            data-testid="import-cancel"
            disabled={view.cancelling}
            onClick={() => void cancelImport()}
          >
            {view.cancelling ? t('history.cancelling') : t('history.cancel')}
          </button>
        </div>
      )}
      {view.state === 'done' && (
        <ImportSummaryView fileName={view.fileName} summary={view.summary} />
      )}
    </section>
  )
}
