// Before anything that builds a zod schema (the contract, the context config).
import '@shared/zodWithoutEval'
// The global styles come first so each component's own CSS, imported below, can refine them.
import './styles/theme.css'
import './styles/base.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { initI18n, resolveLanguage } from './i18n'
import { useSettingsStore } from './features/settings/settingsStore'

/** Settings come first so the first frame is already in the user's language. */
async function start(): Promise<void> {
  await useSettingsStore.getState().load()
  const { locale } = useSettingsStore.getState().settings
  await initI18n(resolveLanguage(locale, navigator.language))

  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>
  )
}

void start()
