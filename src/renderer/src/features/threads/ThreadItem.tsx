import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { ThreadListItem } from '@shared/domain'
import { Icon } from '@renderer/components/Icon'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { HistoryDialog } from '@renderer/features/history/HistoryDialog'
import { formatActivityTime, formatFullTime } from '@renderer/lib/formatTime'
import { isImeKeyPress } from '@renderer/lib/ime'
import { ForkOriginLink } from './ForkOriginLink'
import { ThreadStatsCard, ThreadStatsLine } from './ThreadStatsLine'
import { useThreadStatsStore } from './threadStatsStore'
import { useThreadsStore } from './threadsStore'

interface ThreadItemProps {
  thread: ThreadListItem
  active: boolean
  onSelect: (threadId: string) => void
  onRequestDelete: (thread: ThreadListItem) => void
}

/** One row of the sidebar: select on click, rename inline (double-click or the pencil), delete. */
export function ThreadItem({ thread, active, onSelect, onRequestDelete }: ThreadItemProps) {
  const { t, i18n } = useTranslation()
  const rename = useThreadsStore((state) => state.rename)
  const clearRenameError = useThreadsStore((state) => state.clearRenameError)
  const renameError = useThreadsStore((state) =>
    state.renameError?.threadId === thread.id ? state.renameError.message : null
  )
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(thread.title)
  const [saving, setSaving] = useState(false)
  const [exporting, setExporting] = useState(false)
  const stats = useThreadStatsStore((state) => state.byThread[thread.id])
  // Where the stats card sits while the row is hovered or focused (fixed, so the scrolling
  // list does not clip it); null hides it.
  const [card, setCard] = useState<{ left: number; top: number } | null>(null)
  const cardId = useId()
  const rowRef = useRef<HTMLLIElement>(null)
  const mainRef = useRef<HTMLButtonElement>(null)
  // Keyboard users get focus back on the row after Enter/Escape; a click elsewhere keeps its focus.
  const refocusAfterEdit = useRef(false)
  // Refs, not state: the input's blur can fire after Enter already saved, from a stale render.
  const editSession = useRef({ open: false, busy: false })

  useEffect(() => {
    if (!editing && refocusAfterEdit.current) {
      refocusAfterEdit.current = false
      mainRef.current?.focus()
    }
  }, [editing])

  const startEditing = () => {
    editSession.current = { open: true, busy: false }
    setDraft(thread.title)
    clearRenameError()
    setEditing(true)
  }

  const stopEditing = (refocus: boolean) => {
    editSession.current.open = false
    refocusAfterEdit.current = refocus
    clearRenameError()
    setEditing(false)
  }

  const save = async (refocus: boolean) => {
    const session = editSession.current
    if (!session.open || session.busy) return
    if (draft === thread.title) {
      stopEditing(refocus)
      return
    }
    session.busy = true
    setSaving(true)
    const renamed = await rename(thread.id, draft)
    session.busy = false
    setSaving(false)
    // On failure the field stays open with the typed text and the reason below it.
    if (renamed) stopEditing(refocus)
  }

  const showCard = () => {
    const rect = rowRef.current?.getBoundingClientRect()
    // Kept on screen for the last rows; the card is about 220 px tall.
    if (rect)
      setCard({ left: rect.right + 8, top: Math.max(8, Math.min(rect.top, innerHeight - 230)) })
  }
  const hideCard = () => setCard(null)

  const onEditKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (isImeKeyPress(event)) return
    if (event.key === 'Enter') {
      event.preventDefault()
      void save(true)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      stopEditing(true)
    }
  }

  return (
    <li
      ref={rowRef}
      className="thread-item"
      data-testid="thread-item"
      data-thread-id={thread.id}
      data-active={active ? 'true' : 'false'}
      onMouseEnter={showCard}
      onMouseLeave={hideCard}
    >
      {editing ? (
        <div className="thread-item__edit">
          <input
            className="thread-item__input"
            data-testid="thread-title-input"
            aria-label={t('threads.renameLabel')}
            aria-invalid={renameError ? true : undefined}
            value={draft}
            maxLength={200}
            autoFocus
            readOnly={saving}
            onFocus={(event) => event.currentTarget.select()}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onEditKeyDown}
            onBlur={() => void save(false)}
          />
          {renameError && <ErrorBanner>{renameError}</ErrorBanner>}
        </div>
      ) : (
        <>
          <button
            ref={mainRef}
            type="button"
            className="thread-item__main"
            aria-current={active ? 'true' : undefined}
            aria-describedby={card ? cardId : undefined}
            onFocus={showCard}
            onBlur={hideCard}
            onKeyDown={(event) => {
              if (event.key === 'Escape') hideCard()
            }}
            onClick={() => onSelect(thread.id)}
            onDoubleClick={startEditing}
          >
            <span className="thread-item__top">
              <span className="thread-item__title" data-testid="thread-title">
                {thread.title || t('threads.untitled')}
              </span>
              <time
                className="thread-item__time"
                dateTime={new Date(thread.updatedAt).toISOString()}
                title={formatFullTime(thread.updatedAt, i18n.language)}
              >
                {formatActivityTime(thread.updatedAt, i18n.language)}
              </time>
            </span>
            <span className="thread-item__preview">
              {thread.lastMessagePreview ?? t('threads.noMessages')}
            </span>
            <ThreadStatsLine stats={stats} />
          </button>
          {thread.forkedFrom && <ForkOriginLink origin={thread.forkedFrom} />}
          {card && (
            <ThreadStatsCard
              id={cardId}
              title={thread.title || t('threads.untitled')}
              stats={stats}
              position={card}
            />
          )}
          <div
            className="thread-item__actions"
            role="group"
            aria-label={t('threads.actionsFor', { title: thread.title || t('threads.untitled') })}
          >
            <button
              type="button"
              className="icon-button"
              data-testid="thread-rename"
              aria-label={t('threads.rename')}
              title={t('threads.rename')}
              onClick={startEditing}
            >
              <Icon name="pencil" />
            </button>
            <button
              type="button"
              className="icon-button"
              data-testid="thread-export"
              aria-label={t('threads.export')}
              title={t('threads.export')}
              onClick={() => setExporting(true)}
            >
              <Icon name="download" />
            </button>
            <button
              type="button"
              className="icon-button icon-button--danger"
              data-testid="thread-delete"
              aria-label={t('threads.delete')}
              title={t('threads.delete')}
              onClick={() => onRequestDelete(thread)}
            >
              <Icon name="trash" />
            </button>
          </div>
          {exporting && (
            <HistoryDialog
              thread={{ id: thread.id, title: thread.title || t('threads.untitled') }}
              onClose={() => setExporting(false)}
            />
          )}
        </>
      )}
    </li>
  )
}
