import { useMemo, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { FileChips } from './FileChip'
import { filesFromDrop, hasFiles } from './dropFiles'
import { threadFilesOf, useFilesStore } from './filesStore'

/** Files sent with every turn of the thread: chips, an add button, and a drop target. */
export function ThreadFiles({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const list = useFilesStore((state) => state.byThread[threadId])
  const files = useMemo(() => threadFilesOf(list), [list])
  const [over, setOver] = useState(false)
  const { pick, remove, attachFiles } = useFilesStore.getState()

  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return
    event.preventDefault()
    // The composer below must not take the same files for the message.
    event.stopPropagation()
    setOver(false)
    void attachFiles(threadId, 'thread', filesFromDrop(event))
  }

  return (
    <section
      className={`thread-files${over ? ' thread-files--over' : ''}`}
      data-testid="thread-files"
      aria-label={t('files.threadFiles')}
      title={t('files.threadFilesHint')}
      onDragOver={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        event.stopPropagation()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <span className="thread-files__label">{t('files.threadFiles')}</span>
      <FileChips
        files={files}
        testId="thread-file-chips"
        onRemove={(file) => void remove(threadId, file.id)}
      />
      <button
        type="button"
        className="icon-button thread-files__add"
        data-testid="thread-files-add"
        aria-label={t('files.attachThread')}
        title={t('files.attachThread')}
        onClick={() => void pick(threadId, 'thread')}
      >
        <Icon name="plus" />
      </button>
    </section>
  )
}
