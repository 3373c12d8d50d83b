/**
 * What a build did with a question's evidence, and the figures over many builds. Pure
 * functions of data, so the arithmetic is tested on hand-made inputs.
 *
 * An evidence id counts as **included** when the build's trace has an item for the stored
 * message (or memory) it names with the decision `included` or `pinned`: a message sent in the
 * recent window (trace id = the message id), or a recalled message or memory placed in the
 * retrieved section (trace id `message:<id>` / `memory:<id>`). A candidate dropped for budget,
 * or marked `duplicate` of a window message (the window item counts then), adds nothing.
 */
import type { BuiltContext } from '@shared/context'

/** How evidence is named in a trace: `message:<store id>` or `memory:<store id>`. */
export type EvidenceRef = string

export const messageRef = (id: number | string): EvidenceRef => `message:${id}`
export const memoryRef = (id: number | string): EvidenceRef => `memory:${id}`

export interface BuildEvidence {
  /** Evidence items the build sent. */
  found: number
  /** Of those, sent through the retrieved section (not the window). */
  viaRetrieved: number
  /** Evidence items the build had in hand: sent, or a recall candidate whatever its fate. */
  candidates: number
}

/** The refs a build sent, by section; and every ref it considered from recall. */
export function traceRefs(built: Pick<BuiltContext, 'trace'>): {
  window: Set<EvidenceRef>
  retrieved: Set<EvidenceRef>
  recalled: Set<EvidenceRef>
} {
  const window = new Set<EvidenceRef>()
  const retrieved = new Set<EvidenceRef>()
  const recalled = new Set<EvidenceRef>()
  for (const entry of built.trace) {
    const sent = entry.decision === 'included' || entry.decision === 'pinned'
    if (entry.kind === 'message') {
      if (sent) window.add(messageRef(entry.id))
    } else if (entry.kind === 'memory') {
      recalled.add(entry.id)
      if (sent) retrieved.add(entry.id)
    }
  }
  return { window, retrieved, recalled }
}

export function scoreBuild(
  built: Pick<BuiltContext, 'trace'>,
  evidence: readonly EvidenceRef[]
): BuildEvidence {
  const { window, retrieved, recalled } = traceRefs(built)
  let found = 0
  let viaRetrieved = 0
  let candidates = 0
  for (const ref of new Set(evidence)) {
    const inWindow = window.has(ref)
    const inRetrieved = retrieved.has(ref)
    if (inWindow || inRetrieved) found++
    if (inRetrieved && !inWindow) viaRetrieved++
    if (inWindow || recalled.has(ref)) candidates++
  }
  return { found, viaRetrieved, candidates }
}

/** One question built with one strategy at one budget. */
export interface BuildRecord extends BuildEvidence {
  questionId: string
  category: string
  strategy: string
  budget: number
  /** Evidence ids the question names that exist in the dataset (0: skipped by recall). */
  evidence: number
  /** Prompt tokens of the build (`tokenStats.total`). */
  contextTokens: number
  /** ContextService.preview wall time, memory search included. */
  buildMs: number
  /** The memory search alone (the `MemorySearch` port's call). */
  searchMs: number
  /** Upstream warnings in the build (memory search degraded: full text only, timeout...). */
  upstreamWarnings: number
}

export interface CategoryFigures {
  questions: number
  evidence_recall: number
  all_evidence_rate: number
}

export interface ResultRow {
  strategy: string
  budget: number
  /** Questions scored for recall (non-empty evidence). */
  questions: number
  /** Questions built but not scored: no evidence. */
  skipped: number
  /** Mean over scored questions of (evidence items sent / evidence items). */
  evidence_recall: number
  /** All evidence items pooled: sent / named. */
  evidence_recall_pooled: number
  /** Share of scored questions with every evidence item sent. */
  all_evidence_rate: number
  /** As evidence_recall, counting items the build had in hand (sent or recalled). */
  candidate_recall: number
  /** Share of the sent evidence items that came through the retrieved section. */
  retrieved_share: number
  by_category: Record<string, CategoryFigures>
  /** Mean prompt tokens per build (all builds). */
  mean_context_tokens: number
  p50_build_ms: number
  p95_build_ms: number
  p50_search_ms: number
  p95_search_ms: number
  /** p50 of build time minus search time: gathering, building, trace. */
  p50_builder_ms: number
  builds_with_upstream_warnings: number
}

/** Nearest rank on sorted samples (the convention of scripts/bench.ts). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

const round = (value: number, digits: number): number => {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length

function figures(records: readonly BuildRecord[]): CategoryFigures & {
  pooled: number
  candidate: number
  retrievedShare: number
} {
  const scored = records.filter((r) => r.evidence > 0)
  const found = scored.reduce((sum, r) => sum + r.found, 0)
  const named = scored.reduce((sum, r) => sum + r.evidence, 0)
  return {
    questions: scored.length,
    evidence_recall: mean(scored.map((r) => r.found / r.evidence)),
    all_evidence_rate: mean(scored.map((r) => (r.found === r.evidence ? 1 : 0))),
    pooled: named === 0 ? 0 : found / named,
    candidate: mean(scored.map((r) => r.candidates / r.evidence)),
    retrievedShare: found === 0 ? 0 : scored.reduce((sum, r) => sum + r.viaRetrieved, 0) / found
  }
}

/** One row per strategy and budget, in the order they first appear in `records`. */
export function aggregate(records: readonly BuildRecord[]): ResultRow[] {
  const cells = new Map<string, BuildRecord[]>()
  for (const record of records) {
    const key = `${record.strategy}\u0000${record.budget}`
    const list = cells.get(key)
    if (list) list.push(record)
    else cells.set(key, [record])
  }
  return [...cells.values()].map((cell) => {
    const first = cell[0] as BuildRecord
    const all = figures(cell)
    const categories = [...new Set(cell.map((r) => r.category))].sort()
    const byCategory: Record<string, CategoryFigures> = {}
    for (const category of categories) {
      const f = figures(cell.filter((r) => r.category === category))
      byCategory[category] = {
        questions: f.questions,
        evidence_recall: round(f.evidence_recall, 4),
        all_evidence_rate: round(f.all_evidence_rate, 4)
      }
    }
    const build = cell.map((r) => r.buildMs)
    const search = cell.map((r) => r.searchMs)
    return {
      strategy: first.strategy,
      budget: first.budget,
      questions: all.questions,
      skipped: cell.length - all.questions,
      evidence_recall: round(all.evidence_recall, 4),
      evidence_recall_pooled: round(all.pooled, 4),
      all_evidence_rate: round(all.all_evidence_rate, 4),
      candidate_recall: round(all.candidate, 4),
      retrieved_share: round(all.retrievedShare, 4),
      by_category: byCategory,
      mean_context_tokens: round(mean(cell.map((r) => r.contextTokens)), 1),
      p50_build_ms: round(percentile(build, 50), 2),
      p95_build_ms: round(percentile(build, 95), 2),
      p50_search_ms: round(percentile(search, 50), 2),
      p95_search_ms: round(percentile(search, 95), 2),
      p50_builder_ms: round(
        percentile(
          cell.map((r) => r.buildMs - r.searchMs),
          50
        ),
        2
      ),
      builds_with_upstream_warnings: cell.filter((r) => r.upstreamWarnings > 0).length
    }
  })
}
