import {
  SAFETY_SHARE,
  type BuildWarning,
  type BuiltContext,
  type StoredBuild,
  type WarningCode
} from '@shared/context'

/** Where the gauge's numbers come from: the draft's preview, the last sent build, or the
 * preview of an empty draft (nothing typed, nothing sent yet). */
export type GaugeSource = 'draft' | 'sent' | 'next'

/** From this share of the safety limit on, the gauge warns that the net is close. */
export const NEAR_SAFETY_SHARE = 0.9

const SAFETY_NET_CODES: readonly WarningCode[] = ['request_shrunk', 'input_trimmed']

/** What the 85 % safety net would do if this preview were sent now. */
export type GaugeAlert =
  | { kind: 'near'; left: number }
  | { kind: 'wouldShrink'; limit: number; dropped: number }
  | { kind: 'wouldTrim'; sent: number }

export interface GaugeReading {
  source: GaugeSource
  context: BuiltContext
  /** The stored build, when the gauge shows one (`sent`). */
  build: StoredBuild | null
  safetyLimit: number
  summarizedMessages: number | null
  droppedMemories: number
  /** What the safety net did to this build. */
  safetyNet: WarningCode[]
  /** The build's other warnings, for the tooltip. */
  otherWarnings: BuildWarning[]
  alert: GaugeAlert | null
}

/**
 * Picks what the gauge shows and reads it: while the user types, the live preview (the very
 * build the inspector shows); with an empty draft, the last build that was sent, or else the
 * preview of the next request. Nothing is recomputed: every number is the build's own.
 */
export function readGauge(
  draft: string,
  preview: BuiltContext | null,
  lastSent: StoredBuild | null
): GaugeReading | null {
  const typing = draft.trim() !== ''
  const source: GaugeSource | null =
    typing && preview ? 'draft' : lastSent ? 'sent' : preview ? 'next' : null
  if (source === null) return null
  const build = source === 'sent' ? lastSent : null
  const context = build ? build.context : (preview as BuiltContext)
  const { tokenStats, metadata, trace } = context
  const safetyLimit = Math.floor(tokenStats.contextWindow * SAFETY_SHARE)
  const codes = metadata.warnings.map((warning) => warning.code)
  const safetyNet = codes.filter((code) => SAFETY_NET_CODES.includes(code))
  return {
    source,
    context,
    build,
    safetyLimit,
    summarizedMessages: metadata.usedSummary ? metadata.summarizedMessageCount : null,
    droppedMemories: trace.filter((e) => e.kind === 'memory' && e.decision === 'dropped_budget')
      .length,
    safetyNet,
    otherWarnings: metadata.warnings.filter((warning) => !SAFETY_NET_CODES.includes(warning.code)),
    alert: source === 'sent' ? null : alertFor(context, safetyNet, safetyLimit)
  }
}

/** A preview already went through the safety net in main: say what it did, or how close it is. */
function alertFor(
  context: BuiltContext,
  safetyNet: WarningCode[],
  limit: number
): GaugeAlert | null {
  if (safetyNet.includes('input_trimmed')) {
    const sent = context.trace.find((entry) => entry.id === 'input')?.tokens ?? 0
    return { kind: 'wouldTrim', sent }
  }
  if (safetyNet.includes('request_shrunk')) {
    return { kind: 'wouldShrink', limit, dropped: context.metadata.droppedMessageCount }
  }
  // Within reach of the limit, or over the budget already (an input or pinned message that is
  // sent whole anyway): the safety net is what comes next.
  const { total, budget } = context.tokenStats
  if (total >= limit * NEAR_SAFETY_SHARE || total > budget) {
    return { kind: 'near', left: Math.max(0, limit - total) }
  }
  return null
}
