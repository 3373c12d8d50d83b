import { useTranslation } from 'react-i18next'
import { SECTIONS, type SectionName } from '@shared/context'
import { describeMemoryWarning } from '@renderer/features/memory/memoryWarning'
import { formatFullTime } from '@renderer/lib/formatTime'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { looseT } from '@renderer/i18n/dynamicKey'
import type { GaugeReading } from './gaugeReading'

interface GaugeDetailsProps {
  id: string
  reading: GaugeReading
  maxHeight: number
  onOpenSection: (section: SectionName) => void
}

/** The gauge's card: per-section numbers (each opens the inspector there) and what to know. */
export function GaugeDetails({ id, reading, maxHeight, onOpenSection }: GaugeDetailsProps) {
  const { t, i18n } = useTranslation()
  const format = useFormatNumber()
  const { tokenStats } = reading.context
  const heading = reading.build
    ? t('gauge.heading.sent', { time: formatFullTime(reading.build.createdAt, i18n.language) })
    : t(`gauge.heading.${reading.source}`)
  const recall = reading.context.recall
  const say = looseT(t)
  const notes = [
    // Memories and recalled messages apart, never both called "memories" (issue #17).
    recall &&
      recall.memories.items + recall.thisThread.items + recall.otherThreads.items > 0 &&
      say('gauge.recalled', {
        memories: format(recall.memories.items),
        thisThread: format(recall.thisThread.items),
        otherThreads: format(recall.otherThreads.items)
      }),
    tokenStats.free !== undefined &&
      tokenStats.free > 0 &&
      say('gauge.free', { tokens: format(tokenStats.free) }),
    reading.summarizedMessages !== null &&
      t('gauge.summaryInUse', {
        count: reading.summarizedMessages,
        n: format(reading.summarizedMessages)
      }),
    reading.droppedMemories > 0 &&
      t('gauge.memoriesDropped', {
        count: reading.droppedMemories,
        n: format(reading.droppedMemories)
      }),
    ...reading.safetyNet.map((code) =>
      t('gauge.safetyNet', {
        what: t(code === 'input_trimmed' ? 'gauge.safetyNetTrimmed' : 'gauge.safetyNetShrunk')
      })
    ),
    ...reading.otherWarnings.map((warning) =>
      warning.memory
        ? describeMemoryWarning(warning.memory, t)
        : t(`inspector.warnings.${warning.code}`, {
            defaultValue: warning.message,
            files: warning.files?.join(', ')
          })
    )
  ].filter((note): note is string => typeof note === 'string')

  return (
    <div
      className="gauge-details"
      id={id}
      data-testid="gauge-details"
      role="group"
      aria-label={heading}
      style={{ maxHeight }}
    >
      <p className="gauge-details__heading">{heading}</p>
      <p className="gauge-details__totals" data-testid="gauge-totals">
        {t('gauge.totals', {
          used: format(tokenStats.total),
          budget: format(tokenStats.budget),
          window: format(tokenStats.contextWindow),
          limit: format(reading.safetyLimit)
        })}
      </p>
      <ul className="gauge-details__sections">
        {SECTIONS.map((section) => {
          const { used, budget, items } = tokenStats.sections[section]
          const name = t(`inspector.sections.${section}`)
          return (
            <li key={section}>
              <button
                type="button"
                className="gauge-section"
                data-testid="gauge-section"
                data-section={section}
                data-used={used}
                data-budget={budget}
                aria-label={`${name}: ${t('gauge.sectionRow', { used: format(used), budget: format(budget) })}, ${t('gauge.sectionItems', { count: items, n: format(items) })}. ${t('gauge.openSection', { section: name })}`}
                title={t('gauge.sectionItems', { count: items, n: format(items) })}
                onClick={() => onOpenSection(section)}
              >
                <span className="gauge-section__swatch" aria-hidden="true" />
                <span className="gauge-section__name">{name}</span>
                <span className="gauge-section__usage">
                  {t('gauge.sectionRow', { used: format(used), budget: format(budget) })}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
      {notes.length > 0 && (
        <ul
          className="gauge-details__notes"
          aria-label={t('gauge.notesLabel')}
          data-testid="gauge-notes"
        >
          {notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      )}
      <p className="gauge-details__hint">{t('gauge.openHint')}</p>
    </div>
  )
}
