import { useTranslation } from 'react-i18next'
import { useProvidersStore } from './providersStore'
import type { FoundOllama } from './providerDraft'

/** The last Ollama detection: offers the local server as a provider, or says why there is none. */
export function OllamaOffer({ onAdd }: { onAdd: (ollama: FoundOllama) => void }) {
  const { t } = useTranslation()
  const ollama = useProvidersStore((state) => state.ollama)
  if (!ollama) return null

  return (
    <div className="providers__ollama" data-testid="ollama-detection" role="status">
      {ollama.found ? (
        <>
          <span>{t('providers.ollamaFound', { count: ollama.models.length })}</span>
          <button
            type="button"
            className="button button--primary"
            data-testid="ollama-add"
            onClick={() => onAdd(ollama)}
          >
            {t('providers.ollamaAdd')}
          </button>
        </>
      ) : (
        <span>{t('providers.ollamaMissing', { url: ollama.baseUrl })}</span>
      )}
    </div>
  )
}
