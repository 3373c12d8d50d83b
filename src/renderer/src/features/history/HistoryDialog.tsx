import { useTranslation } from 'react-i18next'
import { Dialog } from '@renderer/components/Dialog'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { ExportControls } from './ExportControls'
import { useHistoryStore } from './historyStore'
import { ImportControls } from './ImportControls'
import './history.css'

/**
 * Import and export of all conversations, or export of one (threadId). Closing it does not
 * stop a running import: the sidebar entry keeps showing its progress.
 */
export function HistoryDialog({
  thread,
  onClose
}: {
  thread?: { id: string; title: string }
  onClose: () => void
}) {
  const { t } = useTranslation()
  const error = useHistoryStore((state) => state.error)
  const close = () => {
    useHistoryStore.getState().dismiss()
    onClose()
  }
  return (
    <Dialog
      title={thread ? t('history.exportThreadTitle', { title: thread.title }) : t('history.title')}
      onClose={close}
      testId="history-dialog"
      wide
    >
      {!thread && <ImportControls />}
      <ExportControls {...(thread && { threadId: thread.id })} />
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <div className="dialog__actions">
        <button type="button" className="button" data-testid="history-close" onClick={close}>
          {t('history.close')}
        </button>
      </div>
    </Dialog>
  )
}
