import { useEffect, useId, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import type { SummaryComparison } from '@shared/summaryCompression'
import { call, describeError } from '@renderer/lib/call'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { useSummaryCompareStore } from './summaryCompareStore'
import '@renderer/components/dialog.css'
import './summaries.css'

/**
 * A summary version beside what it replaced: on the left the previous summary and the messages
 * it folded in, on the right the summary itself; an older version can be restored from here.
 */
export function SummaryCompareDialog() {
  const target = useSummaryCompareStore((state) => state.target)
  if (!target) return null
  return <CompareView key={`${target.threadId}:${target.version}`} {...target} />
}

function CompareView({ threadId, version }: { threadId: string; version: number }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const close = useSummaryCompareStore((state) => state.close)
  const [comparison, setComparison] = useState<SummaryComparison | null>(null)
  const [current, setCurrent] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const titleId = useId()
  const closeRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    let live = true
    Promise.all([
      call(window.api.summary.compare({ threadId, version })),
      call(window.api.summary.get({ threadId }))
    ]).then(
      ([found, summary]) => {
        if (!live) return
        setComparison(found)
        setCurrent(summary?.version ?? null)
      },
      (cause: unknown) => live && setError(describeError(cause))
    )
    closeRef.current?.focus()
    return () => {
      live = false
    }
  }, [threadId, version])

  const restore = async () => {
    try {
      const restored = await call(window.api.summary.restore({ threadId, version }))
      setCurrent(restored.version)
      close()
    } catch (cause) {
      setError(describeError(cause))
    }
  }

  return createPortal(
    <div className="dialog-backdrop" onKeyDown={(event) => event.key === 'Escape' && close()}>
      <div
        className="dialog summary-compare"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="summary-compare"
        data-version={version}
      >
        <h2 className="dialog__title" id={titleId}>
          {t('summaries.compare')} · v{version}
        </h2>
        {error && <p className="summary-compare__error">{error}</p>}
        {comparison && (
          <div className="summary-compare__columns">
            <section className="summary-compare__before" data-testid="summary-compare-before">
              <h3>{t('summaries.before')}</h3>
              {comparison.previous ? (
                <div className="summary-compare__previous">
                  <span className="summary-compare__label">
                    {t('summaries.previousSummary', { version: comparison.previous.version })}
                  </span>
                  <p>{comparison.previous.content}</p>
                </div>
              ) : (
                <p className="summary-compare__hint">{t('summaries.noPrevious')}</p>
              )}
              <span className="summary-compare__label">
                {comparison.replaced.length > 0
                  ? t('summaries.replacedMessages', { count: comparison.replaced.length })
                  : t('summaries.noMessages')}
              </span>
              <ol className="summary-compare__messages">
                {comparison.replaced.map((message) => (
                  <li key={message.id} data-testid="summary-compare-message" data-seq={message.seq}>
                    <span className="summary-compare__role">
                      #{message.seq} {t(`chat.roles.${message.role}`)}
                    </span>
                    <p>{message.content}</p>
                  </li>
                ))}
              </ol>
            </section>
            <section className="summary-compare__after" data-testid="summary-compare-after">
              <h3>{t('summaries.after')}</h3>
              <span className="summary-compare__label">
                {t('summaries.versionLine', {
                  version: comparison.version.version,
                  kind: t(`summaries.kinds.${comparison.version.kind}`),
                  replaced: formatNumber(comparison.version.replacedTokens),
                  summary: formatNumber(comparison.version.summaryTokens)
                })}
              </span>
              <p data-testid="summary-compare-content">{comparison.version.content}</p>
            </section>
          </div>
        )}
        <div className="dialog__actions">
          {comparison && current !== null && current !== version && (
            <button
              type="button"
              className="button"
              data-testid="summary-compare-restore"
              onClick={() => void restore()}
            >
              {t('summaries.restore')}
            </button>
          )}
          <button
            type="button"
            className="button button--primary"
            ref={closeRef}
            data-testid="summary-compare-close"
            onClick={close}
          >
            {t('summaries.close')}
          </button>
        </div>
      </div>
    </div>,
    document.body
  )
}
