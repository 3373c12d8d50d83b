import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SummaryVersionView } from '@shared/summaryCompression'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { useSummaryCompareStore } from './summaryCompareStore'
import './summaries.css'

/** Every version of the thread's summary, newest first, each with its before/after view. */
export function SummaryHistory({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const open = useSummaryCompareStore((state) => state.open)
  const [versions, setVersions] = useState<SummaryVersionView[]>([])
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const reads = latestRequest()
    const load = () => {
      const ticket = reads.start()
      call(window.api.summary.versions({ threadId })).then(
        (next) => ticket.isLatest() && setVersions(next),
        (cause: unknown) => ticket.isLatest() && setError(describeError(cause))
      )
    }
    load()
    const stop = window.api.on('summary:changed', (next) => {
      if (next.threadId === threadId) load()
    })
    return () => {
      reads.supersede()
      stop()
    }
  }, [threadId])

  if (versions.length === 0 && !error) return null
  return (
    <details className="summary-history" data-testid="summary-history">
      <summary>
        {t('summaries.history')} ({versions.length})
      </summary>
      {error && <p className="summary-compare__error">{error}</p>}
      <ol>
        {versions.map((version, index) => (
          <li key={version.version} data-testid="summary-version" data-version={version.version}>
            <span>
              {t('summaries.versionLine', {
                version: version.version,
                kind: t(`summaries.kinds.${version.kind}`),
                replaced: formatNumber(version.replacedTokens),
                summary: formatNumber(version.summaryTokens)
              })}
              {index === 0 && ` · ${t('summaries.current')}`}
            </span>
            <button
              type="button"
              className="button message__action"
              data-testid="summary-version-compare"
              onClick={() => open(threadId, version.version)}
            >
              {t('summaries.compare')}
            </button>
          </li>
        ))}
      </ol>
    </details>
  )
}
