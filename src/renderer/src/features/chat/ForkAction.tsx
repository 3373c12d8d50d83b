import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { forkFrom } from '@renderer/features/threads/forkThread'
import { describeError } from '@renderer/lib/call'

/** The message action "Branch from here". */
export function ForkAction({ messageId, disabled }: { messageId: number; disabled: boolean }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return (
    <>
      <button
        type="button"
        className="button message__action"
        data-testid="message-fork"
        title={t('fork.hint')}
        disabled={disabled || busy}
        onClick={() => {
          setBusy(true)
          setError(null)
          forkFrom(messageId)
            .catch((failure: unknown) => setError(describeError(failure)))
            .finally(() => setBusy(false))
        }}
      >
        {t('fork.action')}
      </button>
      {error && (
        <span className="message__fork-error" role="alert" data-testid="message-fork-error">
          {t('fork.failed', { reason: error })}
        </span>
      )}
    </>
  )
}
