import { useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { PromptCacheTtlSelect } from '@renderer/features/settings/PromptCacheTtlSelect'
import { BackupSection } from '@renderer/features/settings/backup/BackupSection'
import { McpServerSettings } from '@renderer/features/tools/McpServerSettings'
import { useProvidersStore } from './providers/providersStore'
import { useProviderEditor } from './providers/useProviderEditor'
import { ProviderList } from './providers/ProviderList'
import { ProviderForm } from './providers/ProviderForm'
import { DefaultModelSelect } from './providers/DefaultModelSelect'
import './providers/providers.css'
import './settingsPage.css'

/** The page's sections, in the order they are listed and laid out. */
const SECTIONS = ['providers', 'models', 'tools', 'backups'] as const
type Section = (typeof SECTIONS)[number]

/**
 * Settings as a page over the whole window: a section list on the left and one scroll area, so
 * every control stays reachable at any window height, and a long list (backups, MCP servers, a
 * provider's models) scrolls inside its own section instead of pushing the rest away.
 * API keys are write-only: only the hint comes back.
 */
export function SettingsPage() {
  const { t } = useTranslation()
  const titleId = useId()
  const open = useProvidersStore((state) => state.open)
  const hide = useProvidersStore((state) => state.hide)
  const requestedKind = useProvidersStore((state) => state.requestedKind)
  const content = useRef<HTMLDivElement>(null)
  // Above the early return: the draft survives closing and reopening the page.
  const editor = useProviderEditor()
  const { startNew, addOllama } = editor

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') useProvidersStore.getState().hide()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  // The welcome asked for a kind: start a new provider of it (a found Ollama with its models).
  useEffect(() => {
    if (!open || !requestedKind) return
    const kind = useProvidersStore.getState().takeRequestedKind()
    const ollama = useProvidersStore.getState().ollama
    if (kind === 'ollama' && ollama?.found) addOllama(ollama)
    else if (kind) startNew(kind)
  }, [open, requestedKind, startNew, addOllama])

  if (!open) return null

  const titles: Record<Section, string> = {
    providers: t('providers.title'),
    models: t('settingsPage.models'),
    tools: t('tools.settingsTitle'),
    backups: t('backup.title')
  }
  const goTo = (section: Section) =>
    content.current
      ?.querySelector(`[data-section="${section}"]`)
      ?.scrollIntoView({ block: 'start', behavior: 'smooth' })

  return createPortal(
    <div
      className="settings-page"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="provider-settings"
    >
      <header className="settings-page__header">
        <button
          type="button"
          className="button"
          data-testid="provider-settings-close"
          onClick={hide}
          title={t('settingsPage.backHint')}
        >
          <Icon name="back" />
          {t('settingsPage.back')}
        </button>
        <h2 id={titleId} className="settings-page__title">
          {t('settingsPage.title')}
        </h2>
      </header>
      <div className="settings-page__body">
        <nav className="settings-page__nav" aria-label={t('settingsPage.sections')}>
          {SECTIONS.map((section) => (
            <button
              key={section}
              type="button"
              className="settings-page__nav-item"
              data-testid="settings-nav"
              data-section={section}
              onClick={() => goTo(section)}
            >
              {titles[section]}
            </button>
          ))}
        </nav>
        <div className="settings-page__content" ref={content} data-testid="settings-content">
          <section className="settings-page__section" data-section="providers">
            <h3 className="settings-page__section-title">{titles.providers}</h3>
            <div className="providers__layout">
              <ProviderList editor={editor} />
              <ProviderForm editor={editor} />
            </div>
          </section>
          <section className="settings-page__section" data-section="models">
            <h3 className="settings-page__section-title">{titles.models}</h3>
            <DefaultModelSelect />
            <PromptCacheTtlSelect />
          </section>
          <section className="settings-page__section" data-section="tools">
            <McpServerSettings />
          </section>
          <section className="settings-page__section" data-section="backups">
            <BackupSection />
          </section>
        </div>
      </div>
    </div>,
    document.body
  )
}
