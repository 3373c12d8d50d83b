import { useTranslation } from 'react-i18next'
import type { ForkOrigin } from '@shared/domain'
import { openThreadAt } from '@renderer/features/memory/navigation'

/** Under a fork's row: where it was branched from; opens the origin at that message. */
export function ForkOriginLink({ origin }: { origin: ForkOrigin }) {
  const { t } = useTranslation()
  const title = origin.title || t('threads.untitled')
  return (
    <button
      type="button"
      className="thread-item__origin"
      data-testid="thread-fork-origin"
      title={t('fork.openOrigin', { title, seq: origin.seq })}
      onClick={() => openThreadAt(origin.threadId, origin.messageId)}
    >
      <span className="thread-item__origin-title">{t('fork.from', { title })}</span>
      {origin.excerpt && <span className="thread-item__origin-excerpt">{origin.excerpt}</span>}
    </button>
  )
}
