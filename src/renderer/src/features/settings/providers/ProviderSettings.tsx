import { useEffect, useId, useState, type FormEvent } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import {
  PROVIDER_KINDS,
  type ConnectionTestResult,
  type ModelInput,
  type ProviderInput,
  type ProviderKind,
  type ProviderView
} from '@shared/providers'
import { Icon } from '@renderer/components/Icon'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { PromptCacheTtlSelect } from '@renderer/features/settings/PromptCacheTtlSelect'
import '@renderer/components/dialog.css'
import './providers.css'
import { useProvidersStore } from './providersStore'

interface ModelRow {
  id: string
  contextWindow: string
  maxOutput: string
}

interface Draft {
  /** null while adding a new provider. */
  providerId: string | null
  kind: ProviderKind
  name: string
  baseUrl: string
  apiKey: string
  models: ModelRow[]
}

const KIND_NAMES: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
  ollama: 'Ollama'
}

const emptyDraft = (kind: ProviderKind = 'openai-compatible'): Draft => ({
  providerId: null,
  kind,
  name: '',
  baseUrl: '',
  apiKey: '',
  models: []
})

const draftOf = (provider: ProviderView): Draft => ({
  providerId: provider.id,
  kind: provider.kind,
  name: provider.name,
  baseUrl: provider.baseUrl ?? '',
  apiKey: '',
  models: provider.models.map((model) => ({
    id: model.id,
    contextWindow: String(model.contextWindow),
    maxOutput: String(model.maxOutput)
  }))
})

const toNumber = (text: string): number | undefined => {
  const value = Number(text.replace(/[,\s]/g, ''))
  return text.trim() !== '' && Number.isFinite(value) ? Math.round(value) : undefined
}

const modelsOf = (draft: Draft): ModelInput[] =>
  draft.models
    .filter((row) => row.id.trim() !== '')
    .map((row) => {
      const contextWindow = toNumber(row.contextWindow)
      const maxOutput = toNumber(row.maxOutput)
      return {
        id: row.id.trim(),
        ...(contextWindow !== undefined && { contextWindow }),
        ...(maxOutput !== undefined && { maxOutput })
      }
    })

const inputOf = (draft: Draft): ProviderInput => ({
  kind: draft.kind,
  name: draft.name.trim() || KIND_NAMES[draft.kind],
  ...(draft.baseUrl.trim() && { baseUrl: draft.baseUrl.trim() }),
  ...(draft.apiKey.trim() && { apiKey: draft.apiKey.trim() }),
  models: modelsOf(draft)
})

/**
 * The model providers: add, edit and remove them, test the connection, detect a local
 * Ollama and choose the default model. API keys are write-only: only the hint comes back.
 */
