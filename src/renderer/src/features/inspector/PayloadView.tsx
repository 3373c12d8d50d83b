import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ProviderMessage } from '@shared/context'
import { Icon } from '@renderer/components/Icon'
import { useIncrementalList } from './useIncrementalList'

/** Messages mounted before "Show more"; each can be a long paste. */
const PAGE_SIZE = 50
/** How long the copy button says what happened. */
const COPY_FEEDBACK_MS = 2000

type CopyState = 'idle' | 'copied' | 'failed'

/** The request's messages exactly as the provider receives them: nothing trimmed or rendered. */
export function PayloadView({ messages }: { messages: ProviderMessage[] }) {
  const { t } = useTranslation()
  const { visible, hidden, showMore } = useIncrementalList(messages, PAGE_SIZE)
  const [copy, setCopy] = useState<CopyState>('idle')

  useEffect(() => {
    if (copy === 'idle') return
    const timer = setTimeout(() => setCopy('idle'), COPY_FEEDBACK_MS)
    return () => clearTimeout(timer)
  }, [copy])

  const copyJson = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(messages, null, 2))
      setCopy('copied')
    } catch {
      // Clipboard access can be refused (no focus, no permission); say so instead of failing silently.
      setCopy('failed')
    }
  }

  return (
    <div className="payload" data-testid="payload-view" aria-label={t('inspector.payload.label')}>
      <div className="payload__toolbar">
        <span>{t('inspector.payload.summary', { count: messages.length })}</span>
        <button
          type="button"
          className="button button--small"
          data-testid="payload-copy"
          onClick={() => void copyJson()}
        >
          <Icon name={copy === 'copied' ? 'check' : 'copy'} />
          {copy === 'copied'
            ? t('inspector.payload.copied')
            : copy === 'failed'
              ? t('inspector.payload.copyFailed')
              : t('inspector.payload.copy')}
        </button>
      </div>
      <ol className="payload__messages">
        {visible.map((message, index) => (
          <li
            key={index}
            className="payload-message"
            data-testid="payload-message"
            data-role={message.role}
          >
            <span className="payload-message__role">{message.role}</span>
            <pre className="payload-message__content">
              {message.content === '' ? (
                <span className="payload-message__empty">{t('inspector.payload.empty')}</span>
              ) : (
                message.content
              )}
            </pre>
            {message.toolCalls?.map((toolCall) => (
              <pre key={toolCall.id} className="payload-message__tool">
                {`${t('inspector.payload.toolCall', { name: toolCall.name })} (${toolCall.id})\n${toolCall.arguments}`}
              </pre>
            ))}
            {message.toolCallId && (
              <span className="payload-message__tool-result">
                {t('inspector.payload.toolResult', { id: message.toolCallId })}
              </span>
            )}
          </li>
        ))}
      </ol>
      {hidden > 0 && (
        <button type="button" className="show-more" onClick={showMore}>
          {t('inspector.trace.showMore', { count: Math.min(hidden, PAGE_SIZE) })}
        </button>
      )}
    </div>
  )
}
