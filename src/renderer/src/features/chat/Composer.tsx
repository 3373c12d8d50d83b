import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent
} from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { isImeKeyPress } from '@renderer/lib/ime'
import { useChatStore } from './chatStore'
import { COMPRESS_COMMAND, looksLikeCommand, parseCompressCommand } from './compressCommand'
import { SummaryStatusNotice } from '@renderer/features/summaries/SummaryStatusNotice'
import { CompressNotice } from './CompressNotice'
import { useCompressStore } from './compressStore'
import { FileChips } from '@renderer/features/files/FileChip'
import { FileProblems } from '@renderer/features/files/FileProblems'
import { ThreadFiles } from '@renderer/features/files/ThreadFiles'
import { filesFromDrop, filesFromPaste, hasFiles } from '@renderer/features/files/dropFiles'
import { draftFilesOf, useFilesStore } from '@renderer/features/files/filesStore'

/**
 * Writes a message into the open thread. Enter sends and Shift+Enter breaks the line, except
 * while an input method is composing (Chinese, Japanese…): there Enter confirms the candidate
 * and must never send half-typed text. "/compress [focus]" is a command, never a message: it
 * folds the older part of the thread into its summary (see compressStore). Files dropped on
 * it, pasted into it or picked with the paperclip go with the next message (features/files).
 */
export function Composer({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const text = useChatStore((state) => state.drafts[threadId] ?? '')
  const ready = useChatStore((state) => state.threadId === threadId && state.status === 'ready')
  const sending = useChatStore((state) => state.sendingThreadId === threadId)
  const streaming = useChatStore((state) => Boolean(state.streams[threadId]))
  const stop = useChatStore((state) => state.stop)
  const setDraft = useChatStore((state) => state.setDraft)
  const send = useChatStore((state) => state.send)
  const compressing = useCompressStore((state) => state.notices[threadId]?.kind === 'running')
  const compress = useCompressStore((state) => state.compress)
  const composing = useRef(false)
  const inputRef = useRef<HTMLTextAreaElement>(null)
  const fileList = useFilesStore((state) => state.byThread[threadId])
  const draftFiles = useMemo(() => draftFilesOf(fileList), [fileList])
  const readingFiles = useFilesStore((state) => state.reading[threadId] ?? 0)
  const [dropping, setDropping] = useState(false)

  useEffect(() => {
    void useFilesStore.getState().load(threadId)
    return useFilesStore.getState().watch()
  }, [threadId])

  const attach = (files: File[]) => {
    if (files.length > 0) void useFilesStore.getState().attachFiles(threadId, 'message', files)
  }
  const onDrop = (event: DragEvent) => {
    setDropping(false)
    if (!hasFiles(event)) return
    event.preventDefault()
    attach(filesFromDrop(event))
  }

  const canSend = ready && !sending && !streaming && !compressing && text.trim() !== ''

  const submit = () => {
    if (!canSend) return
    const command = parseCompressCommand(text)
    // The stores clear the draft only once main has answered; on failure it stays.
    if (command) void compress(threadId, command.focusTopic)
    else void send(text)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey) return
    // compositionstart/end cover input methods whose key events carry neither IME marker.
    if (isImeKeyPress(event) || composing.current) return
    event.preventDefault()
    submit()
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    submit()
  }

  return (
    <form
      className={`composer${dropping ? ' composer--dropping' : ''}`}
      data-testid="composer"
      onSubmit={onSubmit}
      onDragOver={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        setDropping(true)
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      <CompressNotice threadId={threadId} />
      <FileProblems threadId={threadId} />
      <ThreadFiles threadId={threadId} />
      <SummaryStatusNotice threadId={threadId} />
      {looksLikeCommand(text) && (
        <button
          type="button"
          className="composer__command"
          data-testid="composer-command-compress"
          onClick={() => {
            if (!parseCompressCommand(text)) setDraft(threadId, `${COMPRESS_COMMAND} `)
            inputRef.current?.focus()
          }}
        >
          <code>{t('compress.usage')}</code>
          <span>{t('compress.help')}</span>
        </button>
      )}
      {(draftFiles.length > 0 || readingFiles > 0) && (
        <div className="composer__files">
          <FileChips
            files={draftFiles}
            testId="draft-file-chips"
            onRemove={(file) => void useFilesStore.getState().remove(threadId, file.id)}
          />
          {readingFiles > 0 && (
            <span className="composer__reading" data-testid="files-reading" role="status">
              {t('files.reading', { count: readingFiles })}
            </span>
          )}
        </div>
      )}
      {dropping && <p className="composer__drop">{t('files.dropHere')}</p>}
      <div className="composer__box">
        <button
          type="button"
          className="icon-button composer__attach"
          data-testid="attach-button"
          aria-label={t('files.attach')}
          title={t('files.attach')}
          onClick={() => void useFilesStore.getState().pick(threadId, 'message')}
        >
          <Icon name="paperclip" />
        </button>
        <textarea
          ref={inputRef}
          className="composer__input"
          data-testid="composer-input"
          aria-label={t('chat.composerLabel')}
          placeholder={t('chat.placeholder')}
          rows={1}
          value={text}
          autoFocus
          readOnly={sending || compressing}
          onChange={(event) => setDraft(threadId, event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            const files = filesFromPaste(event)
            if (files.length === 0) return
            event.preventDefault()
            attach(files)
          }}
          onCompositionStart={() => {
            composing.current = true
          }}
          onCompositionEnd={() => {
            composing.current = false
          }}
        />
        {streaming ? (
          <button
            type="button"
            className="composer__send composer__send--stop"
            data-testid="stop-button"
            aria-label={t('chat.stop')}
            title={t('chat.stop')}
            onClick={() => void stop()}
          >
            <Icon name="stop" />
          </button>
        ) : (
          <button
            type="submit"
            className="composer__send"
            data-testid="send-button"
            disabled={!canSend}
            aria-label={t('chat.send')}
            title={t('chat.send')}
          >
            <Icon name="send" />
          </button>
        )}
      </div>
      <p className="composer__hint">
        {t('chat.hint')} · {t('compress.discover')}
      </p>
    </form>
  )
}
