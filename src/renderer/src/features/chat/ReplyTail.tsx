import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { MarkdownContent } from './MarkdownContent'
import { useChatStore, type ReplyError } from './chatStore'

interface ReplyTailProps {
  threadId: string
  /** Errors whose turn is not in the list (yet). */
  errors: readonly ReplyError[]
  current: ReplyError | null
}

/**
 * What follows the last stored message: the reply streaming in, a retry notice, and the error
 * of a turn whose message the list does not hold yet.
 */
export function ReplyTail({ threadId, errors, current }: ReplyTailProps) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const live = useChatStore((state) => state.streams[threadId])
  const retryBudget = useChatStore((state) => state.retries[threadId])

  return (
    <div className="reply-tail">
      {retryBudget !== undefined && (
        <p className="reply-tail__notice" role="status" data-testid="retry-notice">
          <Icon name="info" />
          {t('chat.retryNotice', { budget: formatNumber(retryBudget) })}
        </p>
      )}
      {live && (
        <article
          className="message message--assistant message--streaming"
          data-testid="streaming-reply"
          data-stream-id={live.streamId}
          aria-busy="true"
        >
          <header className="message__meta">
            <span className="message__role">{t('chat.roles.assistant')}</span>
            <span className="message__streaming">{t('chat.streaming')}</span>
          </header>
          <div className="message__body" data-testid="streaming-text">
            {live.text ? <MarkdownContent text={live.text} /> : <span className="typing-dots" />}
          </div>
        </article>
      )}
      {errors.map((error) => (
        <ReplyErrorView key={error.streamId} error={error} current={error === current} />
      ))}
    </div>
  )
}

/**
 * A failed reply, under the turn it belongs to. Only the last turn's (`current`) offers its
 * action or counts down: retrying regenerates the thread's last reply, not an earlier one.
 */
export function ReplyErrorView({ error, current }: { error: ReplyError; current: boolean }) {
  const { t } = useTranslation()
  const regenerate = useChatStore((state) => state.regenerate)
  const showProviders = useProvidersStore((state) => state.show)
  const { kind, message, retryAfterMs } = error.error
  const [secondsLeft, setSecondsLeft] = useState(() =>
    kind === 'rate_limit' ? Math.max(1, Math.ceil((retryAfterMs ?? 5000) / 1000)) : 0
  )

  // A rate limit counts down the provider's delay, then retries by itself.
  useEffect(() => {
    if (kind !== 'rate_limit' || !current) return
    if (secondsLeft <= 0) {
      void regenerate()
      return
    }
    const timer = setTimeout(() => setSecondsLeft((left) => left - 1), 1000)
    return () => clearTimeout(timer)
  }, [kind, secondsLeft, regenerate, current])

  if (kind === 'aborted') return null

  const action = (() => {
    if (!current) return null
    switch (kind) {
      case 'auth':
        return (
          <button
            type="button"
            className="button"
            data-testid="reply-error-action"
            onClick={showProviders}
          >
            {t('chat.errorActions.auth')}
          </button>
        )
      case 'rate_limit':
        return (
          <>
            <span className="reply-error__countdown" data-testid="reply-error-countdown">
              {t('chat.errorActions.retryIn', { seconds: secondsLeft })}
            </span>
            <button
              type="button"
              className="button"
              data-testid="reply-error-action"
              onClick={() => void regenerate()}
            >
              {t('chat.errorActions.retryNow')}
            </button>
          </>
        )
      case 'network':
      case 'timeout':
      case 'server':
      case 'bad_response':
        return (
          <button
            type="button"
            className="button"
            data-testid="reply-error-action"
            onClick={() => void regenerate()}
          >
            {t('chat.errorActions.retry')}
          </button>
        )
      default:
        return null
    }
  })()

  return (
    <div
      className="reply-error"
      role="alert"
      data-testid="reply-error"
      data-kind={kind}
      data-after-id={error.afterId ?? undefined}
    >
      <Icon name="alert" />
      <div className="reply-error__body">
        <span className="reply-error__title">
          {t('chat.errorTitle', { message: t(`chat.errorKinds.${kind}`) })}
        </span>
        <span className="reply-error__detail">{message}</span>
        {kind === 'context_length' && (
          <span className="reply-error__detail">{t('chat.contextLengthHelp')}</span>
        )}
      </div>
      {action && <div className="reply-error__actions">{action}</div>}
    </div>
  )
}
