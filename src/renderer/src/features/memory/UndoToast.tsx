import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useMemoryListStore } from './memoryListStore'

/** Offered for a while after a delete; main keeps the deleted memory in its history. */
export function UndoToast() {
  const { t } = useTranslation()
  const deleted = useMemoryListStore((state) => state.deleted)
  const { undo, dismissUndo } = useMemoryListStore.getState()
  if (!deleted) return null
  return (
    <div className="toast" role="status" data-testid="memory-undo-toast">
      <span>{t('memory.deleted')}</span>
      <button
        type="button"
        className="toast__action"
        data-testid="memory-undo"
        onClick={() => void undo()}
      >
        {t('memory.undo')}
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t('common.dismiss')}
        title={t('common.dismiss')}
        onClick={dismissUndo}
      >
        <Icon name="close" />
      </button>
    </div>
  )
}
