import { useRef, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { isImeKeyPress } from '@renderer/lib/ime'
import { useChatStore } from './chatStore'

/**
 * Writes a message into the open thread. Enter sends and Shift+Enter breaks the line, except
 * while an input method is composing (Chinese, Japanese…): there Enter confirms the candidate
 * and must never send half-typed text.
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
  const composing = useRef(false)

  const canSend = ready && !sending && !streaming && text.trim() !== ''

  const submit = () => {
    // The store clears the draft only once main has stored the message; on failure it stays.
    if (canSend) void send(text)
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
      <div className="composer__box">
        <textarea
          className="composer__input"
          data-testid="composer-input"
          aria-label={t('chat.composerLabel')}
          placeholder={t('chat.placeholder')}
          rows={1}
          value={text}
          autoFocus
          readOnly={sending}
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
      <p className="composer__hint">{t('chat.hint')}</p>
    </form>
  )
}
