import { memo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Message, ReplyStatus } from '@shared/domain'
import { MessageFiles } from '@renderer/features/files/MessageFiles'
import { ExtractedMemories } from '@renderer/features/memory/ExtractedMemories'
import { RememberAction } from '@renderer/features/memory/RememberAction'
import { formatCost } from '@renderer/lib/formatCost'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { formatActivityTime, formatFullTime } from '@renderer/lib/formatTime'
import { ToolCallList, ToolResult } from '@renderer/features/tools/ToolMessageParts'
import { MarkdownContent } from './MarkdownContent'
import { ForkAction } from './ForkAction'
import { MessageFlagToggles } from './MessageFlagToggles'
import { ReplyCostLine } from './ReplyCostLine'
import { CopyButton } from './CopyButton'
import { useChatStore } from './chatStore'

interface MessageViewProps {
  message: Message
  highlighted: boolean
  /** The thread's last message is this model reply: it can be regenerated. */
  isLastReply?: boolean
  /** A reply is streaming or a send is on its way: no regenerate or resend meanwhile. */
  busy?: boolean
  /** Part of an earlier version of an edited turn: kept, sent back then, not any more. */
  earlierVersion?: boolean
}

/** Memoized: a row re-renders only when its message or highlight changes, not on every scroll. */
export const MessageView = memo(function MessageView({
  message,
  highlighted,
  isLastReply = false,
  busy = false,
  earlierVersion = false
}: MessageViewProps) {
  const { t, i18n } = useTranslation()
  const [editing, setEditing] = useState<string | null>(null)
  const reply = message.reply
  const superseded = reply?.supersededBy != null
  return (
    <article
      className={`message message--${message.role}`}
      data-testid="message"
      data-message-id={message.id}
      data-role={message.role}
      data-highlighted={highlighted ? 'true' : 'false'}
      data-pinned={message.pinned ? 'true' : 'false'}
      data-excluded={message.excluded ? 'true' : 'false'}
      data-superseded={superseded ? 'true' : 'false'}
      data-reply-status={reply?.status}
    >
      <header className="message__meta">
        <span className="message__role">{t(`chat.roles.${message.role}`)}</span>
        <time
          dateTime={new Date(message.createdAt).toISOString()}
          title={formatFullTime(message.createdAt, i18n.language)}
        >
          {formatActivityTime(message.createdAt, i18n.language)}
        </time>
        {reply && reply.status !== 'complete' && (
          <span
            className={`message__badge message__badge--${reply.status}`}
            data-testid="reply-status"
          >
            {t(REPLY_BADGES[reply.status])}
          </span>
        )}
        {earlierVersion ? (
          <span className="message__not-sent" data-testid="earlier-version-label">
            {t('chat.branchedAway')}
          </span>
        ) : superseded ? (
          <span className="message__not-sent" data-testid="superseded-label">
            {t('chat.superseded')}
          </span>
        ) : (
          message.excluded && (
            <span className="message__not-sent" title={t('chat.excludeHint')}>
              {t('chat.notSent')}
            </span>
          )
        )}
        {message.summaryExempt && (
          <span className="message__not-sent" title={t('summaries.exemptHint')}>
            {t('summaries.exemptLabel')}
          </span>
        )}
        {message.content !== '' && (
          <CopyButton
            className="message__action"
            testId="message-copy"
            label={t('chat.copyMessage')}
            getText={() => message.content}
          />
        )}
        <MessageFlagToggles
          messageId={message.id}
          pinned={message.pinned}
          excluded={message.excluded}
          summaryExempt={message.summaryExempt ?? false}
          testIdPrefix="message"
        />
        <RememberAction messageId={message.id} />
        <ForkAction messageId={message.id} disabled={busy} />
        {isLastReply && (
          <button
            type="button"
            className="button message__action"
            data-testid="regenerate"
            disabled={busy}
            onClick={() => void useChatStore.getState().regenerate()}
          >
            {t('chat.regenerate')}
          </button>
        )}
        {message.role === 'user' && editing === null && !earlierVersion && (
          <button
            type="button"
            className="button message__action"
            data-testid="message-edit"
            disabled={busy}
            onClick={() => setEditing(message.content)}
          >
            {t('chat.edit')}
          </button>
        )}
      </header>
      <div className="message__body">
        {editing !== null ? (
          <form
            className="message__edit"
            onSubmit={(event) => {
              event.preventDefault()
              if (editing.trim() === '') return
              void useChatStore
                .getState()
                .editResend(message.id, editing)
                .then((sent) => sent && setEditing(null))
            }}
          >
            <textarea
              data-testid="message-edit-input"
              aria-label={t('chat.editLabel')}
              value={editing}
              autoFocus
              onChange={(event) => setEditing(event.target.value)}
            />
            <div className="message__edit-actions">
              <button type="button" className="button" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </button>
              <button
                type="submit"
                className="button button--primary"
                data-testid="message-edit-save"
                disabled={busy || editing.trim() === ''}
              >
                {t('chat.editResend')}
              </button>
            </div>
          </form>
        ) : reply?.status === 'empty' ? (
          <EmptyReplyNote
            finishReason={reply.finishReason}
            canRetry={isLastReply && !superseded}
            busy={busy}
          />
        ) : message.role === 'tool' ? (
          <ToolResult message={message} />
        ) : (
          message.content !== '' && <MarkdownContent text={message.content} />
        )}
        {message.toolCalls && message.toolCalls.length > 0 && (
          <ToolCallList calls={message.toolCalls} />
        )}
        {message.role === 'user' && (
          <MessageFiles threadId={message.threadId} messageId={message.id} />
        )}
        {reply?.usage && <UsageFooter message={message} />}
        {reply?.usage && <ReplyCostLine reply={reply} />}
        {message.role === 'user' && <ExtractedMemories messageId={message.id} />}
      </div>
    </article>
  )
})

