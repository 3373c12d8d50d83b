import {
  SECTIONS,
  type BuiltContext,
  type CollapsedRange,
  type SectionName,
  type TraceEntry
} from '@shared/context'

export interface TraceGroup {
  section: SectionName
  entries: TraceEntry[]
  /** Older messages counted rather than listed; only the recent section has them. */
  collapsed: CollapsedRange[]
}

/**
 * The trace by section, in request order. The builder lists messages oldest first; here the
 * newest come first, so what was sent leads and the long tail of dropped messages trails,
 * ending with the collapsed ranges, which are the oldest of all.
 */
export function groupTrace(build: BuiltContext): TraceGroup[] {
  const bySection = new Map<SectionName, TraceEntry[]>(SECTIONS.map((section) => [section, []]))
  for (const entry of build.trace) bySection.get(entry.section)?.push(entry)
  return SECTIONS.map((section) => {
    const entries = bySection.get(section) ?? []
    if (section !== 'recent') return { section, entries, collapsed: [] }
    const newestFirst = [...entries].sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0))
    const collapsed = [...build.collapsed].sort((a, b) => b.toSeq - a.toSeq)
    return { section, entries: newestFirst, collapsed }
  }).filter((group) => group.entries.length > 0 || group.collapsed.length > 0)
}
