import { useRef, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { isImeKeyPress } from '@renderer/lib/ime'
import { useChatStore } from './chatStore'
import { COMPRESS_COMMAND, looksLikeCommand, parseCompressCommand } from './compressCommand'
import { SummaryStatusNotice } from '@renderer/features/summaries/SummaryStatusNotice'
import { CompressNotice } from './CompressNotice'
import { useCompressStore } from './compressStore'

/**
 * Writes a message into the open thread. Enter sends and Shift+Enter breaks the line, except
 * while an input method is composing (Chinese, Japanese…): there Enter confirms the candidate
 * and must never send half-typed text. "/compress [focus]" is a command, never a message: it
 * folds the older part of the thread into its summary (see compressStore).
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
    <form className="composer" onSubmit={onSubmit}>
      <CompressNotice threadId={threadId} />
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
      <div className="composer__box">
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
