import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ExportFormat } from '@shared/history'
import { useHistoryStore } from './historyStore'

/** Export one thread (threadId) or all of them, as Markdown or JSON, optionally with the requests sent. */
export function ExportControls({ threadId }: { threadId?: string }) {
  const { t } = useTranslation()
  const id = useId()
  const [format, setFormat] = useState<ExportFormat>('md')
  const [withRequests, setWithRequests] = useState(false)
  const view = useHistoryStore((state) => state.exportView)
  const exportHistory = useHistoryStore((state) => state.exportHistory)

  return (
    <section className="history-section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="history-section__title">
        {threadId ? t('history.exportThreadHeading') : t('history.exportAllHeading')}
      </h3>
      <fieldset className="history-formats">
        <legend>{t('history.formatLabel')}</legend>
        {(['md', 'json'] as const).map((value) => (
          <label key={value} className="history-check">
            <input
              type="radio"
              name={`${id}-format`}
              data-testid={`export-format-${value}`}
              checked={format === value}
              onChange={() => setFormat(value)}
            />
            {t(`history.format.${value}`)}
          </label>
        ))}
      </fieldset>
      <label className="history-check">
        <input
          type="checkbox"
          data-testid="export-with-requests"
          checked={withRequests}
          onChange={(event) => setWithRequests(event.target.checked)}
        />
        {t('history.withRequests')}
      </label>
      <div className="history-row">
        <button
          type="button"
          className="button button--primary"
          data-testid="export-save"
          disabled={view.state === 'saving'}
          onClick={() =>
            void exportHistory({ format, withRequests, ...(threadId && { threadId }) })
          }
        >
          {view.state === 'saving' ? t('history.exporting') : t('history.exportButton')}
        </button>
      </div>
      {view.state === 'saved' && (
        <p className="history-summary" data-testid="export-result" role="status">
          {t('history.exported', {
            count: view.result.threads,
            messages: view.result.messages,
            path: view.result.path
          })}
        </p>
      )}
    </section>
  )
}
