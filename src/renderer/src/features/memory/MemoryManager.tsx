import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { Icon } from '@renderer/components/Icon'
import { MemoryEditor } from './MemoryEditor'
import { MemoryList } from './MemoryList'
import { MemoryStatusPanel } from './MemoryStatusPanel'
import { MemoryToolbar } from './MemoryToolbar'
import { UndoToast } from './UndoToast'
import { useMemoryListStore } from './memoryListStore'
import { useMemoryViewStore } from './memoryViewStore'
import './memory.css'

/**
 * The memory manager, in the chat column's place: what the assistant remembers across
 * threads, how recall is doing, and every memory to search, edit, delete or trace back.
 */
export function MemoryManager() {
  const { t } = useTranslation()
  const titleId = useId()
  const total = useMemoryListStore((state) => state.total)
  const listReady = useMemoryListStore((state) => state.status === 'ready')
  const actionError = useMemoryListStore((state) => state.actionError)
  const notice = useMemoryListStore((state) => state.notice)
  const focusId = useMemoryViewStore((state) => state.focusId)
  const { create, dismissMessages } = useMemoryListStore.getState()
  const [creating, setCreating] = useState(false)

  useEffect(() => useMemoryListStore.getState().watch(), [])

  // A link (from the inspector or a "Remember this" note) asked for one memory.
  useEffect(() => {
    if (focusId === null) return
    void useMemoryListStore.getState().reveal(focusId)
    useMemoryViewStore.getState().clearFocus()
  }, [focusId])

  return (
    <main className="memory-manager" data-testid="memory-manager" aria-labelledby={titleId}>
      <header className="memory-manager__header">
        <div className="memory-manager__titles">
          <h1 id={titleId} className="memory-manager__title">
            {t('memory.title')}
          </h1>
          {listReady && (
            <span className="memory-manager__subtitle">{t('memory.count', { count: total })}</span>
          )}
        </div>
        <button
          type="button"
          className="button"
          data-testid="memory-close"
          onClick={() => useMemoryViewStore.getState().hide()}
        >
          <Icon name="back" />
          {t('memory.close')}
        </button>
      </header>
      <div className="memory-manager__body">
        <div className="memory-manager__content">
          <p className="memory-manager__intro">{t('memory.intro')}</p>
          <MemoryStatusPanel />
          <MemoryToolbar onCreate={() => setCreating(true)} />
          {creating && (
            <MemoryEditor
              submitLabel={t('memory.editor.add')}
              onCancel={() => setCreating(false)}
              onSubmit={async (content, category) => {
                const saved = (await create(content, category)) !== null
                if (saved) setCreating(false)
                return saved
              }}
            />
          )}
          {notice && (
            <div className="banner banner--notice" role="status" data-testid="memory-notice">
              <Icon name="info" />
              <div className="banner__body">{t(`memory.${notice}`)}</div>
              <button
                type="button"
                className="icon-button"
                aria-label={t('common.dismiss')}
                title={t('common.dismiss')}
                onClick={dismissMessages}
              >
                <Icon name="close" />
              </button>
            </div>
          )}
          {actionError && (
            <ErrorBanner onDismiss={dismissMessages}>
              {t('memory.changeFailed', { message: actionError })}
            </ErrorBanner>
          )}
          <MemoryList />
        </div>
      </div>
      <UndoToast />
    </main>
  )
}
