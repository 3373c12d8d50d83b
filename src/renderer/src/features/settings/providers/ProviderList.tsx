import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useProvidersStore } from './providersStore'
import { KIND_NAMES } from './providerDraft'
import { OllamaOffer } from './OllamaOffer'
import type { ProviderEditor } from './useProviderEditor'

/** The saved providers to pick from, and the two ways to start a new one: blank or detected. */
export function ProviderList({ editor }: { editor: ProviderEditor }) {
  const { t } = useTranslation()
  const providers = useProvidersStore((state) => state.providers)

  return (
    <aside className="providers__list">
      <ul>
        {providers.map((provider) => (
          <li key={provider.id}>
            <button
              type="button"
              className={`providers__item${provider.id === editor.draft.providerId ? ' providers__item--active' : ''}`}
              data-testid="provider-item"
              onClick={() => editor.select(provider)}
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
        onClick={() => editor.startNew()}
      >
        <Icon name="plus" />
        {t('providers.add')}
      </button>
      <button
        type="button"
        className="button"
        data-testid="provider-detect-ollama"
        disabled={editor.busy === 'detect'}
        onClick={() => void editor.detectOllama()}
      >
        {t('providers.detectOllama')}
      </button>
      <OllamaOffer onAdd={editor.addOllama} />
    </aside>
  )
}
