import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { TraceEntry } from '@shared/context'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { DecisionBadge } from './DecisionBadge'

const SNIPPET_CHARS = 100
const snippetOf = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS)

interface FileGroup {
  attachmentId: string
  name: string
  /** Chunks in document order, each with its decision and cost. */
  chunks: TraceEntry[]
  sent: number
}

/** The attachments section's entries by file, chunks in document order (as they are sent). */
function groupByFile(entries: readonly TraceEntry[]): FileGroup[] {
  const groups = new Map<string, FileGroup>()
  for (const entry of entries) {
    if (!entry.attachment) continue
    const { attachmentId, name } = entry.attachment
    let group = groups.get(attachmentId)
    if (!group) groups.set(attachmentId, (group = { attachmentId, name, chunks: [], sent: 0 }))
    group.chunks.push(entry)
    if (entry.decision === 'included') group.sent++
  }
  for (const group of groups.values()) {
    group.chunks.sort((a, b) => (a.attachment?.chunkIndex ?? 0) - (b.attachment?.chunkIndex ?? 0))
  }
  return [...groups.values()]
}

/**
 * Each attached file with every chunk the builder weighed: sent or dropped, its line range,
 * its cost and its relevance (absent when the file was ranked by shared words).
 */
export function AttachmentChunks({ entries }: { entries: readonly TraceEntry[] }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const files = useMemo(() => groupByFile(entries), [entries])
  return (
    <>
      {files.map((file) => (
        <li
          key={file.attachmentId}
          className="attachment-trace"
          data-testid="attachment-trace"
          data-name={file.name}
        >
          <span className="attachment-trace__file">
            {t('files.inspector.file', {
              name: file.name,
              sent: format(file.sent),
              total: format(file.chunks.length)
            })}
          </span>
          <ol className="attachment-trace__chunks">
            {file.chunks.map((entry) => {
              const place = entry.attachment
              if (!place) return null
              return (
                <li
                  key={entry.id}
                  className="trace-item attachment-chunk"
                  data-testid="attachment-chunk"
                  data-id={entry.id}
                  data-decision={entry.decision}
                  data-tokens={entry.tokens}
                  data-lines={`${place.startLine}-${place.endLine}`}
                >
                  <div className="trace-item__main">
                    <span className="trace-item__head">
                      <span className="trace-item__label">
                        {place.chunkCount === 1
                          ? t('files.inspector.whole')
                          : t('files.inspector.chunk', {
                              index: format(place.chunkIndex + 1),
                              from: format(place.startLine),
                              to: format(place.endLine)
                            })}
                      </span>
                      <DecisionBadge decision={entry.decision} />
                      <span
                        className="trace-item__tokens"
                        title={t('inspector.trace.tokensTitle', { count: entry.tokens })}
                      >
                        {format(entry.tokens)}
                      </span>
                    </span>
                    {place.chunkCount > 1 && (
                      <span className="trace-item__detail">
                        {entry.score === undefined
                          ? t('files.inspector.byWords')
                          : t('files.inspector.relevance', { score: entry.score.toFixed(2) })}
                        {entry.preview && ` · ${snippetOf(entry.preview)}`}
                      </span>
                    )}
                    {entry.note && <span className="trace-item__note">{entry.note}</span>}
                  </div>
                </li>
              )
            })}
          </ol>
        </li>
      ))}
    </>
  )
}
