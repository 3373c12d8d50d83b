import { describe, expect, it } from 'vitest'
import type { TraceEntry } from '@shared/context'
import { aggregate, percentile, scoreBuild, type BuildRecord } from '../../../scripts/eval/metrics'

const message = (id: number, decision: TraceEntry['decision']): TraceEntry => ({
  id: String(id),
  kind: 'message',
  section: 'recent',
  tokens: 10,
  decision,
  seq: id
})

const recalled = (ref: string, decision: TraceEntry['decision']): TraceEntry => ({
  id: ref,
  kind: 'memory',
  section: 'retrieved',
  tokens: 10,
  decision
})

describe('scoreBuild', () => {
  const trace: TraceEntry[] = [
    { id: 'system', kind: 'system', section: 'system', tokens: 20, decision: 'included' },
    recalled('message:3', 'included'),
    recalled('memory:1', 'included'),
    recalled('message:4', 'dropped_budget'),
    recalled('message:9', 'duplicate'),
    message(5, 'dropped_budget'),
    message(7, 'pinned'),
    message(9, 'included'),
    { id: 'input', kind: 'input', section: 'input', tokens: 8, decision: 'included' }
  ]

  it('counts items sent by the window, pinned, or placed from recall', () => {
    expect(scoreBuild({ trace }, ['message:9'])).toEqual({
      found: 1,
      viaRetrieved: 0,
      candidates: 1
    })
    expect(scoreBuild({ trace }, ['message:3', 'memory:1', 'message:7'])).toEqual({
      found: 3,
      viaRetrieved: 2,
      candidates: 3
    })
  })

  it('does not count dropped items, but knows a recalled one was in hand', () => {
    expect(scoreBuild({ trace }, ['message:4', 'message:5', 'message:99'])).toEqual({
      found: 0,
      viaRetrieved: 0,
      candidates: 1
    })
  })

  it('counts an evidence id once even if the question repeats it', () => {
    expect(scoreBuild({ trace }, ['message:9', 'message:9']).found).toBe(1)
  })
})

function record(
  partial: Pick<BuildRecord, 'questionId' | 'category' | 'evidence' | 'found'> &
    Partial<BuildRecord>
): BuildRecord {
  return {
    strategy: 'builder',
    budget: 4000,
    viaRetrieved: 0,
    candidates: partial.found,
    contextTokens: 1000,
    buildMs: 10,
    searchMs: 4,
    upstreamWarnings: 0,
    ...partial
  }
}

describe('aggregate', () => {
  // Four questions in two categories plus one with no evidence:
  //   a1 (cat A): 1 of 2 found   a2 (cat A): 3 of 3 found
  //   b1 (cat B): 0 of 1 found   b2 (cat B): 1 of 1 found (via retrieved)
  //   e1 (cat B): no evidence, built but skipped by recall
  const records: BuildRecord[] = [
    record({ questionId: 'a1', category: 'A', evidence: 2, found: 1, candidates: 2, buildMs: 10 }),
    record({ questionId: 'a2', category: 'A', evidence: 3, found: 3, buildMs: 20, searchMs: 8 }),
    record({ questionId: 'b1', category: 'B', evidence: 1, found: 0, buildMs: 30 }),
    record({
      questionId: 'b2',
      category: 'B',
      evidence: 1,
      found: 1,
      viaRetrieved: 1,
      buildMs: 40,
      upstreamWarnings: 1
    }),
    record({
      questionId: 'e1',
      category: 'B',
      evidence: 0,
      found: 0,
      buildMs: 50,
      contextTokens: 3000
    })
  ]

  it('averages recall per question, and skips questions without evidence', () => {
    const [row] = aggregate(records)
    expect(row).toMatchObject({
      strategy: 'builder',
      budget: 4000,
      questions: 4,
      skipped: 1,
      // (1/2 + 3/3 + 0/1 + 1/1) / 4
      evidence_recall: 0.625,
      // (1 + 3 + 0 + 1) / (2 + 3 + 1 + 1)
      evidence_recall_pooled: 0.7143,
      // a2 and b2
      all_evidence_rate: 0.5,
      // a1 had both in hand: (2/2 + 3/3 + 0/1 + 1/1) / 4
      candidate_recall: 0.75,
      // 1 of the 5 found items came from recall
      retrieved_share: 0.2,
      builds_with_upstream_warnings: 1
    })
  })

  it('reports the same figures per category', () => {
    const [row] = aggregate(records)
    expect(row?.by_category).toEqual({
      A: { questions: 2, evidence_recall: 0.75, all_evidence_rate: 0.5 },
      B: { questions: 2, evidence_recall: 0.5, all_evidence_rate: 0.5 }
    })
  })

  it('takes tokens and latency over every build, and reports search time apart', () => {
    const [row] = aggregate(records)
    expect(row?.mean_context_tokens).toBe(1400)
    expect(row?.p50_build_ms).toBe(30)
    expect(row?.p95_build_ms).toBe(50)
    expect(row?.p50_search_ms).toBe(4)
    expect(row?.p95_search_ms).toBe(8)
    // build minus search: 6, 12, 26, 36, 46
    expect(row?.p50_builder_ms).toBe(26)
  })

  it('makes one row per strategy and budget, in order of appearance', () => {
    const rows = aggregate([
      record({ questionId: 'a', category: 'A', evidence: 1, found: 1, budget: 2000 }),
      record({ questionId: 'a', category: 'A', evidence: 1, found: 0, strategy: 'window' }),
      record({ questionId: 'b', category: 'A', evidence: 1, found: 1, budget: 2000 })
    ])
    expect(rows.map((r) => [r.strategy, r.budget, r.questions, r.evidence_recall])).toEqual([
      ['builder', 2000, 2, 1],
      ['window', 4000, 1, 0]
    ])
  })

  it('uses nearest-rank percentiles', () => {
    expect(percentile([], 50)).toBe(0)
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3)
    expect(percentile([5, 1, 3, 2, 4], 95)).toBe(5)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(6)
  })
})
