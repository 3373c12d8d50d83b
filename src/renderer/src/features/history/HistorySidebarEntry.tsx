import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { HistoryDialog } from './HistoryDialog'
import { useHistoryStore } from './historyStore'

/** The way to import and export, with a running import's progress beside it. */
export function HistorySidebarEntry() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const view = useHistoryStore((state) => state.importView)
  return (
    <div className="history-entry">
      <button
        type="button"
        className="memory-entry__button"
        data-testid="open-history"
        onClick={() => setOpen(true)}
      >
        <Icon name="download" />
        {t('history.open')}
      </button>
      {view.state === 'running' && (
        <span className="history-entry__status" data-testid="history-entry-status">
          {t('history.progress', {
            conversations: view.progress?.conversations ?? 0,
            messages: view.progress?.messages ?? 0
          })}
        </span>
      )}
      {open && <HistoryDialog onClose={() => setOpen(false)} />}
    </div>
  )
}
