import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ThreadSummaryView } from '@shared/domain'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { selectSentBuild, useInspectorStore } from './inspectorStore'
import { replyFor } from './replyFor'

/** Estimated vs actual prompt tokens, and cache reads/writes, of a sent request. */
export function ReplyUsage() {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const stored = useInspectorStore(selectSentBuild)
  const messages = useChatStore((state) => state.messages)
  const reply = replyFor(messages, stored?.messageId ?? null)
  const info = reply?.reply
  if (!info?.usage) return null
  const { usage } = info
  const estimated = info.estimatedPromptTokens
  const diff =
    estimated !== null && estimated > 0
      ? Math.round(((usage.promptTokens - estimated) / estimated) * 100)
      : null
  return (
    <dl className="reply-usage" data-testid="reply-usage" data-message-id={reply?.id}>
      <div className="reply-usage__title">{t('inspector.usage.title')}</div>
      <dt>{t('inspector.usage.estimated')}</dt>
      <dd data-testid="reply-usage-estimated">
        {estimated === null ? '—' : formatNumber(estimated)}
      </dd>
      <dt>{t('inspector.usage.actual')}</dt>
      <dd data-testid="reply-usage-actual">
        {formatNumber(usage.promptTokens)}
        {diff !== null && (
          <span className="reply-usage__diff">
            {' '}
            ({diff > 0 ? '+' : ''}
            {diff}%)
          </span>
        )}
      </dd>
      <dt>{t('inspector.usage.completion')}</dt>
      <dd data-testid="reply-usage-completion">{formatNumber(usage.completionTokens)}</dd>
      <dt>{t('inspector.usage.cacheRead')}</dt>
      <dd data-testid="reply-usage-cache-read">{formatNumber(usage.cacheReadTokens)}</dd>
      <dt>{t('inspector.usage.cacheWrite')}</dt>
      <dd data-testid="reply-usage-cache-write">{formatNumber(usage.cacheWriteTokens)}</dd>
    </dl>
  )
}

/** The thread's stored summary: what it covers, which version, who wrote it; editable. */
export function SummaryCard({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const [summary, setSummary] = useState<ThreadSummaryView | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    // A summary stored while the first read is on its way is newer than the read's answer.
    const reads = latestRequest()
    const ticket = reads.start()
    call(window.api.summary.get({ threadId })).then(
      (next) => ticket.isLatest() && setSummary(next),
      (cause: unknown) => ticket.isLatest() && setError(describeError(cause))
    )
    const stop = window.api.on('summary:changed', (next) => {
      if (next.threadId !== threadId) return
      reads.supersede()
      setSummary(next)
    })
    return () => {
      reads.supersede()
      stop()
    }
  }, [threadId])

  if (!summary) return null

  const save = async () => {
    if (editing === null) return
    try {
      setSummary(await call(window.api.summary.update({ threadId, content: editing })))
      setEditing(null)
      setError(null)
    } catch (cause) {
      setError(describeError(cause))
    }
  }

  return (
    <section className="summary-card" data-testid="thread-summary">
      <header className="summary-card__header">
        <span className="summary-card__title">{t('inspector.summary.title')}</span>
        <span className="summary-card__meta" data-testid="thread-summary-meta">
          {t('inspector.summary.meta', {
            seq: summary.lastMessageSeq,
            version: summary.version,
            source: t(`inspector.summary.sources.${summary.source}`)
          })}
        </span>
      </header>
      {editing === null ? (
        <>
          <p className="summary-card__content" data-testid="thread-summary-content">
            {summary.content}
          </p>
          <button
            type="button"
            className="button message__action"
            data-testid="thread-summary-edit"
            onClick={() => setEditing(summary.content)}
          >
            {t('inspector.summary.edit')}
          </button>
        </>
      ) : (
        <div className="summary-card__edit">
          <textarea
            data-testid="thread-summary-input"
            aria-label={t('inspector.summary.title')}
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <div className="summary-card__actions">
            <button type="button" className="button" onClick={() => setEditing(null)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button--primary"
              data-testid="thread-summary-save"
              onClick={() => void save()}
            >
              {t('inspector.summary.save')}
            </button>
          </div>
        </div>
      )}
      {error && <p className="summary-card__error">{error}</p>}
    </section>
  )
}
