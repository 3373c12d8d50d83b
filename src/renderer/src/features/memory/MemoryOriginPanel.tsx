import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MemoryHistoryEntry, MemoryOrigin } from '@shared/domain'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { Icon } from '@renderer/components/Icon'
import { call, describeError } from '@renderer/lib/call'
import { formatFullTime } from '@renderer/lib/formatTime'
import { openThreadAt } from './navigation'

type Loaded = { origin: MemoryOrigin } | { error: string } | null

/**
 * Where a memory came from: the message it was made from (with a link that opens it in its
 * thread), and every change since. Loaded when opened; `version` reloads it after an edit.
 */
export function MemoryOriginPanel({ memoryId, version }: { memoryId: number; version: number }) {
  const { t } = useTranslation()
  const [loaded, setLoaded] = useState<Loaded>(null)

  useEffect(() => {
    let current = true
    call(window.api.memory.origin({ id: memoryId })).then(
      (origin) => current && setLoaded({ origin }),
      (error: unknown) => current && setLoaded({ error: describeError(error) })
    )
    return () => {
      current = false
    }
  }, [memoryId, version])

  return (
    <section
      className="memory-origin"
      data-testid="memory-origin-panel"
      aria-label={t('memory.originPanel.label')}
    >
      {loaded === null ? (
        <p className="memory-origin__hint">{t('memory.originPanel.loading')}</p>
      ) : 'error' in loaded ? (
        <ErrorBanner>{t('memory.originPanel.failed', { message: loaded.error })}</ErrorBanner>
      ) : (
        <>
          <OriginSource origin={loaded.origin} />
          <h4 className="memory-origin__title">{t('memory.originPanel.history')}</h4>
          <ol className="memory-history">
            {loaded.origin.history.map((entry) => (
              <HistoryRow key={entry.id} entry={entry} />
            ))}
          </ol>
        </>
      )}
    </section>
  )
}

function OriginSource({ origin }: { origin: MemoryOrigin }) {
  const { t } = useTranslation()
  const { source, history } = origin
  if (!source) {
    // Main clears the link when the source thread is deleted; the history still names it.
    const hadSource = history.some((entry) => entry.sourceThreadId !== null)
    return (
      <p className="memory-origin__hint">
        {hadSource ? t('memory.originPanel.gone') : t('memory.originPanel.typed')}
      </p>
    )
  }
  const title = source.threadTitle || t('threads.untitled')
  return (
    <div className="memory-origin__source">
      <p className="memory-origin__from">
        {source.messageId !== null && source.seq !== null && source.role !== null
          ? t('memory.originPanel.fromMessage', {
              seq: source.seq,
              role: t(`chat.roles.${source.role}`),
              title
            })
          : t('memory.originPanel.fromThread', { title })}
      </p>
      {source.excerpt && (
        <blockquote className="memory-origin__excerpt">{source.excerpt}</blockquote>
      )}
      <button
        type="button"
        className="memory-link"
        data-testid="memory-origin-link"
        data-thread-id={source.threadId}
        data-message-id={source.messageId ?? undefined}
        onClick={() => openThreadAt(source.threadId, source.messageId)}
      >
        <Icon name="link" />
        {source.messageId !== null ? t('memory.originPanel.openMessage') : title}
      </button>
    </div>
  )
}

const KNOWN_REASONS = [
  'explicit',
  'remember_message',
  'edit',
  'dedup_hash',
  'dedup_similar',
  'user_delete',
  'undo_delete',
  'extraction'
] as const

const isKnownReason = (reason: string): reason is (typeof KNOWN_REASONS)[number] =>
  (KNOWN_REASONS as readonly string[]).includes(reason)

function HistoryRow({ entry }: { entry: MemoryHistoryEntry }) {
  const { t, i18n } = useTranslation()
  // A reason a newer main adds is shown as it is rather than hidden.
  const reason = isKnownReason(entry.reason)
    ? t(`memory.originPanel.reasons.${entry.reason}`)
    : entry.reason
  const changedText = entry.previousContent !== null && entry.previousContent !== entry.content
  return (
    <li
      className="memory-history__entry"
      data-testid="memory-history-entry"
      data-action={entry.action}
    >
      <span className="memory-history__what">
        <strong>{t(`memory.originPanel.actions.${entry.action}`)}</strong> · {reason}
      </span>
      <time dateTime={new Date(entry.createdAt).toISOString()}>
        {formatFullTime(entry.createdAt, i18n.language)}
      </time>
      {changedText && (
        <span className="memory-history__before">
          {t('memory.originPanel.before', { content: entry.previousContent })}
        </span>
      )}
    </li>
  )
}
