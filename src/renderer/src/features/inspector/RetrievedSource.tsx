import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TraceEntry } from '@shared/context'
import { openMemory, openMessageById } from '@renderer/features/memory/navigation'
import { describeError } from '@renderer/lib/call'
import { parseRetrievedRef } from './retrievedSource'

/**
 * A retrieved item's score and where it came from, as a link: a memory opens in the memory
 * manager, a recalled message in its own thread (which main has to look up first).
 */
export function RetrievedSource({ entry }: { entry: TraceEntry }) {
  const { t } = useTranslation()
  const [error, setError] = useState<string | null>(null)
  const ref = parseRetrievedRef(entry.id)
  const origin = entry.origin
  // A search port other than the app's memory (the CLI, tests) gives only its own text.
  const text = !origin
    ? (entry.source ?? '')
    : origin.kind === 'memory'
      ? t('inspector.trace.sourceMemory', { category: t(`memory.categories.${origin.category}`) })
      : origin.threadTitle === null
        ? t('inspector.trace.sourceMessageUntitled', { seq: origin.seq ?? '?' })
        : t('inspector.trace.sourceMessage', { seq: origin.seq ?? '?', title: origin.threadTitle })

  const open = async () => {
    if (!ref) return
    setError(null)
    if (ref.kind === 'memory') {
      openMemory(ref.id)
      return
    }
    try {
      await openMessageById(ref.id)
    } catch (cause) {
      setError(describeError(cause))
    }
  }

  return (
    <>
      <span className="trace-item__detail trace-item__source">
        <span>{t('inspector.trace.score', { score: entry.score?.toFixed(2) ?? '–' })}</span>
        <span aria-hidden="true"> · </span>
        {ref ? (
          <button
            type="button"
            className="trace-source-link"
            data-testid="trace-source-link"
            data-ref={entry.id}
            title={
              ref.kind === 'memory'
                ? t('inspector.trace.openMemory')
                : t('inspector.trace.openMessage')
            }
            onClick={() => void open()}
          >
            {text}
          </button>
        ) : (
          <span>{text}</span>
        )}
      </span>
      {error && (
        <span className="trace-item__note" role="alert">
          {t('inspector.trace.openFailed', { message: error })}
        </span>
      )}
    </>
  )
}
