/** The readable tables `npm run eval` prints before its JSON line. */
import type { EvaluationResult } from './runner'

function pad(text: string, width: number, right = true): string {
  return right ? text.padStart(width) : text.padEnd(width)
}

const fixed = (value: number, digits = 3): string => value.toFixed(digits)

function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((cell, i) => pad(cell, widths[i] as number, i >= leftColumns)).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

export function formatReport(result: EvaluationResult): string {
  const first = result.results[0]
  const scored = first?.questions ?? 0
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  const lines: string[] = []
  lines.push(
    `${result.dataset}: ${result.questions} questions (${scored} with evidence), ${result.stores} store(s)`
  )
  lines.push(
    `time: ${seconds(result.timings.totalMs)} (embedding ${seconds(result.timings.warmMs)}, loading ${seconds(result.timings.loadMs)}, indexing ${seconds(result.timings.indexMs)}, builds ${seconds(result.timings.buildMs)})`
  )
  if (result.embedding) {
    lines.push(
      `embeddings: ${result.embedding.texts} distinct texts, ${result.embedding.embedded} embedded now, the rest from the cache`
    )
  }
  if (result.unknownEvidence > 0 || result.unreachableEvidence > 0) {
    lines.push(
      `evidence: ${result.unknownEvidence} unknown id(s) ignored, ${result.unreachableEvidence} outside the visible history (counted as missed)`
    )
  }
  lines.push('')
  lines.push(
    table(
      [
        'strategy',
        'budget',
        'recall',
        'tokens sent',
        'retrieved',
        'r@5',
        'r@10',
        'r@25',
        'all-evidence',
        'pooled',
        'in hand',
        'via retrieved',
        'build p50',
        'build p95',
        'search p50',
        'search p95',
        'warnings'
      ],
      result.results.map((r) => [
        r.strategy,
        String(r.budget),
        fixed(r.evidence_recall),
        r.mean_context_tokens.toFixed(0),
        r.mean_retrieved_tokens.toFixed(0),
        fixed(r.recall_at_k['5'] ?? 0),
        fixed(r.recall_at_k['10'] ?? 0),
        fixed(r.recall_at_k['25'] ?? 0),
        fixed(r.all_evidence_rate),
        fixed(r.evidence_recall_pooled),
        fixed(r.candidate_recall),
        fixed(r.retrieved_share),
        `${r.p50_build_ms.toFixed(1)} ms`,
        `${r.p95_build_ms.toFixed(1)} ms`,
        `${r.p50_search_ms.toFixed(1)} ms`,
        `${r.p95_search_ms.toFixed(1)} ms`,
        String(r.builds_with_upstream_warnings)
      ])
    )
  )
  const controls = result.results.filter((r) => r.control_questions > 0)
  if (controls.length > 0) {
    lines.push('')
    lines.push('control questions (nothing to find: what an unanswerable question costs):')
    lines.push(
      table(
        ['strategy', 'budget', 'questions', 'retrieved tokens', 'nothing retrieved', 'tokens sent'],
        controls.map((r) => [
          r.strategy,
          String(r.budget),
          String(r.control_questions),
          r.control_mean_retrieved_tokens.toFixed(0),
          fixed(r.control_nothing_retrieved_rate),
          r.control_mean_context_tokens.toFixed(0)
        ])
      )
    )
  }
  // Control categories (no evidence) have no recall to show; the control table has them.
  const categories = [...new Set(result.results.flatMap((r) => Object.keys(r.by_category)))]
    .filter((c) => result.results.some((r) => (r.by_category[c]?.questions ?? 0) > 0))
    .sort()
  if (categories.length > 1) {
    lines.push('')
    lines.push('evidence recall / all-evidence rate / r@5 by category (questions with evidence):')
    lines.push(
      table(
        [
          'strategy',
          'budget',
          ...categories.map((c) => `${c} (${first?.by_category[c]?.questions ?? 0})`)
        ],
        result.results.map((r) => [
          r.strategy,
          String(r.budget),
          ...categories.map((c) => {
            const f = r.by_category[c]
            return f
              ? `${fixed(f.evidence_recall)} / ${fixed(f.all_evidence_rate)} / ${fixed(f.recall_at_k['5'] ?? 0)}`
              : '-'
          })
        ])
      )
    )
  }
  lines.push('')
  lines.push(
    'recall: mean over questions of the share of evidence items sent; tokens sent: mean prompt tokens of those builds; retrieved: of which the retrieved section; r@k: share of the evidence among the first k recall candidates; all-evidence: every item sent; pooled: all items together; in hand: sent or among the recall candidates; via retrieved: share of sent items that came from recall, not the window.'
  )
  return lines.join('\n')
}
