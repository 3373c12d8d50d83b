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

const recalled = (ref: string, decision: TraceEntry['decision'], score = 0.5): TraceEntry => ({
  id: ref,
  kind: 'memory',
  section: 'retrieved',
  tokens: 10,
  decision,
  score
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
    expect(scoreBuild({ trace }, ['message:9'])).toMatchObject({
      found: 1,
      viaRetrieved: 0,
      candidates: 1
    })
    expect(scoreBuild({ trace }, ['message:3', 'memory:1', 'message:7'])).toMatchObject({
      found: 3,
      viaRetrieved: 2,
      candidates: 3
    })
  })

  it('does not count dropped items, but knows a recalled one was in hand', () => {
    expect(scoreBuild({ trace }, ['message:4', 'message:5', 'message:99'])).toMatchObject({
      found: 0,
      viaRetrieved: 0,
      candidates: 1
    })
  })

  it('counts recall@k over the candidates by score, whatever the budget did with them', () => {
    // Ranked by score: message:20 (0.9), then six at 0.5 in search order, then message:21 (0.1).
    const ranked: TraceEntry[] = [
      recalled('message:21', 'dropped_budget', 0.1),
      ...[30, 31, 32, 33, 34, 35].map((id) => recalled(`message:${id}`, 'included', 0.5)),
      recalled('message:20', 'dropped_budget', 0.9)
    ]
    const { atK } = scoreBuild({ trace: ranked }, ['message:20', 'message:35', 'message:21'])
    // message:20 is first, message:35 seventh, message:21 eighth.
    expect(atK).toEqual({ 5: 1, 10: 3, 25: 3 })
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
    retrievedTokens: 200,
    retrievedItems: 2,
    atK: { 5: 0, 10: 0, 25: 0 },
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
  //   e1 (cat B): no evidence: a control question, reported apart
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
      contextTokens: 3000,
      retrievedTokens: 0,
      retrievedItems: 0
    })
  ]

  it('averages recall per question, and reports questions without evidence as controls', () => {
    const [row] = aggregate(records)
    expect(row).toMatchObject({
      strategy: 'builder',
      budget: 4000,
      questions: 4,
      control_questions: 1,
      control_mean_retrieved_tokens: 0,
      control_mean_context_tokens: 3000,
      control_nothing_retrieved_rate: 1,
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
    const none = { '5': 0, '10': 0, '25': 0 }
    expect(row?.by_category).toEqual({
      A: { questions: 2, evidence_recall: 0.75, all_evidence_rate: 0.5, recall_at_k: none },
      B: { questions: 2, evidence_recall: 0.5, all_evidence_rate: 0.5, recall_at_k: none }
    })
  })

  it('reports what a control question cost when it retrieved something', () => {
    const [row] = aggregate([
      ...records,
      record({ questionId: 'e2', category: 'B', evidence: 0, found: 0, retrievedTokens: 300 })
    ])
    expect(row).toMatchObject({
      control_questions: 2,
      control_mean_retrieved_tokens: 150,
      control_nothing_retrieved_rate: 0.5
    })
  })

  it('averages recall@k per question', () => {
    const [row] = aggregate([
      record({
        questionId: 'k1',
        category: 'A',
        evidence: 2,
        found: 2,
        atK: { 5: 1, 10: 2, 25: 2 }
      }),
      record({
        questionId: 'k2',
        category: 'A',
        evidence: 1,
        found: 1,
        atK: { 5: 0, 10: 0, 25: 1 }
      })
    ])
    expect(row?.recall_at_k).toEqual({ '5': 0.25, '10': 0.5, '25': 1 })
  })

  it('reports recall@k per category, as issue #17 asks it per language', () => {
    const [row] = aggregate([
      record({
        questionId: 'z1',
        category: 'zh',
        evidence: 2,
        found: 2,
        atK: { 5: 2, 10: 2, 25: 2 }
      }),
      record({
        questionId: 'e1',
        category: 'en',
        evidence: 2,
        found: 1,
        atK: { 5: 0, 10: 1, 25: 1 }
      }),
      record({
        questionId: 'e2',
        category: 'en',
        evidence: 1,
        found: 1,
        atK: { 5: 1, 10: 1, 25: 1 }
      })
    ])
    expect(row?.by_category['zh']?.recall_at_k).toEqual({ '5': 1, '10': 1, '25': 1 })
    expect(row?.by_category['en']?.recall_at_k).toEqual({ '5': 0.5, '10': 0.75, '25': 0.75 })
    expect(row?.recall_at_k['5']).toBe(0.6667)
  })

  it('takes tokens over the questions with evidence, latency over every build', () => {
    const [row] = aggregate(records)
    expect(row?.mean_context_tokens).toBe(1000)
    expect(row?.mean_retrieved_tokens).toBe(200)
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
