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
  /**
   * Per k in RECALL_AT: evidence items among the first k recall candidates (the ranked list
   * memory search returned, whatever the budget did with it). Comparable with published
   * recall@k; the window's messages are not in that list.
   */
  atK: Record<number, number>
}

/** The k of the recall@k figures. */
const RECALL_AT = [5, 10, 25] as const

/** The refs a build sent, by section; and every ref it considered from recall. */
function traceRefs(built: Pick<BuiltContext, 'trace'>): {
  window: Set<EvidenceRef>
  retrieved: Set<EvidenceRef>
  recalled: Set<EvidenceRef>
  /** The recall candidates, best first. */
  ranked: EvidenceRef[]
} {
  const window = new Set<EvidenceRef>()
  const retrieved = new Set<EvidenceRef>()
  const recalled = new Set<EvidenceRef>()
  const candidates: { ref: EvidenceRef; score: number }[] = []
  for (const entry of built.trace) {
    const sent = entry.decision === 'included' || entry.decision === 'pinned'
    if (entry.kind === 'message') {
      if (sent) window.add(messageRef(entry.id))
    } else if (entry.kind === 'memory') {
      recalled.add(entry.id)
      candidates.push({ ref: entry.id, score: entry.score ?? 0 })
      if (sent) retrieved.add(entry.id)
    }
  }
  // Stable: equal scores keep the order the search returned them in.
  const ranked = candidates.sort((a, b) => b.score - a.score).map((c) => c.ref)
  return { window, retrieved, recalled, ranked }
}

export function scoreBuild(
  built: Pick<BuiltContext, 'trace'>,
  evidence: readonly EvidenceRef[]
): BuildEvidence {
  const { window, retrieved, recalled, ranked } = traceRefs(built)
  const rank = new Map(ranked.map((ref, index) => [ref, index]))
  let found = 0
  let viaRetrieved = 0
  let candidates = 0
  const atK: Record<number, number> = Object.fromEntries(RECALL_AT.map((k) => [k, 0]))
  for (const ref of new Set(evidence)) {
    const inWindow = window.has(ref)
    const inRetrieved = retrieved.has(ref)
    if (inWindow || inRetrieved) found++
    if (inRetrieved && !inWindow) viaRetrieved++
    if (inWindow || recalled.has(ref)) candidates++
    const at = rank.get(ref)
    for (const k of RECALL_AT) if (at !== undefined && at < k) atK[k] = (atK[k] ?? 0) + 1
  }
  return { found, viaRetrieved, candidates, atK }
}

/** What the retrieved section sent: its tokens, and how many items it placed. */
export function retrievedCost(built: Pick<BuiltContext, 'tokenStats'>): {
  tokens: number
  items: number
} {
  const stats = built.tokenStats.sections.retrieved
  return { tokens: stats.used, items: stats.items }
}

/** One question built with one strategy at one budget. */
export interface BuildRecord extends BuildEvidence {
  questionId: string
  category: string
  strategy: string
  /** A fixed total, or `default`: the configuration's own (the model's window less the reply). */
  budget: Budget
  /** Evidence ids the question names that exist in the dataset (0: skipped by recall). */
  evidence: number
  /** Prompt tokens of the build (`tokenStats.total`). */
  contextTokens: number
  /** Tokens and items the retrieved section sent. */
  retrievedTokens: number
  retrievedItems: number
  /** ContextBuildService.preview wall time, memory search included. */
  buildMs: number
  /** The memory search alone (the `MemorySearch` port's call). */
  searchMs: number
  /** Upstream warnings in the build (memory search degraded: full text only, timeout...). */
  upstreamWarnings: number
}

interface CategoryFigures {
  questions: number
  evidence_recall: number
  all_evidence_rate: number
  /** As the row's recall_at_k: issue #17's recall@5 target holds per language. */
  recall_at_k: Record<string, number>
}

export type Budget = number | 'default'

export interface ResultRow {
  strategy: string
  budget: Budget
  /** Questions scored for recall (non-empty evidence). */
  questions: number
  /**
   * Control questions: no evidence, nothing to find. Built like the others and reported apart:
   * what an unanswerable question costs.
   */
  control_questions: number
  /** Mean tokens the retrieved section sent for a control question (ideally 0). */
  control_mean_retrieved_tokens: number
  /** Mean prompt tokens of a control question's build. */
  control_mean_context_tokens: number
  /** Share of control questions whose build retrieved nothing at all. */
  control_nothing_retrieved_rate: number
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
  /** Mean prompt tokens per build (questions with evidence). */
  mean_context_tokens: number
  /** Mean tokens of those builds' retrieved sections. */
  mean_retrieved_tokens: number
  /** Mean over questions with evidence of the share of evidence in the first k candidates. */
  recall_at_k: Record<string, number>
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

function figures(records: readonly BuildRecord[]): Omit<CategoryFigures, 'recall_at_k'> & {
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

/** Per k, the mean over questions with evidence of the share of it among the first k. */
function recallAtK(records: readonly BuildRecord[]): Record<string, number> {
  const scored = records.filter((r) => r.evidence > 0)
  return Object.fromEntries(
    RECALL_AT.map((k) => [
      String(k),
      round(mean(scored.map((r) => (r.atK[k] ?? 0) / r.evidence)), 4)
    ])
  )
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
    const scored = cell.filter((r) => r.evidence > 0)
    const control = cell.filter((r) => r.evidence === 0)
    const categories = [...new Set(cell.map((r) => r.category))].sort()
    const byCategory: Record<string, CategoryFigures> = {}
    for (const category of categories) {
      const inCategory = cell.filter((r) => r.category === category)
      const f = figures(inCategory)
      byCategory[category] = {
        questions: f.questions,
        evidence_recall: round(f.evidence_recall, 4),
        all_evidence_rate: round(f.all_evidence_rate, 4),
        recall_at_k: recallAtK(inCategory)
      }
    }
    const build = cell.map((r) => r.buildMs)
    const search = cell.map((r) => r.searchMs)
    return {
      strategy: first.strategy,
      budget: first.budget,
      questions: all.questions,
      control_questions: control.length,
      control_mean_retrieved_tokens: round(mean(control.map((r) => r.retrievedTokens)), 1),
      control_mean_context_tokens: round(mean(control.map((r) => r.contextTokens)), 1),
      control_nothing_retrieved_rate: round(
        mean(control.map((r) => (r.retrievedItems === 0 ? 1 : 0))),
        4
      ),
      evidence_recall: round(all.evidence_recall, 4),
      evidence_recall_pooled: round(all.pooled, 4),
      all_evidence_rate: round(all.all_evidence_rate, 4),
      candidate_recall: round(all.candidate, 4),
      retrieved_share: round(all.retrievedShare, 4),
      by_category: byCategory,
      mean_context_tokens: round(mean(scored.map((r) => r.contextTokens)), 1),
      mean_retrieved_tokens: round(mean(scored.map((r) => r.retrievedTokens)), 1),
      recall_at_k: recallAtK(cell),
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