/** A complete reply needs no badge; every other status says how the reply ended. */
const REPLY_BADGES = {
  stopped: 'chat.replyStopped',
  failed: 'chat.replyFailed',
  empty: 'chat.replyEmpty'
} as const satisfies Record<Exclude<ReplyStatus, 'complete'>, string>

/** In place of the text the model did not send: what happened, and Retry. */
function EmptyReplyNote({
  finishReason,
  canRetry,
  busy
}: {
  finishReason: string | null
  canRetry: boolean
  busy: boolean
}) {
  const { t } = useTranslation()
  return (
    <div className="message__empty-note" data-testid="empty-reply">
      <p>
        {t('chat.emptyReply.note')}{' '}
        {finishReason === 'length' ? t('chat.emptyReply.length') : t('chat.emptyReply.notSent')}
      </p>
      {canRetry && (
        <button
          type="button"
          className="button"
          data-testid="empty-reply-retry"
          disabled={busy}
          onClick={() => void useChatStore.getState().regenerate()}
        >
          {t('chat.errorActions.retry')}
        </button>
      )}
    </div>
  )
}

function UsageFooter({ message }: { message: Message }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const usage = message.reply?.usage
  if (!usage) return null
  const numbers = {
    prompt: formatNumber(usage.promptTokens),
    completion: formatNumber(usage.completionTokens),
    read: formatNumber(usage.cacheReadTokens),
    write: formatNumber(usage.cacheWriteTokens)
  }
  const cost = message.reply?.cost ?? null
  return (
    <footer
      className="message__usage"
      data-testid="message-usage"
      title={t('chat.usage.title', numbers)}
    >
      <span data-testid="message-usage-tokens">{t('chat.usage.tokens', numbers)}</span>
      {(usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0) && (
        <span data-testid="message-usage-cache">{t('chat.usage.cache', numbers)}</span>
      )}
      {cost !== null && (
        <span data-testid="message-usage-cost">
          {t('chat.usage.cost', { cost: formatCost(cost) })}
        </span>
      )}
    </footer>
  )
}
