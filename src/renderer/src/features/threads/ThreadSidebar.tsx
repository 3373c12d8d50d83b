import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SearchHit, ThreadListItem } from '@shared/domain'
import { ConfirmDialog } from '@renderer/components/ConfirmDialog'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { Icon } from '@renderer/components/Icon'
import { HistorySidebarEntry } from '@renderer/features/history/HistorySidebarEntry'
import { MemorySidebarEntry } from '@renderer/features/memory/MemorySidebarEntry'
import { useMemoryViewStore } from '@renderer/features/memory/memoryViewStore'
import { openThreadAt } from '@renderer/features/memory/navigation'
import { LanguageSelect } from '@renderer/features/settings/LanguageSelect'
import { ThemeSelect } from '@renderer/features/settings/ThemeSelect'
import { SettingsError } from '@renderer/features/settings/SettingsError'
import { SearchBox } from './SearchBox'
import { SearchResults } from './SearchResults'
import type { SemanticHit } from './semanticMatches'
import { ThreadItem } from './ThreadItem'
import { ThreadOrderSelect } from './ThreadOrderSelect'
import { orderThreads, useThreadStatsStore } from './threadStatsStore'
import { useSearchStore } from './searchStore'
import { useThreadsStore } from './threadsStore'
import './threads.css'

export function ThreadSidebar() {
  const { t } = useTranslation()
  const threads = useThreadsStore((state) => state.threads)
  const status = useThreadsStore((state) => state.status)
  const selectedId = useThreadsStore((state) => state.selectedId)
  const error = useThreadsStore((state) => state.error)
  const { create, remove, dismissError } = useThreadsStore.getState()
  const searching = useSearchStore((state) => state.query.trim() !== '')
  const [pendingDelete, setPendingDelete] = useState<ThreadListItem | null>(null)
  const [deleting, setDeleting] = useState(false)
  const byThread = useThreadStatsStore((state) => state.byThread)
  const order = useThreadStatsStore((state) => state.order)
  const shown = order === 'recent' ? threads : orderThreads(threads, byThread, order)

  // Each row's stats come with the list and the build events; nothing is fetched per row.
  useEffect(() => useThreadStatsStore.getState().watch(), [])

  const pickHit = (hit: SearchHit) => {
    openThreadAt(hit.threadId, hit.messageId)
    useSearchStore.getState().clear()
  }

  const pickSemanticHit = (hit: SemanticHit) => {
    openThreadAt(hit.threadId, hit.id)
    useSearchStore.getState().clear()
  }

  // A new thread opens in the chat column, which the memory manager may be covering.
  const createThread = () => {
    useMemoryViewStore.getState().hide()
    void create()
  }

  const confirmDelete = async () => {
    if (!pendingDelete) return
    setDeleting(true)
    await remove(pendingDelete.id)
    setDeleting(false)
    setPendingDelete(null)
  }

  return (
    <aside className="sidebar">
      <header className="sidebar__header">
        <div className="brand">
          <span className="brand__mark" aria-hidden="true">
            <Icon name="layers" />
          </span>
          <span className="brand__name">{t('app.name')}</span>
        </div>
        <button
          type="button"
          className="button button--primary sidebar__new"
          data-testid="new-thread"
          onClick={createThread}
        >
          <Icon name="plus" />
          {t('threads.newThread')}
        </button>
        <SearchBox />
      </header>

      {error && (
        <div className="sidebar__message">
          <ErrorBanner onDismiss={dismissError}>{error}</ErrorBanner>
        </div>
      )}

      <nav className="sidebar__body" aria-label={t('threads.listLabel')}>
        {searching ? (
          <SearchResults onPick={pickHit} onPickSemantic={pickSemanticHit} />
        ) : status !== 'ready' ? (
          <p className="sidebar__message">{t('threads.loading')}</p>
        ) : threads.length === 0 ? (
          <div className="sidebar__empty">
            <p className="sidebar__empty-title">{t('threads.emptyTitle')}</p>
            <p>{t('threads.emptyBody')}</p>
          </div>
        ) : (
          <>
            <ThreadOrderSelect shown={shown.length} total={threads.length} />
            <ul className="thread-list">
              {shown.map((thread) => (
                <ThreadItem
                  key={thread.id}
                  thread={thread}
                  active={thread.id === selectedId}
                  onSelect={openThreadAt}
                  onRequestDelete={setPendingDelete}
                />
              ))}
            </ul>
          </>
        )}
      </nav>

      <footer className="sidebar__footer">
        <MemorySidebarEntry />
        <HistorySidebarEntry />
        <SettingsError />
        <LanguageSelect />
        <ThemeSelect />
      </footer>

      {pendingDelete && (
        <ConfirmDialog
          title={t('threads.deleteTitle')}
          description={t('threads.deleteBody', {
            title: pendingDelete.title || t('threads.untitled')
          })}
          confirmLabel={t('threads.deleteConfirm')}
          busy={deleting}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setPendingDelete(null)}
        />
      )}
    </aside>
  )
}
