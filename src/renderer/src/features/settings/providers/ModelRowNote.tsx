import { useTranslation } from 'react-i18next'
import type { ModelRecord, ProviderKind } from '@shared/providers'
import { formatCost } from '@renderer/lib/formatCost'

interface ModelRowNoteProps {
  kind: ProviderKind
  /** The model as saved, or undefined while the row is new and unsaved. */
  saved: ModelRecord | undefined
  /** The catalog release its values come from. */
  catalogDate: string | null
}

/**
 * Where a saved model's numbers come from, under its row: the catalog's prices with the
 * catalog's date, free on this computer (Ollama), or not in the catalog (the limits may be
 * guesses and no cost is shown).
 */
export function ModelRowNote({ kind, saved, catalogDate }: ModelRowNoteProps) {
  const { t } = useTranslation()
  if (!saved) return null
  const priced = saved.inputPrice !== undefined && saved.outputPrice !== undefined
  const state = kind === 'ollama' && saved.inputPrice === 0 ? 'local' : priced ? 'priced' : 'guess'
  return (
    <p className="providers__model-note" data-testid="provider-model-note" data-state={state}>
      {state === 'local'
        ? t('providers.modelNote.local')
        : state === 'priced'
          ? t('providers.modelNote.priced', {
              input: formatCost(saved.inputPrice ?? 0),
              output: formatCost(saved.outputPrice ?? 0),
              date: catalogDate ?? '—'
            })
          : t('providers.modelNote.guess')}
    </p>
  )
}
