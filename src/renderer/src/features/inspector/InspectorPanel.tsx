import { useCallback, useDeferredValue, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@renderer/components/EmptyState'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { Icon } from '@renderer/components/Icon'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { BudgetBar } from './BudgetBar'
import { BuildHistory } from './BuildHistory'
import { BuildMetadata } from './BuildMetadata'
import { BuildSource } from './BuildSource'
import { ConfigEditor } from './ConfigEditor'
import { CostExplain } from './CostExplain'
import { InspectorTabs, type InspectorTab } from './InspectorTabs'
import { PayloadView } from './PayloadView'
import { RecallExplain } from './RecallExplain'
import { ReplyUsage, SummaryCard } from './ReplyUsage'
import { SectionLegend } from './SectionLegend'
import { SummaryHistory } from '@renderer/features/summaries/SummaryHistory'
import { TraceList } from './TraceList'
import { selectSentBuild, selectShownBuild, useInspectorStore } from './inspectorStore'
import { usePanelWidth } from './usePanelWidth'
import { useSectionFocus } from './useSectionFocus'
import { watchInspector } from './watchInspector'
import './inspector.css'
import './budget.css'
import './trace.css'
import './config.css'
import './usage.css'

/** The right column; while it is closed nothing is previewed. */
export function InspectorPanel() {
  const open = useSettingsStore((state) => state.settings.inspectorOpen)
  return open ? <OpenInspector /> : null
}

/**
 * The token-budget inspector: what the open thread's next request would contain (or what a
 * sent one did), built by main from the same data it sends.
 */
function OpenInspector() {
  const { t } = useTranslation()
  const setInspectorOpen = useSettingsStore((state) => state.setInspectorOpen)
  const { width, handleProps } = usePanelWidth()

  useEffect(() => watchInspector(), [])

  return (
    <aside
      id="inspector-panel"
      className="inspector"
      data-testid="inspector-panel"
      aria-label={t('inspector.title')}
      style={{ width }}
    >
      <div className="inspector__resizer" aria-label={t('inspector.resize')} {...handleProps} />
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
      <InspectorBody />
    </aside>
  )
}

function InspectorBody() {
  const { t } = useTranslation()
  const threadId = useInspectorStore((state) => state.threadId)
  const build = useInspectorStore(selectShownBuild)
  const preview = useInspectorStore((state) => state.preview)
  // A sent build is a record: its items offer no pin or exclude.
  const isRecord = useInspectorStore((state) => selectSentBuild(state) !== null)
  const historyCount = useInspectorStore((state) => state.builds.length)
  const error = useInspectorStore((state) => state.error)
  const [tab, setTab] = useState<InspectorTab>('items')
  const ids = useId()
  const idOf = (which: InspectorTab) => ({ tab: `${ids}-${which}`, panel: `${ids}-${which}-panel` })
  // The long lists follow at a lower priority than the summary above them, so a new preview
  // arriving while the user types never holds up the keystroke after it.
  const listed = useDeferredValue(build)
  const body = useRef<HTMLDivElement>(null)
  useSectionFocus(
    body,
    useCallback(() => setTab('items'), [])
  )

  if (!threadId) {
    return (
      <div className="inspector__body">
        <EmptyState icon="layers" title={t('inspector.noThreadTitle')}>
          {t('inspector.noThreadBody')}
        </EmptyState>
      </div>
    )
  }

  return (
    <div className="inspector__body" ref={body}>
      <div className="inspector__summary">
        <BuildSource />
        {error && <ErrorBanner>{t('inspector.failed', { message: error })}</ErrorBanner>}
        {build ? (
          <>
            <BudgetBar stats={build.tokenStats} />
            <SectionLegend stats={build.tokenStats} />
            <RecallExplain build={build} />
            <BuildMetadata metadata={build.metadata} />
            <ReplyUsage />
            <CostExplain threadId={threadId} />
          </>
        ) : (
          !error && <p className="inspector__hint">{t('inspector.building')}</p>
        )}
      </div>
      <SummaryCard key={threadId} threadId={threadId} />
      <SummaryHistory key={`history-${threadId}`} threadId={threadId} />
      <InspectorTabs current={tab} onChange={setTab} idOf={idOf} historyCount={historyCount} />
      <div
        className="inspector__tab-panel"
        role="tabpanel"
        id={idOf(tab).panel}
        aria-labelledby={idOf(tab).tab}
      >
        {tab === 'items' && listed && <TraceList build={listed} editable={!isRecord} />}
        {tab === 'payload' && listed && <PayloadView messages={listed.messages} />}
        {tab === 'settings' && <ConfigEditor stats={preview?.tokenStats ?? null} />}
        {tab === 'history' && <BuildHistory />}
      </div>
    </div>
  )
}
