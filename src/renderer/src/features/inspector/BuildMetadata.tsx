import { useTranslation } from 'react-i18next'
import type { BuildMetadata as Metadata } from '@shared/context'
import { Icon } from '@renderer/components/Icon'
import { describeMemoryWarning } from '@renderer/features/memory/memoryWarning'
import { useFormatNumber } from '@renderer/lib/formatNumber'

/** How the tokens were counted, in words: exactly (a model's own tokenizer) or estimated. */
const countingOf = (encoding: string) => (encoding === 'estimate' ? 'estimated' : 'exact')

/** The engine that built the request, by the names the glossary uses (an unknown one: its id, in the tooltip). */
const engineOf = (engine: string) =>
  engine === 'builder' || engine === 'compressor' ? engine : 'other'

/** The build's counts and model, and every degradation it recorded, in the user's language. */
export function BuildMetadata({ metadata }: { metadata: Metadata }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const counts: [label: string, value: number][] = [
    [t('inspector.metadata.included'), metadata.includedMessageCount],
    [t('inspector.metadata.dropped'), metadata.droppedMessageCount],
    [t('inspector.metadata.summarized'), metadata.summarizedMessageCount],
    // Everything recall placed: memories and recalled messages alike, so not "memories".
    [t('inspector.metadata.retrieved'), metadata.retrievedMemoryCount]
  ]
  const summary = metadata.usedSummary
    ? t('inspector.metadata.summaryUsed')
    : t('inspector.metadata.summaryNone')

  return (
    <>
      <div
        className="build-metadata"
        data-testid="build-metadata"
        role="group"
        aria-label={t('inspector.metadata.label')}
      >
        <dl className="build-metadata__counts">
          {counts.map(([label, value]) => (
            <div key={label} className="build-metadata__count">
              <dt>{label}</dt>
              <dd>{format(value)}</dd>
            </div>
          ))}
        </dl>
        <p className="build-metadata__model" title={metadata.engine}>
          {[
            summary,
            metadata.model,
            t(`inspector.metadata.counting.${countingOf(metadata.encoding)}`),
            t(`inspector.metadata.engines.${engineOf(metadata.engine)}`)
          ].join(' · ')}
        </p>
      </div>
      {metadata.warnings.length > 0 && (
        <ul className="build-warnings">
          {metadata.warnings.map((warning, index) => (
            <li
              key={`${warning.code}:${index}`}
              className="build-warning"
              data-testid="build-warning"
              data-code={warning.code}
              title={warning.message}
            >
              <Icon name="alert" />
              {/* A code this version does not know yet still says something: main's English. */}
              <span>
                {warning.memory
                  ? describeMemoryWarning(warning.memory, t)
                  : t(`inspector.warnings.${warning.code}`, {
                      defaultValue: warning.message,
                      files: warning.files?.join(', ')
                    })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
