import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { formatFullTime } from '@renderer/lib/formatTime'
import { selectSelectedBuild, selectSentBuild, useInspectorStore } from './inspectorStore'
import { isEmptyPatch } from './whatIf'

/**
 * Says what the panel shows: a sent build chosen in History, the last request as sent (the
 * default while the draft is empty), or the live preview of the draft.
 */
export function BuildSource() {
  const { t, i18n } = useTranslation()
  const selected = useInspectorStore(selectSelectedBuild)
  const sent = useInspectorStore(selectSentBuild)
  const trying = useInspectorStore((state) => !isEmptyPatch(state.whatIf))
  const draftEmpty = useInspectorStore((state) => state.draft.trim() === '')
  const showPreview = useInspectorStore((state) => state.showPreview)

  if (selected) {
    return (
      <div className="build-source" data-testid="inspector-source" data-source="history">
        <span className="build-source__label">
          {t('inspector.source.history', {
            time: formatFullTime(selected.createdAt, i18n.language)
          })}
        </span>
        <button
          type="button"
          className="button button--small"
          data-testid="back-to-preview"
          onClick={showPreview}
        >
          <Icon name="back" />
          {draftEmpty ? t('inspector.source.backToLastSent') : t('inspector.source.backToPreview')}
        </button>
      </div>
    )
  }
  if (sent) {
    return (
      <div className="build-source" data-testid="inspector-source" data-source="sent">
        <span className="build-source__label">
          {t('inspector.source.lastSent', { time: formatFullTime(sent.createdAt, i18n.language) })}
        </span>
      </div>
    )
  }
  return (
    <div
      className="build-source"
      data-testid="inspector-source"
      data-source="preview"
      data-what-if={trying ? 'true' : 'false'}
    >
      <span className="build-source__live" aria-hidden="true" />
      <span className="build-source__label">
        {trying
          ? t('inspector.source.previewWhatIf')
          : draftEmpty
            ? t('inspector.source.previewEmpty')
            : t('inspector.source.preview')}
      </span>
    </div>
  )
}
