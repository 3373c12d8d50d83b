import { useTranslation } from 'react-i18next'
import { EmptyState } from '@renderer/components/EmptyState'
import { Icon } from '@renderer/components/Icon'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import './inspector.css'

/**
 * The right column. It will show every context build (budget vs used per section, each
 * candidate and why it was kept or dropped, the exact payload); until builds exist it says so
 * plainly rather than showing made-up numbers.
 */
export function InspectorPanel() {
  const { t } = useTranslation()
  const open = useSettingsStore((state) => state.settings.inspectorOpen)
  const setInspectorOpen = useSettingsStore((state) => state.setInspectorOpen)
  if (!open) return null

  return (
    <aside
      id="inspector-panel"
      className="inspector"
      data-testid="inspector-panel"
      aria-label={t('inspector.title')}
    >
      <header className="inspector__header">
        <h2 className="inspector__title">{t('inspector.title')}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('inspector.close')}
          title={t('inspector.close')}
          onClick={() => void setInspectorOpen(false)}
        >
          <Icon name="close" />
        </button>
      </header>
      <div className="inspector__body">
        <EmptyState icon="layers" title={t('inspector.emptyTitle')}>
          {t('inspector.emptyBody')}
        </EmptyState>
        <p className="inspector__note">{t('inspector.emptyNote')}</p>
      </div>
    </aside>
  )
}
