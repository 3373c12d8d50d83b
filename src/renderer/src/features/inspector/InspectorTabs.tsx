import type { KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'

export type InspectorTab = 'items' | 'payload' | 'settings' | 'history'

const TABS: { tab: InspectorTab; testId: string }[] = [
  { tab: 'items', testId: 'tab-items' },
  { tab: 'payload', testId: 'payload-toggle' },
  { tab: 'settings', testId: 'tab-settings' },
  { tab: 'history', testId: 'tab-history' }
]

interface InspectorTabsProps {
  current: InspectorTab
  onChange: (tab: InspectorTab) => void
  /** Ids for aria-controls/aria-labelledby, shared with the tab panel. */
  idOf: (tab: InspectorTab) => { tab: string; panel: string }
  historyCount: number
}

/** The views of one build; arrow keys move between them, as in any tab list. */
export function InspectorTabs({ current, onChange, idOf, historyCount }: InspectorTabsProps) {
  const { t } = useTranslation()

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key]
    if (step === undefined) return
    const index = TABS.findIndex(({ tab }) => tab === current)
    const next = TABS[(index + step + TABS.length) % TABS.length]!.tab
    onChange(next)
    document.getElementById(idOf(next).tab)?.focus()
  }

  return (
    <div
      className="inspector-tabs"
      role="tablist"
      aria-label={t('inspector.tabs.label')}
      onKeyDown={onKeyDown}
    >
      {TABS.map(({ tab, testId }) => (
        <button
          key={tab}
          type="button"
          role="tab"
          id={idOf(tab).tab}
          className="inspector-tabs__tab"
          data-testid={testId}
          aria-selected={tab === current}
          aria-controls={idOf(tab).panel}
          tabIndex={tab === current ? 0 : -1}
          onClick={() => onChange(tab)}
        >
          {t(`inspector.tabs.${tab}`)}
          {tab === 'history' && historyCount > 0 && (
            <span className="inspector-tabs__count">{historyCount}</span>
          )}
        </button>
      ))}
    </div>
  )
}
