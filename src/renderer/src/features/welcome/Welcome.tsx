import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { ProviderKind } from '@shared/providers'
import { Icon } from '@renderer/components/Icon'
import { KIND_NAMES } from '@renderer/features/settings/providers/providerDraft'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import './welcome.css'

/** The kinds a newcomer can start with, in the order most people have one. */
const STARTS: readonly ProviderKind[] = ['openai', 'anthropic', 'openai-compatible']

/**
 * The first screen of an empty store: what the app does, and the one thing it needs before
 * anything replies (a model provider). A local Ollama, when one answers, is offered first.
 */
export function Welcome() {
  const { t } = useTranslation()
  const ollama = useProvidersStore((state) => state.ollama)
  const showNew = useProvidersStore((state) => state.showNew)

  useEffect(() => {
    if (useProvidersStore.getState().ollama === null) {
      void useProvidersStore.getState().detectOllama()
    }
  }, [])

  return (
    <section className="welcome" data-testid="welcome" aria-labelledby="welcome-title">
      <span className="welcome__mark" aria-hidden="true">
        <Icon name="layers" />
      </span>
      <h2 id="welcome-title" className="welcome__title">
        {t('welcome.title')}
      </h2>
      <p className="welcome__body">{t('welcome.body')}</p>
      <p className="welcome__body">{t('welcome.needsProvider')}</p>
      <button
        type="button"
        className="button button--primary welcome__primary"
        data-testid="welcome-add-provider"
        onClick={() => showNew(ollama?.found ? 'ollama' : 'openai-compatible')}
      >
        <Icon name="plus" />
        {t('welcome.addProvider')}
      </button>
      {ollama?.found && (
        <p className="welcome__hint" data-testid="welcome-ollama">
          {t('welcome.ollamaFound', { count: ollama.models.length })}
        </p>
      )}
      <div className="welcome__kinds" role="group" aria-label={t('welcome.kindsLabel')}>
        {STARTS.map((kind) => (
          <button
            key={kind}
            type="button"
            className="button"
            data-testid="welcome-kind"
            data-kind={kind}
            onClick={() => showNew(kind)}
          >
            {KIND_NAMES[kind]}
          </button>
        ))}
      </div>
      <p className="welcome__hint">{t('welcome.localFirst')}</p>
    </section>
  )
}
