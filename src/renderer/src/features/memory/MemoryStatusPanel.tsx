import { useTranslation } from 'react-i18next'
import type { MemoryStatus } from '@shared/domain'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { Icon } from '@renderer/components/Icon'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { MemorySettingsForm } from './MemorySettingsForm'
import { describeMemoryWarning } from './memoryWarning'
import { downloadPercent, summarizeStatus } from './statusSummary'
import { useMemoryStatusStore } from './memoryStatusStore'

/**
 * The model and the background indexing in detail: download progress, how much is indexed,
 * why recall is degraded if it is, and where the model comes from.
 */
export function MemoryStatusPanel() {
  const { t } = useTranslation()
  const status = useMemoryStatusStore((state) => state.status)
  const error = useMemoryStatusStore((state) => state.error)

  return (
    <section
      className="memory-status"
      data-testid="memory-status-panel"
      data-state={status?.model.state}
      aria-label={t('memory.status.label')}
    >
      {error && <ErrorBanner>{t('memory.status.loadFailed', { message: error })}</ErrorBanner>}
      {status && <StatusDetails status={status} />}
      <details className="memory-status__settings">
        <summary>{t('memory.settings.title')}</summary>
        <MemorySettingsForm />
      </details>
    </section>
  )
}

function StatusDetails({ status }: { status: MemoryStatus }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const { tone, text } = summarizeStatus(status, t)
  const { model, index } = status
  const warning = status.warning && describeMemoryWarning(status.warning, t)

  return (
    <>
      <div className="memory-status__head" data-tone={tone}>
        <span className="status-dot" aria-hidden="true" />
        <strong>{text}</strong>
        {model.id && (
          <span className="memory-status__model">
            {t('memory.status.model', {
              model: model.id.split('/').at(-1),
              dimension: model.dimension ?? '?'
            })}
          </span>
        )}
      </div>
      {model.state === 'downloading' && (
        <ul className="memory-status__files">
          {model.progress.map((file) => (
            <li key={file.file}>
              <Meter value={downloadPercent([file])} />
              {t('memory.status.downloadingFile', {
                file: file.file,
                loaded: megabytes(file.loaded, format),
                total: megabytes(file.total, format)
              })}
            </li>
          ))}
        </ul>
      )}
      <div className="memory-status__index">
        <IndexRow
          label={t('memory.status.messages', {
            done: format(index.indexedMessages),
            count: index.totalMessages
          })}
          done={index.indexedMessages}
          total={index.totalMessages}
        />
        <IndexRow
          label={t('memory.status.memories', {
            done: format(index.indexedMemories),
            count: index.totalMemories
          })}
          done={index.indexedMemories}
          total={index.totalMemories}
        />
      </div>
      {index.failed > 0 && (
        <p className="memory-status__note">{t('memory.status.failed', { count: index.failed })}</p>
      )}
      {index.reembedding && <p className="memory-status__note">{t('memory.status.reembedding')}</p>}
      {warning && (
        <div className="banner banner--notice" data-testid="memory-status-warning">
          <Icon name="info" />
          <div className="banner__body">{warning}</div>
        </div>
      )}
    </>
  )
}

function IndexRow({ label, done, total }: { label: string; done: number; total: number }) {
  return (
    <div className="memory-status__index-row">
      <span>{label}</span>
      <Meter value={total > 0 ? Math.round((done / total) * 100) : 0} />
    </div>
  )
}

function Meter({ value }: { value: number }) {
  return (
    <span className="meter" aria-hidden="true">
      <span className="meter__fill" style={{ width: `${value}%` }} />
    </span>
  )
}

const megabytes = (bytes: number, format: (value: number) => string): string =>
  `${format(Math.round(bytes / 100_000) / 10)} MB`
