import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ThreadSummaryView } from '@shared/domain'
import type { SummaryAutomationStatus } from '@shared/summaryCompression'
import { Icon } from '@renderer/components/Icon'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'

/**
 * Above the composer: automatic summaries stopped after repeated failures (with Retry), or the
 * summary is out of date because a message it covers changed (rewritten after the next turn).
 */
export function SummaryStatusNotice({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const [status, setStatus] = useState<SummaryAutomationStatus | null>(null)
  const [summary, setSummary] = useState<ThreadSummaryView | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const reads = latestRequest()
    const ticket = reads.start()
    Promise.all([
      call(window.api.summary.status({ threadId })),
      call(window.api.summary.get({ threadId }))
    ]).then(
      ([next, stored]) => {
        if (!ticket.isLatest()) return
        setStatus(next)
        setSummary(stored)
      },
      () => undefined
    )
    const stopStatus = window.api.on('summary:status', (next) => {
      if (next.threadId !== threadId) return
      reads.supersede()
      setStatus(next)
    })
    const stopSummary = window.api.on('summary:changed', (next) => {
      if (next.threadId === threadId) setSummary(next)
    })
    return () => {
      reads.supersede()
      stopStatus()
      stopSummary()
    }
  }, [threadId])

  const retry = async () => {
    try {
      setStatus(await call(window.api.summary.retry({ threadId })))
      setError(null)
    } catch (cause) {
      setError(describeError(cause))
    }
  }

  if (status?.paused) {
    return (
      <div className="banner banner--error" role="alert" data-testid="summary-paused">
        <Icon name="alert" />
        <div className="banner__body">
          {t('summaries.paused', { count: status.failures, message: status.lastError ?? '' })}
          {error && ` ${error}`}
        </div>
        <button
          type="button"
          className="button"
          data-testid="summary-retry"
          onClick={() => void retry()}
        >
          {t('summaries.retry')}
        </button>
      </div>
    )
  }
  const staleSeq = summary?.staleSinceSeq
  if (staleSeq != null) {
    return (
      <div className="banner banner--notice" role="status" data-testid="summary-stale">
        <Icon name="info" />
        <div className="banner__body">
          {status?.running ? t('summaries.running') : t('summaries.stale', { seq: staleSeq })}
        </div>
      </div>
    )
  }
  return null
}
