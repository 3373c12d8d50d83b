import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useExtractedStore } from './extractedStore'
import { openMemory } from './navigation'
import './memory.css'

/** Under a user message: what the assistant remembered from it on its own, with Forget/Undo. */
export function ExtractedMemories({ messageId }: { messageId: number }) {
  const { t } = useTranslation()
  const notes = useExtractedStore((state) => state.byMessage[messageId])
  if (!notes?.length) return null
  const { forget, undo } = useExtractedStore.getState()
  return (
    <ul
      className="extracted-memories"
      data-testid="extracted-memories"
      aria-label={t('memory.extracted.label')}
    >
      {notes.map((note) => (
        <li
          key={note.memoryId}
          className="extracted-memory"
          data-testid="extracted-memory"
          data-memory-id={note.memoryId}
          data-forgotten={note.forgotten}
        >
          <Icon name="bookmark" />
          <span className="extracted-memory__label">
            {note.forgotten
              ? t('memory.extracted.forgotten')
              : t(`memory.extracted.${note.action}`)}
          </span>{' '}
          <button
            type="button"
            className="extracted-memory__content"
            title={t('memory.remember.open')}
            disabled={note.forgotten}
            onClick={() => openMemory(note.memoryId)}
          >
            {note.content}
          </button>
          {note.action === 'created' && (
            <button
              type="button"
              className="button extracted-memory__action"
              data-testid={note.forgotten ? 'extracted-memory-undo' : 'extracted-memory-forget'}
              onClick={() => void (note.forgotten ? undo : forget)(messageId, note.memoryId)}
            >
              {note.forgotten ? t('memory.extracted.undo') : t('memory.extracted.forget')}
            </button>
          )}
          {note.error && (
            <span className="extracted-memory__error" role="alert">
              {note.error}
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}
