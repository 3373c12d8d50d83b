import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { openMemory } from './navigation'
import { useRememberStore, type RememberFeedback } from './rememberStore'
import './memory.css'

/** "Remember this" on a chat message, and what it did: a new memory, an updated one, or none. */
export function RememberAction({ messageId }: { messageId: number }) {
  const { t } = useTranslation()
  const feedback = useRememberStore((state) => state.feedback[messageId])
  const remember = useRememberStore((state) => state.remember)
  return (
    <>
      <button
        type="button"
        className="icon-button flag-toggle remember-action"
        data-testid="message-remember"
        aria-label={t('memory.remember.action')}
        title={t('memory.remember.hint')}
        disabled={feedback?.state === 'pending'}
        onClick={() => void remember(messageId)}
      >
        <Icon name="bookmark" />
      </button>
      {/* Present before any outcome, so screen readers announce the outcome when it appears. */}
      <span className="remember-status" role="status">
        {feedback && <Feedback feedback={feedback} />}
      </span>
    </>
  )
}

function Feedback({ feedback }: { feedback: RememberFeedback }) {
  const { t } = useTranslation()
  switch (feedback.state) {
    case 'pending':
      return (
        <span className="remember-feedback" data-testid="remember-feedback" data-result="pending">
          {t('memory.remember.pending')}
        </span>
      )
    case 'failed':
      return (
        <span
          className="remember-feedback remember-feedback--failed"
          data-testid="remember-feedback"
          data-result="failed"
        >
          {t('memory.remember.failed', { message: feedback.message })}
        </span>
      )
    case 'done':
      // The note is also the way to the memory, to check or edit what was kept.
      return (
        <button
          type="button"
          className="remember-feedback"
          data-testid="remember-feedback"
          data-result={feedback.result}
          data-memory-id={feedback.memoryId}
          title={t('memory.remember.open')}
          onClick={() => openMemory(feedback.memoryId)}
        >
          <Icon name="check" />
          {t(`memory.remember.${feedback.result}`)}
        </button>
      )
  }
}
