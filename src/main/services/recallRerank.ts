import type { MemorySearchHit } from '@shared/domain'
import { matchedShare } from './memoryRanking'

/**
 * The cheap re-rank after fusion (issue #10): a few signals the two rank lists do not carry,
 * computed from what the search already holds (no model, no extra read), linear in the hits.
 *
 * - **Full-text agreement**: the share of the query's terms an item holds. A vector hit that
 *   also says the question's words is more likely the one it asks about.
 * - **Similarity**: the calibrated similarity above the floor, for hits the vector list
 *   supports (fusion keeps only the rank).
 * - **Recency**: among the candidates, newer counts a little more (a changed preference, the
 *   latest plan).
 * - **Diversity**: a message a few turns from a better hit of the same thread mostly repeats
 *   its passage, which that hit's neighbours already bring; it is scored down, so other
 *   passages and threads get the budget.
 *
 * Scores stay on the fused scale (the builder places by score; fill items stay below hits).
 */
export interface RerankWeights {
  /** × (1 + textAgreement × share of query terms held). */
  textAgreement: number
  /** × (1 + similarity × (calibrated similarity − floor)), for vector-supported hits. */
  similarity: number
  /** × (1 + recency × position in time among the hits, 0 oldest to 1 newest). */
  recency: number
  /** × this, for a message within `passageTurns` of a better hit in its thread. */
  samePassage: number
  passageTurns: number
}

export const RERANK_WEIGHTS: RerankWeights = {
  textAgreement: 0,
  similarity: 0,
  recency: 0,
  samePassage: 1,
  passageTurns: 2
}

export function rerank(
  hits: readonly MemorySearchHit[],
  terms: readonly string[],
  floor: number,
  weights: RerankWeights = RERANK_WEIGHTS
): MemorySearchHit[] {
  if (hits.length === 0) return []
  let oldest = Infinity
  let newest = -Infinity
  for (const hit of hits) {
    oldest = Math.min(oldest, hit.createdAt)
    newest = Math.max(newest, hit.createdAt)
  }
  const span = newest - oldest
  const adjusted = hits.map((hit) => {
    if (hit.matchedBy.includes('nearest')) return { ...hit }
    let factor = 1
    if (weights.textAgreement > 0 && terms.length > 0) {
      factor *= 1 + weights.textAgreement * matchedShare(hit.content, terms)
    }
    if (weights.similarity > 0 && hit.matchedBy.includes('vector') && hit.similarity !== null) {
      factor *= 1 + weights.similarity * Math.max(0, hit.similarity - floor)
    }
    if (weights.recency > 0 && span > 0) {
      factor *= 1 + (weights.recency * (hit.createdAt - oldest)) / span
    }
    return { ...hit, score: hit.score * factor }
  })
  adjusted.sort((a, b) => b.score - a.score || (b.similarity ?? 0) - (a.similarity ?? 0))
  if (weights.samePassage >= 1) return adjusted

  // Diversity, in score order: a message near a kept hit of its thread is scored down once.
  const kept = new Map<string, number[]>()
  for (const hit of adjusted) {
    if (hit.kind !== 'message' || hit.threadId === null || hit.seq === null) continue
    const seats = kept.get(hit.threadId) ?? []
    const seq = hit.seq
    if (seats.some((s) => Math.abs(s - seq) <= weights.passageTurns)) {
      hit.score *= weights.samePassage
    }
    seats.push(seq)
    kept.set(hit.threadId, seats)
  }
  return adjusted.sort((a, b) => b.score - a.score || (b.similarity ?? 0) - (a.similarity ?? 0))
}
