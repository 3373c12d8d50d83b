import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Message } from '@shared/domain'
import { RememberAction } from '@renderer/features/memory/RememberAction'
import { formatActivityTime, formatFullTime } from '@renderer/lib/formatTime'
import { MarkdownContent } from './MarkdownContent'
import { MessageFlagToggles } from './MessageFlagToggles'

interface MessageViewProps {
  message: Message
  highlighted: boolean
}

/** Memoized: a row re-renders only when its message or highlight changes, not on every scroll. */
export const MessageView = memo(function MessageView({ message, highlighted }: MessageViewProps) {
  const { t, i18n } = useTranslation()
  return (
    <article
      className={`message message--${message.role}`}
      data-testid="message"
      data-message-id={message.id}
      data-role={message.role}
      data-highlighted={highlighted ? 'true' : 'false'}
      data-pinned={message.pinned ? 'true' : 'false'}
      data-excluded={message.excluded ? 'true' : 'false'}
    >
      <header className="message__meta">
        <span className="message__role">{t(`chat.roles.${message.role}`)}</span>
        <time
          dateTime={new Date(message.createdAt).toISOString()}
          title={formatFullTime(message.createdAt, i18n.language)}
        >
          {formatActivityTime(message.createdAt, i18n.language)}
        </time>
        {message.excluded && (
          <span className="message__not-sent" title={t('chat.excludeHint')}>
            {t('chat.notSent')}
          </span>
        )}
        <MessageFlagToggles
          messageId={message.id}
          pinned={message.pinned}
          excluded={message.excluded}
          testIdPrefix="message"
        />
        <RememberAction messageId={message.id} />
      </header>
      <div className="message__body">
        <MarkdownContent text={message.content} />
      </div>
    </article>
  )
})
