import { useEffect, useId } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { PromptCacheTtlSelect } from '@renderer/features/settings/PromptCacheTtlSelect'
import { BackupSection } from '@renderer/features/settings/backup/BackupSection'
import '@renderer/components/dialog.css'
import './providers.css'
import { useProvidersStore } from './providersStore'
import { useProviderEditor } from './useProviderEditor'
import { ProviderList } from './ProviderList'
import { ProviderForm } from './ProviderForm'
import { DefaultModelSelect } from './DefaultModelSelect'
import { McpServerSettings } from '@renderer/features/tools/McpServerSettings'

/**
 * The model providers: add, edit and remove them, test the connection, detect a local
 * Ollama and choose the default model. API keys are write-only: only the hint comes back.
 */
export function ProviderSettings() {
  const { t } = useTranslation()
  const titleId = useId()
  const open = useProvidersStore((state) => state.open)
  const hide = useProvidersStore((state) => state.hide)
  // Above the early return: the draft survives closing and reopening the dialog.
  const editor = useProviderEditor()

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') useProvidersStore.getState().hide()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  if (!open) return null

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) hide()
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
            onClick={hide}
          >
            <Icon name="close" />
          </button>
        </header>

        <div className="providers__layout">
          <ProviderList editor={editor} />
          <ProviderForm editor={editor} />
        </div>

        <McpServerSettings />

        <footer className="providers__footer">
          <DefaultModelSelect />
          <PromptCacheTtlSelect />
        </footer>
        <BackupSection />
      </div>
    </div>,
    document.body
  )
}
