import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { BuiltContext, CollapsedRange } from '@shared/context'
import type { Message } from '@shared/domain'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { AttachmentChunks } from './AttachmentChunks'
import { TraceItem } from './TraceItem'
import { groupTrace, type TraceGroup } from './traceGroups'
import { useIncrementalList } from './useIncrementalList'

/** Rows mounted per section before "Show more". */
const PAGE_SIZE = 100

interface TraceListProps {
  build: BuiltContext
  editable: boolean
}

/** Every candidate of the build, grouped by section, with its tokens and decision. */
export function TraceList({ build, editable }: TraceListProps) {
  const { t } = useTranslation()
  const groups = useMemo(() => groupTrace(build), [build])
  const messages = useChatStore((state) => state.messages)
  // Built once per message list, not per row: a long thread has 100k messages.
  const messagesById = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages])
  const onReveal = useCallback((messageId: number) => {
    const { threadId, revealMessage } = useChatStore.getState()
    if (threadId) revealMessage(threadId, messageId)
  }, [])

  if (groups.length === 0) return <p className="inspector__hint">{t('inspector.trace.empty')}</p>
  return (
    <div className="trace" aria-label={t('inspector.trace.label')}>
      {groups.map((group) => (
        <TraceSection
          key={group.section}
          group={group}
          used={build.tokenStats.sections[group.section].used}
          messagesById={messagesById}
          editable={editable}
          onReveal={onReveal}
        />
      ))}
    </div>
  )
}

interface TraceSectionProps {
  group: TraceGroup
  used: number
  messagesById: Map<number, Message>
  editable: boolean
  onReveal: (messageId: number) => void
}

function TraceSection({ group, used, messagesById, editable, onReveal }: TraceSectionProps) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const { visible, hidden, showMore } = useIncrementalList(group.entries, PAGE_SIZE)

  return (
    <section className="trace-section" data-section={group.section}>
      <h3 className="trace-section__title" tabIndex={-1}>
        <span className="trace-section__swatch" aria-hidden="true" />
        {t(`inspector.sections.${group.section}`)}
        <span className="trace-section__used">{format(used)}</span>
      </h3>
      <ul className="trace-section__items">
        {group.section === 'attachments' && <AttachmentChunks entries={group.entries} />}
        {group.section !== 'attachments' &&
          visible.map((entry) => (
            <TraceItem
              key={`${entry.kind}:${entry.id}`}
              entry={entry}
              message={entry.kind === 'message' ? messagesById.get(Number(entry.id)) : undefined}
              editable={editable}
              onReveal={onReveal}
            />
          ))}
        {hidden > 0 && group.section !== 'attachments' && (
          <li>
            <button type="button" className="show-more" onClick={showMore}>
              {t('inspector.trace.showMore', { count: Math.min(hidden, PAGE_SIZE) })}
            </button>
          </li>
        )}
        {group.collapsed.map((range) => (
          <CollapsedRow key={`${range.decision}:${range.fromSeq}`} range={range} />
        ))}
      </ul>
    </section>
  )
}

function CollapsedRow({ range }: { range: CollapsedRange }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  return (
    <li className="trace-collapsed" data-testid="collapsed-range" data-decision={range.decision}>
      {t(`inspector.trace.collapsed_${range.decision}`, {
        from: format(range.fromSeq),
        to: format(range.toSeq),
        n: format(range.count)
      })}
    </li>
  )
}
