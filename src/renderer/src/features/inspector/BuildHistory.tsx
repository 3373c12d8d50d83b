import { useTranslation } from 'react-i18next'
import { formatActivityTime, formatFullTime } from '@renderer/lib/formatTime'
import { useInspectorStore } from './inspectorStore'

/** The builds actually sent in this thread; choosing one shows it in the panel above. */
export function BuildHistory() {
  const { t, i18n } = useTranslation()
  const builds = useInspectorStore((state) => state.builds)
  const selectedId = useInspectorStore((state) => state.selectedBuildId)
  const showBuild = useInspectorStore((state) => state.showBuild)

  if (builds.length === 0) return <p className="inspector__hint">{t('inspector.history.empty')}</p>
  return (
    <ol className="history" aria-label={t('inspector.history.label')}>
      {builds.map((build) => (
        <li key={build.id}>
          <button
            type="button"
            className="history-item"
            data-testid="history-item"
            data-build-id={build.id}
            aria-current={build.id === selectedId ? 'true' : undefined}
            onClick={() => showBuild(build.id)}
          >
            <time
              className="history-item__time"
              dateTime={new Date(build.createdAt).toISOString()}
              title={formatFullTime(build.createdAt, i18n.language)}
            >
              {formatActivityTime(build.createdAt, i18n.language)}
            </time>
            <span className="history-item__tokens">
              {t('inspector.history.tokens', { count: build.context.tokenStats.total })}
            </span>
            <span className="history-item__messages">
              {t('inspector.history.messages', { count: build.context.messages.length })}
            </span>
          </button>
        </li>
      ))}
    </ol>
  )
}
