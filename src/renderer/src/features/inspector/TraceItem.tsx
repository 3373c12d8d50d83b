import { memo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { TraceEntry } from '@shared/context'
import type { Message } from '@shared/domain'
import { MessageFlagToggles } from '@renderer/features/chat/MessageFlagToggles'
import { looseT, type LooseT } from '@renderer/i18n/dynamicKey'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { DecisionBadge } from './DecisionBadge'
import { RetrievedSource } from './RetrievedSource'

interface TraceItemProps {
  entry: TraceEntry
  /** The stored message a message entry stands for, when the chat has it loaded. */
  message: Message | undefined
  /** Pin/exclude toggles are offered on the live preview, not on a build already sent. */
  editable: boolean
  onReveal: (messageId: number) => void
}

const SNIPPET_CHARS = 140

const snippetOf = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS)

/**
 * One candidate and what the build did with it. A message row opens that message in the chat;
 * a retrieved row links to the memory or the message it was recalled from.
 */
function TraceItemView({ entry, message, editable, onReveal }: TraceItemProps) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const { label, detail } = describe(entry, message, looseT(t), format)

  const body: ReactNode = (
    <>
      <span className="trace-item__head">
        <span className="trace-item__label">{label}</span>
        <DecisionBadge decision={entry.decision} />
        <span
          className="trace-item__tokens"
          title={t('inspector.trace.tokensTitle', { count: entry.tokens })}
        >
          {format(entry.tokens)}
        </span>
      </span>
      {detail && <span className="trace-item__detail">{detail}</span>}
      {entry.kind === 'memory' && <RetrievedSource entry={entry} />}
      {entry.note && <span className="trace-item__note">{entry.note}</span>}
    </>
  )

  return (
    <li
      className="trace-item"
      data-testid="trace-item"
      data-id={entry.id}
      data-kind={entry.kind}
      data-section={entry.section}
      data-decision={entry.decision}
      data-tokens={entry.tokens}
    >
      {entry.kind === 'message' ? (
        <button
          type="button"
          className="trace-item__main"
          title={t('inspector.trace.reveal', { seq: entry.seq })}
          onClick={() => onReveal(Number(entry.id))}
        >
          {body}
        </button>
      ) : (
        <div className="trace-item__main">{body}</div>
      )}
      {editable && message && (
        <MessageFlagToggles
          messageId={message.id}
          pinned={message.pinned}
          excluded={message.excluded}
          testIdPrefix="trace"
        />
      )}
    </li>
  )
}

function describe(
  entry: TraceEntry,
  message: Message | undefined,
  t: LooseT,
  format: (value: number) => string
): { label: string; detail: string | null } {
  switch (entry.kind) {
    case 'message':
      return {
        label: t('inspector.trace.message', {
          seq: format(entry.seq ?? 0),
          role: entry.role ? t(`chat.roles.${entry.role}`) : ''
        }),
        detail: message ? snippetOf(message.content) : null
      }
    case 'memory':
      return { label: entry.preview ? snippetOf(entry.preview) : entry.id, detail: null }
    case 'attachment':
      return {
        label: entry.attachment
          ? t('inspector.trace.attachmentChunk', {
              name: entry.attachment.name,
              start: format(entry.attachment.startLine),
              end: format(entry.attachment.endLine)
            })
          : entry.id,
        detail: entry.preview ? snippetOf(entry.preview) : null
      }
    case 'tool':
      return { label: entry.id.replace(/^tool:/, ''), detail: entry.preview ?? null }
    default:
      return { label: t(`inspector.trace.kinds.${entry.kind}`), detail: null }
  }
}

const ENTRY_FIELDS = [
  'id',
  'kind',
  'section',
  'tokens',
  'decision',
  'seq',
  'role',
  'score',
  'source',
  'preview',
  'note'
] as const satisfies readonly (keyof TraceEntry)[]

/** Every preview brings new entry objects; a row re-renders only if its content changed. */
export const TraceItem = memo(
  TraceItemView,
  (before, after) =>
    before.message === after.message &&
    before.editable === after.editable &&
    before.onReveal === after.onReveal &&
    ENTRY_FIELDS.every((field) => before.entry[field] === after.entry[field])
)
