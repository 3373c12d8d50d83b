import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useChatStore } from './chatStore'

interface MessageFlagTogglesProps {
  messageId: number
  pinned: boolean
  excluded: boolean
  /** Kept out of summary rewrites; only the chat row offers it (undefined: not shown). */
  summaryExempt?: boolean
  /** The chat and the inspector both show these; each keeps its own test ids. */
  testIdPrefix: 'message' | 'trace'
}

/**
 * Pin (always send) and exclude (never send) for one message. Both places call the chat
 * store, so the chat row, the inspector and the next build agree on the message's flags.
 */
export function MessageFlagToggles({
  messageId,
  pinned,
  excluded,
  summaryExempt,
  testIdPrefix
}: MessageFlagTogglesProps) {
  const { t } = useTranslation()
  const setFlags = useChatStore((state) => state.setFlags)

  return (
    <span className="flag-toggles">
      <button
        type="button"
        className="icon-button flag-toggle flag-toggle--pin"
        data-testid={`${testIdPrefix}-pin`}
        aria-pressed={pinned}
        aria-label={t('chat.pin')}
        title={t('chat.pinHint')}
        onClick={() => void setFlags(messageId, { pinned: !pinned })}
      >
        <Icon name="pin" />
      </button>
      <button
        type="button"
        className="icon-button flag-toggle flag-toggle--exclude"
        data-testid={`${testIdPrefix}-exclude`}
        aria-pressed={excluded}
        aria-label={t('chat.exclude')}
        title={t('chat.excludeHint')}
        onClick={() => void setFlags(messageId, { excluded: !excluded })}
      >
        <Icon name="exclude" />
      </button>
      {summaryExempt !== undefined && (
        <button
          type="button"
          className="icon-button flag-toggle flag-toggle--exempt"
          data-testid={`${testIdPrefix}-summary-exempt`}
          aria-pressed={summaryExempt}
          aria-label={t('summaries.exempt')}
          title={t('summaries.exemptHint')}
          onClick={() => void setFlags(messageId, { summaryExempt: !summaryExempt })}
        >
          <Icon name="summaryOff" />
        </button>
      )}
    </span>
  )
}
