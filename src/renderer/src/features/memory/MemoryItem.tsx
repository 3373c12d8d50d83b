import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Memory } from '@shared/domain'
import { Icon } from '@renderer/components/Icon'
import { formatActivityTime, formatFullTime } from '@renderer/lib/formatTime'
import { CategoryBadge } from './CategoryBadge'
import { MemoryEditor } from './MemoryEditor'
import { MemoryOriginPanel } from './MemoryOriginPanel'
import { useMemoryListStore } from './memoryListStore'

interface MemoryItemProps {
  memory: Memory
  highlighted: boolean
}

/** One memory: its text and category, edited in place, deleted (with undo), traced to its origin. */
export function MemoryItem({ memory, highlighted }: MemoryItemProps) {
  const { t, i18n } = useTranslation()
  const update = useMemoryListStore((state) => state.update)
  const remove = useMemoryListStore((state) => state.remove)
  const [editing, setEditing] = useState(false)
  const [originOpen, setOriginOpen] = useState(false)
  const rowRef = useRef<HTMLLIElement>(null)

  // A memory opened from a link is brought into view (jsdom has no scrollIntoView).
  useEffect(() => {
    if (highlighted) rowRef.current?.scrollIntoView?.({ block: 'center' })
  }, [highlighted])

  return (
    <li
      ref={rowRef}
      className="memory-item"
      data-testid="memory-item"
      data-memory-id={memory.id}
      data-category={memory.category}
      data-highlighted={highlighted ? 'true' : 'false'}
    >
      {editing ? (
        <MemoryEditor
          initialContent={memory.content}
          initialCategory={memory.category}
          submitLabel={t('memory.editor.save')}
          onCancel={() => setEditing(false)}
          onSubmit={async (content, category) => {
            const change = {
              ...(content !== memory.content && { content }),
              ...(category !== memory.category && { category })
            }
            const saved = Object.keys(change).length === 0 || (await update(memory.id, change))
            if (saved) setEditing(false)
            return saved
          }}
        />
      ) : (
        <>
          <div className="memory-item__head">
            <CategoryBadge category={memory.category} />
            <time
              className="memory-item__time"
              dateTime={new Date(memory.updatedAt).toISOString()}
              title={formatFullTime(memory.updatedAt, i18n.language)}
            >
              {t('memory.updated', { time: formatActivityTime(memory.updatedAt, i18n.language) })}
            </time>
            <div className="memory-item__actions" role="group" aria-label={t('memory.actionsFor')}>
              <button
                type="button"
                className="icon-button"
                data-testid="memory-origin"
                aria-expanded={originOpen}
                aria-label={t('memory.origin')}
                title={t('memory.origin')}
                onClick={() => setOriginOpen(!originOpen)}
              >
                <Icon name="link" />
              </button>
              <button
                type="button"
                className="icon-button"
                data-testid="memory-edit"
                aria-label={t('memory.edit')}
                title={t('memory.edit')}
                onClick={() => setEditing(true)}
              >
                <Icon name="pencil" />
              </button>
              <button
                type="button"
                className="icon-button icon-button--danger"
                data-testid="memory-delete"
                aria-label={t('memory.delete')}
                title={t('memory.delete')}
                onClick={() => void remove(memory)}
              >
                <Icon name="trash" />
              </button>
            </div>
          </div>
          <p className="memory-item__content" data-testid="memory-content">
            {memory.content}
          </p>
        </>
      )}
      {originOpen && <MemoryOriginPanel memoryId={memory.id} version={memory.updatedAt} />}
    </li>
  )
}
