import { useEffect, useId, useMemo, useRef, useState, type MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { SECTIONS, type SectionName } from '@shared/context'
import { Icon } from '@renderer/components/Icon'
import { SectionBar } from '@renderer/features/inspector/SectionBar'
import { useInspectorStore } from '@renderer/features/inspector/inspectorStore'
import { watchInspector } from '@renderer/features/inspector/watchInspector'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { useFilesStore } from '@renderer/features/files/filesStore'
import { useFormatCompact, useFormatNumber } from '@renderer/lib/formatNumber'
import { GaugeDetails } from './GaugeDetails'
import { useChatStore } from './chatStore'
import { readGauge, type GaugeAlert, type GaugeReading } from './gaugeReading'
import './gauge.css'

const isSection = (value: string | undefined): value is SectionName =>
  (SECTIONS as readonly string[]).includes(value ?? '')

/**
 * The open thread's context by the composer: one bar in the inspector's section colours with
 * used/budget and the model's window. It reads the inspector's store (the live preview of the
 * draft, the builds main reports), so chat, inspector and sidebar show the same numbers.
 * Hover or keyboard focus shows the per-section figures; a click opens the inspector there.
 */
export function ContextGauge({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const compact = useFormatCompact()
  const draft = useChatStore((state) => state.drafts[threadId] ?? '')
  const preview = useInspectorStore((state) => (state.threadId === threadId ? state.preview : null))
  const lastSent = useInspectorStore((state) =>
    state.threadId === threadId ? (state.builds[0] ?? null) : null
  )
  const reading = useMemo(() => readGauge(draft, preview, lastSent), [draft, preview, lastSent])
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const pointerDown = useRef(false)
  const root = useRef<HTMLDivElement>(null)
  // The card opens upwards; a tall draft leaves less room above the gauge, so it scrolls.
  const [room, setRoom] = useState(400)
  const measure = () =>
    setRoom(Math.max(160, (root.current?.getBoundingClientRect().top ?? 400) - 12))
  const detailsId = useId()

  useEffect(() => watchInspector(), [])

  if (!reading) return null
  const { tokenStats } = reading.context
  const open = hovered || focused

  const openInspector = (section: SectionName) => {
    useInspectorStore.getState().focusSection(section, reading.build?.id ?? null)
    void useSettingsStore.getState().setInspectorOpen(true)
    setHovered(false)
    setFocused(false)
  }

  const onBarClick = (event: MouseEvent<HTMLButtonElement>) => {
    const picked = (event.target as HTMLElement).closest<HTMLElement>('[data-section]')?.dataset
      .section
    openInspector(isSection(picked) ? picked : largestSection(reading))
  }

  return (
    <div className="gauge-row">
      <div
        ref={root}
        className="gauge"
        data-testid="context-gauge"
        data-source={reading.source}
        data-alert={reading.alert?.kind ?? 'none'}
        data-state={reading.state}
        data-used={tokenStats.total}
        data-budget={tokenStats.budget}
        onMouseEnter={() => {
          measure()
          setHovered(true)
        }}
        onMouseLeave={() => setHovered(false)}
        onPointerDown={() => {
          pointerDown.current = true
        }}
        onFocus={() => {
          // Focus from a click opens the inspector instead; from the keyboard it shows details.
          if (!pointerDown.current) {
            measure()
            setFocused(true)
          }
          pointerDown.current = false
        }}
        onBlur={(event) => {
          if (!root.current?.contains(event.relatedTarget as Node | null)) setFocused(false)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.stopPropagation()
            setHovered(false)
            setFocused(false)
          }
        }}
      >
        <button
          type="button"
          className="gauge__button"
          data-testid="gauge-button"
          aria-expanded={open}
          aria-controls={open ? detailsId : undefined}
          aria-label={t('gauge.buttonLabel', {
            source: t(`gauge.source.${reading.source}`),
            used: format(tokenStats.total),
            budget: format(tokenStats.budget)
          })}
          onClick={onBarClick}
        >
          <span className="gauge__label" aria-hidden="true">
            {t('gauge.label')}
            <span className="gauge__source" data-testid="gauge-source">
              {t(`gauge.source.${reading.source}`)}
            </span>
          </span>
          <SectionBar
            stats={tokenStats}
            size="compact"
            testId="gauge-bar"
            marker={reading.safetyLimit}
          />
          <span className="gauge__numbers" aria-hidden="true" data-testid="gauge-numbers">
            {t('gauge.usage', {
              used: format(tokenStats.total),
              budget: format(tokenStats.budget)
            })}
          </span>
          <span className="gauge__percent" aria-hidden="true" data-testid="gauge-percent">
            {t('gauge.percent', { percent: reading.percent })}
          </span>
          <span className="gauge__window" aria-hidden="true">
            {t('gauge.window', { window: compact(tokenStats.contextWindow) })}
          </span>
          {reading.alert && <Icon name="alert" />}
        </button>
        {open && (
          <GaugeDetails
            id={detailsId}
            reading={reading}
            maxHeight={room}
            onOpenSection={openInspector}
          />
        )}
      </div>
      {reading.alert && (
        <GaugeAlertLine
          alert={reading.alert}
          onAttach={pasteOutgrowsInput(reading) ? () => attachDraft(threadId, draft, t) : null}
        />
      )}
    </div>
  )
}

/** The safety net is near or would act on send: said in words, not only with colour. */
function GaugeAlertLine({
  alert,
  onAttach
}: {
  alert: GaugeAlert
  /** Offered when the draft alone is larger than the input's share: send it as a file instead. */
  onAttach: (() => void) | null
}) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const text = (() => {
    switch (alert.kind) {
      case 'near':
        return t('gauge.nearBudget', { percent: alert.percent, limit: format(alert.limit) })
      case 'over':
        return t('gauge.overBudget', { percent: alert.percent, left: format(alert.left) })
      case 'wouldShrink':
        return t('gauge.wouldShrink', {
          limit: format(alert.limit),
          dropped: format(alert.dropped)
        })
      case 'wouldTrim':
        return t('gauge.wouldTrim', { sent: format(alert.sent) })
    }
  })()
  return (
    <p className="gauge__alert" role="status" data-testid="gauge-alert" data-kind={alert.kind}>
      <Icon name="alert" />
      <span>{text}</span>
      {onAttach && (
        <button
          type="button"
          className="button button--small gauge__attach"
          data-testid="gauge-attach-draft"
          title={t('gauge.attachDraftHint')}
          onClick={onAttach}
        >
          <Icon name="paperclip" />
          {t('gauge.attachDraft')}
        </button>
      )}
    </p>
  )
}

/**
 * The draft alone is over the input's share, or so large the safety net would send only its
 * ends: as an attachment, only its relevant chunks are sent.
 */
const pasteOutgrowsInput = (reading: GaugeReading): boolean => {
  const input = reading.context.tokenStats.sections.input
  return (
    reading.source === 'draft' &&
    (input.used > input.budget || reading.safetyNet.includes('input_trimmed'))
  )
}

/** Moves the draft into a text file attached to the next message, and empties the composer. */
function attachDraft(threadId: string, draft: string, t: TFunction): void {
  const file = new File([draft], t('gauge.pastedFileName'), { type: 'text/plain' })
  void useFilesStore.getState().attachFiles(threadId, 'message', [file])
  useChatStore.getState().setDraft(threadId, '')
}

/** Where a click that hit no segment opens the inspector: the section holding the most. */
function largestSection(reading: GaugeReading): SectionName {
  const { sections } = reading.context.tokenStats
  return SECTIONS.reduce((best, section) =>
    sections[section].used > sections[best].used ? section : best
  )
}
