/**
 * `--diagnose`: where the `builder` strategy loses evidence messages, stage by stage, using
 * the store's own indexes. For each evidence message of each question:
 *
 * - its exact cosine rank among all messages the question may see (is it in the top 50 the
 *   KNN list takes?), and its cosine on the calibrated scale;
 * - its BM25 rank in the full-text list (is it in the 50 taken?);
 * - whether it reaches the similarity floor (`minSimilarity` 0.6 calibrated, or every query
 *   term occurs); a full-text hit under the floor is kept by the search on its text rank;
 * - its rank in what MemoryService.search returns at the largest recall limit (100): is it in
 *   the 20, 60 or 100 ContextBuildService asks for (recallRequest.ts: 60 for a long thread at
 *   4,000 tokens, 100 from about 7,000 or in a new thread)?
 */
import { calibratedSimilarity } from '../../src/main/workers/embedding/embeddingModels'
import {
  matchedShare,
  quotedTerms,
  recallTerms
} from '../../src/main/services/memory/memoryRanking'
import type { MemoryService } from '../../src/main/services/memory/memoryService'
import type { MemoryIndexer } from '../../src/main/services/memory/memoryIndexer'
import type { RecallRepository } from '../../src/main/store/search/recallRepository'
import type { VectorStore } from '../../src/main/store/vectors/vectorStore'

import { MAX_RECALL_LIMIT } from '../../src/main/context/recall/recallRequest'

const LIST = 50
const CUTOFFS = [10, 20, 60, MAX_RECALL_LIMIT]

export interface EvidenceFunnel {
  category: string
  cosine: number | null
  calibrated: number | null
  /** 1-based rank by exact cosine among the visible messages; null without a vector. */
  knnRank: number | null
  /** 1-based rank in the BM25 list (first 200); null when it does not match or ranks lower. */
  ftsRank: number | null
  /** Passes the similarity floor (or matches every query term). */
  passesFloor: boolean
  /** 1-based rank in the service's fused result (limit 100); null when absent. */
  fusedRank: number | null
}

export interface DiagnoseDeps {
  memory: MemoryService
  indexer: MemoryIndexer
  vectors: VectorStore
  recall: RecallRepository
  /** Ids of every message in the store. */
  messageIds: readonly number[]
}

export async function diagnoseQuestion(
  deps: DiagnoseDeps,
  question: string,
  category: string,
  evidence: readonly number[]
): Promise<EvidenceFunnel[]> {
  const model = deps.indexer.active()
  if (!model || evidence.length === 0) return []
  const [query] = await model.embedder.embed([question.trim()], {
    priority: 'query',
    role: 'query'
  })
  const stored = deps.vectors.vectors(model.space, 'message', deps.messageIds)
  const cosines = new Map<number, number>()
  for (const [id, vector] of stored) {
    let dot = 0
    for (let i = 0; i < vector.length; i++)
      dot += (vector[i] as number) * ((query as Float32Array)[i] as number)
    cosines.set(id, dot)
  }
  const byCosine = [...cosines].sort((a, b) => b[1] - a[1]).map(([id]) => id)
  const terms = recallTerms(question)
  const fts = terms.length > 0 ? deps.recall.ftsMessages(quotedTerms(terms), 200) : []
  const fused = await deps.memory.search(question, {
    limit: MAX_RECALL_LIMIT,
    scope: 'all',
    timeoutMs: 5_000
  })
  const fusedIds = fused.hits.filter((h) => h.kind === 'message').map((h) => h.id)
  const messages = deps.recall.messages(evidence)
  return evidence.map((id) => {
    const cosine = cosines.get(id) ?? null
    const calibrated =
      cosine === null ? null : calibratedSimilarity(cosine, model.spec.relatedCosine)
    const content = messages.get(id)?.content ?? ''
    const allTerms = terms.length > 0 && matchedShare(content, terms) === 1
    const knn = byCosine.indexOf(id)
    const ftsIndex = fts.indexOf(id)
    const fusedIndex = fusedIds.indexOf(id)
    return {
      category,
      cosine,
      calibrated,
      knnRank: knn === -1 ? null : knn + 1,
      ftsRank: ftsIndex === -1 ? null : ftsIndex + 1,
      passesFloor: calibrated === null || calibrated >= 0.6 || allTerms,
      fusedRank: fusedIndex === -1 ? null : fusedIndex + 1
    }
  })
}

/** The funnel as a table: shares of evidence messages reaching each stage. */
export function formatFunnel(funnels: readonly EvidenceFunnel[]): string {
  const groups = new Map<string, EvidenceFunnel[]>([['all', [...funnels]]])
  for (const f of funnels) groups.set(f.category, [...(groups.get(f.category) ?? []), f])
  const share = (list: EvidenceFunnel[], test: (f: EvidenceFunnel) => boolean) =>
    list.length === 0 ? '-' : (list.filter(test).length / list.length).toFixed(3)
  const median = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b)
    return sorted.length === 0 ? '-' : (sorted[Math.floor(sorted.length / 2)] as number).toFixed(3)
  }
  const header = [
    'category',
    'items',
    'median cos',
    'knn top10',
    `knn top${LIST}`,
    `fts top${LIST}`,
    'either list',
    'passes floor',
    'FTS hit under floor',
    ...CUTOFFS.map((n) => `fused top${n}`)
  ]
  const rows = [...groups].map(([name, list]) => [
    name,
    String(list.length),
    median(list.flatMap((f) => (f.cosine === null ? [] : [f.cosine]))),
    share(list, (f) => f.knnRank !== null && f.knnRank <= 10),
    share(list, (f) => f.knnRank !== null && f.knnRank <= LIST),
    share(list, (f) => f.ftsRank !== null && f.ftsRank <= LIST),
    share(
      list,
      (f) => (f.knnRank !== null && f.knnRank <= LIST) || (f.ftsRank !== null && f.ftsRank <= LIST)
    ),
    share(list, (f) => f.passesFloor),
    share(list, (f) => !f.passesFloor && f.ftsRank !== null && f.ftsRank <= LIST),
    ...CUTOFFS.map((n) => share(list, (f) => f.fusedRank !== null && f.fusedRank <= n))
  ])
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (r[i] as string).length))
  )
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
  return [
    'retrieval funnel (evidence messages reaching each stage of the builder strategy):',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line)
  ].join('\n')
}
