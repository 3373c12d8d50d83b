import {
  SAFETY_SHARE,
  type BuildWarning,
  type BuiltContext,
  type StoredBuild,
  type WarningCode
} from '@shared/context'
import { defaultView, type DefaultSource } from '@renderer/features/inspector/inspectorStore'

/** Where the gauge's numbers come from: the inspector's default view, the same rule. */
type GaugeSource = DefaultSource

/** From this share of the safety limit on, the gauge warns that the net is close. */
const NEAR_SAFETY_SHARE = 0.9
/** From this share of the request's budget on, the gauge warns that history will give way. */
const NEAR_BUDGET_SHARE = 0.9

/**
 * The gauge's colour and its one warning agree: ok; near (90 % of the budget or of the safety
 * limit); over (past the budget, or the safety net acted on this build).
 */
type GaugeState = 'ok' | 'near' | 'over'

const SAFETY_NET_CODES: readonly WarningCode[] = ['request_shrunk', 'input_trimmed']

/** What the 85 % safety net would do if this preview were sent now. */
export type GaugeAlert =
  | { kind: 'near'; percent: number; limit: number }
  | { kind: 'over'; percent: number; left: number }
  | { kind: 'wouldShrink'; limit: number; dropped: number }
  | { kind: 'wouldTrim'; sent: number }

export interface GaugeReading {
  source: GaugeSource
  context: BuiltContext
  /** The stored build, when the gauge shows one (`sent`). */
  build: StoredBuild | null
  safetyLimit: number
  /** Tokens used as a share of the budget, rounded (over 100 when the input is sent whole). */
  percent: number
  state: GaugeState
  summarizedMessages: number | null
  droppedMemories: number
  /** What the safety net did to this build. */
  safetyNet: WarningCode[]
  /** The build's other warnings, for the tooltip. */
  otherWarnings: BuildWarning[]
  alert: GaugeAlert | null
}

/**
 * Reads what the gauge shows, chosen as the inspector chooses (`defaultView`). Nothing is
 * recomputed: every number is the build's own.
 */
export function readGauge(
  draft: string,
  preview: BuiltContext | null,
  lastSent: StoredBuild | null
): GaugeReading | null {
  const shown = defaultView(draft, preview, lastSent)
  if (!shown) return null
  const { source, context, build } = shown
  const { tokenStats, metadata, trace } = context
  const safetyLimit = Math.floor(tokenStats.contextWindow * SAFETY_SHARE)
  const codes = metadata.warnings.map((warning) => warning.code)
  const safetyNet = codes.filter((code) => SAFETY_NET_CODES.includes(code))
  const { total, budget } = tokenStats
  const percent = budget > 0 ? Math.round((total / budget) * 100) : 0
  const state: GaugeState =
    safetyNet.length > 0 || total > budget
      ? 'over'
      : total >= budget * NEAR_BUDGET_SHARE || total >= safetyLimit * NEAR_SAFETY_SHARE
        ? 'near'
        : 'ok'
  return {
    source,
    context,
    build,
    safetyLimit,
    percent,
    state,
    summarizedMessages: metadata.usedSummary ? metadata.summarizedMessageCount : null,
    droppedMemories: trace.filter((e) => e.kind === 'memory' && e.decision === 'dropped_budget')
      .length,
    safetyNet,
    otherWarnings: metadata.warnings.filter((warning) => !SAFETY_NET_CODES.includes(warning.code)),
    alert: source === 'sent' ? null : alertFor(context, safetyNet, safetyLimit, state, percent)
  }
}

/** A preview already went through the safety net in main: say what it did, or how close it is. */
function alertFor(
  context: BuiltContext,
  safetyNet: WarningCode[],
  limit: number,
  state: GaugeState,
  percent: number
): GaugeAlert | null {
  if (safetyNet.includes('input_trimmed')) {
    const sent = context.trace.find((entry) => entry.id === 'input')?.tokens ?? 0
    return { kind: 'wouldTrim', sent }
  }
  if (safetyNet.includes('request_shrunk')) {
    return { kind: 'wouldShrink', limit, dropped: context.metadata.droppedMessageCount }
  }
  // Over the budget already (an input or pinned message is sent whole anyway): history has
  // given way, and the safety net is what comes next.
  if (state === 'over') {
    return { kind: 'over', percent, left: Math.max(0, limit - context.tokenStats.total) }
  }
  return state === 'near' ? { kind: 'near', percent, limit } : null
}
