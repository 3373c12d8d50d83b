/**
 * `--dump-candidates <file>`: every candidate memory search returns for a question, with the
 * signals a relevance gate can use and whether it is evidence, one JSON line each. Ungated (no
 * similarity floor, no fill), so a gate is calibrated on everything the search could return:
 * docs/EVALUATION.md, "Calibrating the gate".
 */
import {
  hasStrongTerm,
  matchedShare,
  recallTerms
} from '../../src/main/services/memory/memoryRanking'
import type { MemoryService } from '../../src/main/services/memory/memoryService'
import { cjkWeight } from '../../src/main/workers/embedding/centering'

export interface CandidateRow {
  question: string
  category: string
  /** The question has no evidence: every candidate is noise. */
  control: boolean
  evidence: boolean
  /** The candidate's id in the dataset (a message id, or a memory's). */
  ref: string
  kind: 'memory' | 'message'
  /** 1-based rank in the fused list. */
  rank: number
  score: number
  similarity: number | null
  cosine: number | null
  /** Found by the full-text list. */
  text: boolean
  /** Share of the query's terms in the item, and whether one strong term is. */
  share: number
  strong: boolean
  /** How Chinese the query and the item are (0-1): e5 scores Chinese pairs higher. */
  queryCjk: number
  itemCjk: number
  /** The item sits in the thread the question is asked in. */
  sameThread: boolean
  /** The thread the item was said or saved in (null: a memory saved outside any). */
  threadId: string | null
  /** A message's role and place in its thread (null for a memory). */
  role: string | null
  seq: number | null
  tokens: number
}

export async function candidateRows(
  memory: MemoryService,
  question: {
    id: string
    category: string
    text: string
    context: string | null
    threadId: string
  },
  evidence: ReadonlySet<string>,
  tokensOf: (content: string) => number
): Promise<CandidateRow[]> {
  const result = await memory.search(question.text, {
    limit: 200,
    scope: 'all',
    minSimilarity: 0,
    timeoutMs: 10_000,
    ...(question.context ? { context: question.context } : {})
  })
  const terms = recallTerms(question.text)
  return result.hits.map((hit, index) => ({
    question: question.id,
    category: question.category,
    control: evidence.size === 0,
    evidence: evidence.has(hit.ref),
    ref: hit.ref,
    kind: hit.kind,
    rank: index + 1,
    score: Math.round(hit.score * 10_000) / 10_000,
    similarity: hit.similarity === null ? null : Math.round(hit.similarity * 10_000) / 10_000,
    cosine: hit.cosine === null ? null : Math.round(hit.cosine * 10_000) / 10_000,
    text: hit.matchedBy.includes('text'),
    share: Math.round(matchedShare(hit.content, terms) * 1000) / 1000,
    strong: hasStrongTerm(hit.content, terms),
    queryCjk: Math.round(cjkWeight(question.text) * 100) / 100,
    itemCjk: Math.round(cjkWeight(hit.content) * 100) / 100,
    sameThread: hit.threadId === question.threadId,
    threadId: hit.threadId,
    role: hit.role,
    seq: hit.seq,
    tokens: tokensOf(hit.content)
  }))
}
