import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { formatFullTime } from '@renderer/lib/formatTime'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { selectSelectedBuild, useInspectorStore } from './inspectorStore'
import { isEmptyPatch } from './whatIf'

/** Says whether the panel shows the live preview of the draft or a build that was sent. */
export function BuildSource() {
  const { t, i18n } = useTranslation()
  const selected = useInspectorStore(selectSelectedBuild)
  const trying = useInspectorStore((state) => !isEmptyPatch(state.whatIf))
  const showPreview = useInspectorStore((state) => state.showPreview)
  // With nothing typed the preview is of the next request, not the last one sent: it says so.
  const draftEmpty = useChatStore((state) =>
    state.threadId ? (state.drafts[state.threadId] ?? '').trim() === '' : true
  )

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
          {t('inspector.source.backToPreview')}
        </button>
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
