import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { ModelRecord, ProviderKind } from '@shared/providers'
import { Icon } from '@renderer/components/Icon'
import type { ModelRow } from './providerDraft'
import { ModelRowNote } from './ModelRowNote'

interface ModelRowsFieldsetProps {
  rows: ModelRow[]
  /** The well-known models of the provider's kind, offered as ids and used to fill limits. */
  catalogModels: ModelRecord[]
  /** Ids the provider itself said it serves ("List models"), offered too. */
  remoteIds?: string[]
  onChange: (rows: ModelRow[]) => void
  kind: ProviderKind
  /** The provider's models as saved: where each row's numbers came from. */
  saved: readonly ModelRecord[]
  catalogDate: string | null
}

/** The provider's models: one editable row each, with its context window and output limit. */
export function ModelRowsFieldset({
  rows,
  catalogModels,
  remoteIds = [],
  onChange,
  kind,
  saved,
  catalogDate
}: ModelRowsFieldsetProps) {
  const { t } = useTranslation()
  const listId = useId()

  const changeRow = (index: number, patch: Partial<ModelRow>) => {
    onChange(
      rows.map((row, at) => {
        if (at !== index) return row
        const next = { ...row, ...patch }
        // A well-known id fills in its window and output limit (still editable).
        const known = patch.id !== undefined && catalogModels.find((model) => model.id === patch.id)
        return known
          ? {
              ...next,
              contextWindow: String(known.contextWindow),
              maxOutput: String(known.maxOutput)
            }
          : next
      })
    )
  }

  return (
    <fieldset className="providers__models">
      <legend>{t('providers.models')}</legend>
      <datalist id={listId}>
        {[...new Set([...remoteIds, ...catalogModels.map((model) => model.id)])].map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      {rows.length > 0 && (
        <div className="providers__model providers__model--head" aria-hidden="true">
          <span>{t('providers.modelId')}</span>
          <span>{t('providers.contextWindow')}</span>
          <span>{t('providers.maxOutput')}</span>
          <span />
        </div>
      )}
      <div className="providers__model-rows">
        {rows.map((row, index) => (
          <div className="providers__model-entry" key={index}>
            <div className="providers__model" data-testid="provider-model-row">
              <input
                data-testid="provider-model-id"
                aria-label={t('providers.modelId')}
                list={listId}
                value={row.id}
                onChange={(event) => changeRow(index, { id: event.target.value })}
              />
              <input
                data-testid="provider-model-window"
                aria-label={t('providers.contextWindow')}
                inputMode="numeric"
                value={row.contextWindow}
                onChange={(event) => changeRow(index, { contextWindow: event.target.value })}
              />
              <input
                data-testid="provider-model-max-output"
                aria-label={t('providers.maxOutput')}
                inputMode="numeric"
                value={row.maxOutput}
                onChange={(event) => changeRow(index, { maxOutput: event.target.value })}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t('providers.removeModel')}
                title={t('providers.removeModel')}
                onClick={() => onChange(rows.filter((_, at) => at !== index))}
              >
                <Icon name="trash" />
              </button>
            </div>
            <ModelRowNote
              kind={kind}
              saved={saved.find((model) => model.id === row.id.trim())}
              catalogDate={catalogDate}
            />
          </div>
        ))}
      </div>
      <button
        type="button"
        className="button"
        data-testid="provider-model-add"
        onClick={() => onChange([...rows, { id: '', contextWindow: '', maxOutput: '' }])}
      >
        <Icon name="plus" />
        {t('providers.addModel')}
      </button>
    </fieldset>
  )
}
