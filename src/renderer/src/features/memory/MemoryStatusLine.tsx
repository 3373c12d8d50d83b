import { useTranslation } from 'react-i18next'
import { pendingItems, summarizeStatus } from './statusSummary'
import { useMemoryStatusStore } from './memoryStatusStore'

/** The sidebar's one-line answer to "is recall by meaning working right now?". */
export function MemoryStatusLine() {
  const { t } = useTranslation()
  const status = useMemoryStatusStore((state) => state.status)
  if (!status) return null
  const { tone, text } = summarizeStatus(status, t)
  return (
    <p
      className="memory-status-line"
      data-testid="memory-status"
      data-state={status.model.state}
      data-tone={tone}
      data-pending={pendingItems(status)}
      title={text}
      role="status"
    >
      <span className="status-dot" aria-hidden="true" />
      <span className="memory-status-line__text">{text}</span>
    </p>
  )
}
