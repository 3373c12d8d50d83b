import { useTranslation } from 'react-i18next'
import { PROVIDER_KINDS, type ProviderKind } from '@shared/providers'
import { useProvidersStore } from './providersStore'
import { KIND_NAMES } from './providerDraft'
import { ModelRowsFieldset } from './ModelRowsFieldset'
import { ConnectionTestStatus } from './ConnectionTestStatus'
import { RemoteModelsStatus } from './RemoteModelsStatus'
import type { ProviderEditor } from './useProviderEditor'

/** The draft's connection fields and models, with test, save and remove. */
export function ProviderForm({ editor }: { editor: ProviderEditor }) {
  const { t } = useTranslation()
  const { draft, change, busy } = editor
  const catalogModels = useProvidersStore((state) => state.catalog?.models[draft.kind]) ?? []
  const catalogDate = useProvidersStore((state) => state.catalog?.date ?? null)
  const savedModels = useProvidersStore(
    (state) => state.providers.find((provider) => provider.id === draft.providerId)?.models
  )
  const encryption = useProvidersStore((state) => state.encryptionAvailable)
  const error = useProvidersStore((state) => state.error)
  const apiKeyHint = useProvidersStore(
    (state) => state.providers.find((provider) => provider.id === draft.providerId)?.apiKeyHint
  )
  const needsKey = draft.kind !== 'ollama'

  return (
    <form className="providers__form" onSubmit={(event) => void editor.save(event)}>
      {encryption === false && (
        <p className="banner banner--notice" data-testid="encryption-unavailable">
          {t('providers.encryptionUnavailable')}
        </p>
      )}
      <div className="providers__row">
        <label className="providers__field">
          <span>{t('providers.kind')}</span>
          <select
            data-testid="provider-kind"
            value={draft.kind}
            disabled={draft.providerId !== null}
            onChange={(event) => change({ kind: event.target.value as ProviderKind })}
          >
            {PROVIDER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className="providers__field">
          <span>{t('providers.name')}</span>
          <input
            data-testid="provider-name"
            value={draft.name}
            placeholder={KIND_NAMES[draft.kind]}
            onChange={(event) => change({ name: event.target.value })}
          />
        </label>
      </div>
      <label className="providers__field">
        <span>
          {t('providers.baseUrl')}
          {draft.kind !== 'openai-compatible' && ` ${t('providers.optional')}`}
        </span>
        <input
          data-testid="provider-base-url"
          value={draft.baseUrl}
          placeholder={draft.kind === 'openai-compatible' ? 'http://127.0.0.1:1234/v1' : undefined}
          onChange={(event) => change({ baseUrl: event.target.value })}
        />
      </label>
      {needsKey && (
        <label className="providers__field">
          <span>{t('providers.apiKey')}</span>
          <input
            type="password"
            autoComplete="off"
            data-testid="provider-api-key"
            value={draft.apiKey}
            disabled={encryption === false}
            placeholder={
              apiKeyHint
                ? t('providers.apiKeyStored', { hint: apiKeyHint })
                : t('providers.apiKeyPlaceholder')
            }
            onChange={(event) => change({ apiKey: event.target.value })}
          />
        </label>
      )}

      <ModelRowsFieldset
        rows={draft.models}
        catalogModels={catalogModels}
        remoteIds={editor.remoteModels?.ok ? editor.remoteModels.models : []}
        onChange={(models) => change({ models })}
        kind={draft.kind}
        saved={savedModels ?? []}
        catalogDate={catalogDate}
      />

      {editor.testResult && <ConnectionTestStatus result={editor.testResult} />}
      {editor.remoteModels && (
        <RemoteModelsStatus
          result={editor.remoteModels}
          added={draft.models.map((row) => row.id)}
          onAdd={(modelId) => void editor.addRemoteModel(modelId)}
          busy={busy !== null}
        />
      )}
      {error && (
        <p className="providers__error" role="alert" data-testid="provider-error">
          {error}
        </p>
      )}

      <div className="providers__actions">
        {draft.providerId && (
          <button
            type="button"
            className="button button--danger"
            data-testid="provider-remove"
            onClick={() => void editor.remove()}
          >
            {t('providers.remove')}
          </button>
        )}
        <span className="providers__spacer" />
        {editor.saved && (
          <span className="providers__saved" data-testid="provider-saved">
            {t('providers.saved')}
          </span>
        )}
        {draft.providerId && (
          <button
            type="button"
            className="button"
            data-testid="provider-fetch-models"
            disabled={busy !== null}
            onClick={() => void editor.fetchModels()}
          >
            {busy === 'models' ? t('providers.fetchingModels') : t('providers.fetchModels')}
          </button>
        )}
        <button
          type="button"
          className="button"
          data-testid="provider-test"
          disabled={busy !== null}
          onClick={() => void editor.test()}
        >
          {busy === 'test' ? t('providers.testing') : t('providers.test')}
        </button>
        <button
          type="submit"
          className="button button--primary"
          data-testid="provider-save"
          disabled={busy !== null}
        >
          {t('providers.save')}
        </button>
      </div>
    </form>
  )
}