export function ProviderSettings() {
  const { t } = useTranslation()
  const titleId = useId()
  const listId = useId()
  const open = useProvidersStore((state) => state.open)
  const providers = useProvidersStore((state) => state.providers)
  const catalog = useProvidersStore((state) => state.catalog)
  const encryption = useProvidersStore((state) => state.encryptionAvailable)
  const ollama = useProvidersStore((state) => state.ollama)
  const error = useProvidersStore((state) => state.error)
  const store = useProvidersStore.getState()
  const defaultModel = useSettingsStore((state) => state.settings.defaultModel)
  const setDefaultModel = useSettingsStore((state) => state.setDefaultModel)
  const [draft, setDraft] = useState<Draft>(() => emptyDraft())
  const [testResult, setTestResult] = useState<ConnectionTestResult | null>(null)
  const [busy, setBusy] = useState<'save' | 'test' | 'detect' | null>(null)
  const [saved, setSaved] = useState(false)

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') useProvidersStore.getState().hide()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  if (!open) return null

  const catalogModels = catalog?.models[draft.kind] ?? []
  const selected = providers.find((provider) => provider.id === draft.providerId) ?? null
  const change = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }))
    setSaved(false)
  }
  const changeModel = (index: number, patch: Partial<ModelRow>) => {
    const rows = draft.models.map((row, at) => {
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
    change({ models: rows })
  }

  const save = async (event?: FormEvent) => {
    event?.preventDefault()
    setBusy('save')
    const input = inputOf(draft)
    const result = draft.providerId
      ? await store.update(draft.providerId, {
          name: input.name,
          baseUrl: input.baseUrl ?? null,
          ...(input.apiKey && { apiKey: input.apiKey }),
          models: input.models
        })
      : await store.create(input)
    setBusy(null)
    if (result) {
      setDraft(draftOf(result))
      setSaved(true)
    }
  }

  const test = async () => {
    setBusy('test')
    setTestResult(null)
    const modelId = modelsOf(draft)[0]?.id
    // A saved provider without a new key is tested with its stored key.
    const target =
      draft.providerId && !draft.apiKey.trim()
        ? { id: draft.providerId }
        : { draft: inputOf(draft) }
    setTestResult(await store.test(target, modelId))
    setBusy(null)
  }

  const detect = async () => {
    setBusy('detect')
    await store.detectOllama()
    setBusy(null)
  }

  const addOllama = () => {
    if (!ollama?.found) return
    setDraft({
      ...emptyDraft('ollama'),
      name: 'Ollama',
      // The address that answered, not an assumed default: the provider talks to what was found.
      baseUrl: ollama.baseUrl,
      models: ollama.models.map((model) => ({
        id: model.name,
        contextWindow: '8192',
        maxOutput: '2048'
      }))
    })
    setSaved(false)
    setTestResult(null)
  }

  const remove = async () => {
    if (!draft.providerId) return
    if (await store.remove(draft.providerId)) {
      if (defaultModel?.providerId === draft.providerId) void setDefaultModel(null)
      setDraft(emptyDraft())
      setTestResult(null)
    }
  }

  const allModels = providers.flatMap((provider) =>
    provider.models.map((model) => ({ provider, model }))
  )
  const defaultValue = defaultModel ? `${defaultModel.providerId}\u0000${defaultModel.modelId}` : ''
  const needsKey = draft.kind !== 'ollama'

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) store.hide()
      }}
    >
      <div
        className="dialog providers"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="provider-settings"
      >
        <header className="providers__header">
          <h2 id={titleId} className="dialog__title">
            {t('providers.title')}
          </h2>
          <button
            type="button"
            className="icon-button"
            data-testid="provider-settings-close"
            aria-label={t('common.close')}
            title={t('common.close')}
            onClick={store.hide}
          >
            <Icon name="close" />
          </button>
        </header>

        <div className="providers__layout">
          <aside className="providers__list">
            <ul>
              {providers.map((provider) => (
                <li key={provider.id}>
                  <button
                    type="button"
                    className={`providers__item${provider.id === draft.providerId ? ' providers__item--active' : ''}`}
                    data-testid="provider-item"
                    onClick={() => {
                      setDraft(draftOf(provider))
                      setTestResult(null)
                      setSaved(false)
                    }}
                  >
                    <span className="providers__item-name">{provider.name}</span>
                    <span className="providers__item-kind">{KIND_NAMES[provider.kind]}</span>
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className="button"
              data-testid="provider-add"
              onClick={() => {
                setDraft(emptyDraft())
                setTestResult(null)
                setSaved(false)
              }}
            >
              <Icon name="plus" />
              {t('providers.add')}
            </button>
            <button
              type="button"
              className="button"
              data-testid="provider-detect-ollama"
              disabled={busy === 'detect'}
              onClick={() => void detect()}
            >
              {t('providers.detectOllama')}
            </button>
            {ollama && (
              <div className="providers__ollama" data-testid="ollama-detection" role="status">
                {ollama.found ? (
                  <>
                    <span>{t('providers.ollamaFound', { count: ollama.models.length })}</span>
                    <button
                      type="button"
                      className="button button--primary"
                      data-testid="ollama-add"
                      onClick={addOllama}
                    >
                      {t('providers.ollamaAdd')}
                    </button>
                  </>
                ) : (
                  <span>{t('providers.ollamaMissing', { url: ollama.baseUrl })}</span>
                )}
              </div>
            )}
          </aside>

          <form className="providers__form" onSubmit={(event) => void save(event)}>
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
                placeholder={
                  draft.kind === 'openai-compatible' ? 'http://127.0.0.1:1234/v1' : undefined
                }
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
                    selected?.apiKeyHint
                      ? t('providers.apiKeyStored', { hint: selected.apiKeyHint })
                      : t('providers.apiKeyPlaceholder')
                  }
                  onChange={(event) => change({ apiKey: event.target.value })}
                />
              </label>
            )}

            <fieldset className="providers__models">
              <legend>{t('providers.models')}</legend>
              <datalist id={listId}>
                {catalogModels.map((model) => (
                  <option key={model.id} value={model.id} />
                ))}
              </datalist>
              {draft.models.length > 0 && (
                <div className="providers__model providers__model--head" aria-hidden="true">
                  <span>{t('providers.modelId')}</span>
                  <span>{t('providers.contextWindow')}</span>
                  <span>{t('providers.maxOutput')}</span>
                  <span />
                </div>
              )}
              {draft.models.map((row, index) => (
                <div className="providers__model" key={index} data-testid="provider-model-row">
                  <input
                    data-testid="provider-model-id"
                    aria-label={t('providers.modelId')}
                    list={listId}
                    value={row.id}
                    onChange={(event) => changeModel(index, { id: event.target.value })}
                  />
                  <input
                    data-testid="provider-model-window"
                    aria-label={t('providers.contextWindow')}
                    inputMode="numeric"
                    value={row.contextWindow}
                    onChange={(event) => changeModel(index, { contextWindow: event.target.value })}
                  />
                  <input
                    data-testid="provider-model-max-output"
                    aria-label={t('providers.maxOutput')}
                    inputMode="numeric"
                    value={row.maxOutput}
                    onChange={(event) => changeModel(index, { maxOutput: event.target.value })}
                  />
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('providers.removeModel')}
                    title={t('providers.removeModel')}
                    onClick={() => change({ models: draft.models.filter((_, at) => at !== index) })}
                  >
                    <Icon name="trash" />
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="button"
                data-testid="provider-model-add"
                onClick={() =>
                  change({
                    models: [...draft.models, { id: '', contextWindow: '', maxOutput: '' }]
                  })
                }
              >
                <Icon name="plus" />
                {t('providers.addModel')}
              </button>
            </fieldset>

            {testResult && (
              <p
                className={`providers__test providers__test--${testResult.ok ? 'ok' : 'failed'}`}
                data-testid="provider-test-result"
                data-ok={testResult.ok ? 'true' : 'false'}
                role="status"
              >
                {testResult.ok
                  ? testResult.models
                    ? t('providers.testModels', {
                        ms: testResult.latencyMs,
                        models: testResult.models.slice(0, 8).join(', ')
                      })
                    : t('providers.testOk', { ms: testResult.latencyMs })
                  : t('providers.testFailed', {
                      kind: t(`chat.errorKinds.${testResult.error.kind}`),
                      message: testResult.error.message
                    })}
              </p>
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
                  onClick={() => void remove()}
                >
                  {t('providers.remove')}
                </button>
              )}
              <span className="providers__spacer" />
              {saved && (
                <span className="providers__saved" data-testid="provider-saved">
                  {t('providers.saved')}
                </span>
              )}
              <button
                type="button"
                className="button"
                data-testid="provider-test"
                disabled={busy !== null}
                onClick={() => void test()}
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
        </div>

        <footer className="providers__footer">
          <label className="providers__field providers__field--inline">
            <span>{t('providers.defaultModel')}</span>
            <select
              data-testid="default-model-select"
              value={defaultValue}
              onChange={(event) => {
                const [providerId, modelId] = event.target.value.split('\u0000')
                void setDefaultModel(providerId && modelId ? { providerId, modelId } : null)
              }}
            >
              <option value="">{t('providers.noDefault')}</option>
              {allModels.map(({ provider, model }) => (
                <option
                  key={`${provider.id}/${model.id}`}
                  value={`${provider.id}\u0000${model.id}`}
                >
                  {provider.name} · {model.id}
                </option>
              ))}
            </select>
          </label>
          <PromptCacheTtlSelect />
        </footer>
      </div>
    </div>,
    document.body
  )
}
