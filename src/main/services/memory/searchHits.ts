/**
 * What a search's candidates become as hits (hybridSearch.ts): their fused score, whether their
 * text alone supports them, and which of them a gated search keeps.
 */
import type { Memory, MemorySearchHit } from '@shared/domain'
import { MAX_RECALL_LIMIT } from '../../context/recall/recallRequest'
import type { RecallMessage } from '../../store/search/recallRepository'
import { hasStrongTerm, matchedShare, rrfScore } from './memoryRanking'
import type { GateCalibration, GateKind } from './relevanceGate'
import { CONTEXT_WEIGHT, type Candidate } from './searchCandidates'

/**
 * Without vector support (no vector yet, or one under the floor), a full-text hit needs this
 * share of the query's terms, or one strong term (a Chinese trigram or a word of 4+ letters):
 * three-letter words alone are too common.
 */
const TEXT_ONLY_MIN_SHARE = 0.5
/**
 * At most this many words-only messages of other threads. Shared words are weaker evidence
 * than a pass of the gate, and a newcomer's first questions run without a model: on the
 * LongMemEval haystack a cap of 10 instead of the gate's 30 sent 2,831 tokens instead of 9,375
 * for 0.797 of the evidence instead of 0.853, and an unanswerable question 3,377 instead of
 * 10,011. Demanding half the query's words instead cost twice the recall (0.531).
 * docs/EVALUATION.md, "Without a model".
 */
const WORDS_ONLY_MESSAGE_CAP = 10

/**
 * Words-only candidates of a gated search, best text rank first, at most each kind's cap: a
 * slow or missing model must not turn a focused request into every message that shares a
 * word with the question.
 */
export function withinCaps(
  hits: MemorySearchHit[],
  kindOf: (hit: MemorySearchHit) => GateKind,
  calibration: GateCalibration
): MemorySearchHit[] {
  const caps = {
    memory: calibration.memory.cap,
    thread: calibration.thread.cap,
    message: Math.min(calibration.message.cap, WORDS_ONLY_MESSAGE_CAP)
  }
  const taken = { memory: 0, thread: 0, message: 0 }
  return hits
    .sort((a, b) => b.score - a.score)
    .filter((hit) => taken[kindOf(hit)]++ < caps[kindOf(hit)])
}

/**
 * Memories that passed the gate, placed by relevance among themselves: the most relevant takes
 * the best fused score any of them earned, the next the second, and so on, so messages keep
 * their places and the list (and the retrieved section, which places by score) reads memories
 * best first. Fusing ranks suits whole turns, where the words' list finds names and details a
 * cosine blurs (see isStrong). A memory is one short sentence whose relevance already counts
 * the query's words, and a rank from either list alone discards how far ahead it is: on the
 * dev set a memory the question implies sat behind ones that shared a common word (recall@5
 * 0.452 → 0.574, docs/EVALUATION.md, "Memories by relevance").
 */
export function memoriesByRelevance(hits: readonly MemorySearchHit[]): MemorySearchHit[] {
  const memories = hits.filter((hit) => hit.kind === 'memory' && hit.relevance !== undefined)
  const scores = memories.map((hit) => hit.score).sort((a, b) => b - a)
  const placed = new Map(
    [...memories]
      .sort((a, b) => (b.relevance ?? 0) - (a.relevance ?? 0))
      .map((hit, i) => [hit, { ...hit, score: scores[i] as number }] as const)
  )
  return hits.map((hit) => placed.get(hit) ?? hit)
}

/**
 * A message far enough over its own kind's gate (this thread's history, or other threads')
 * that the turns around it are worth sending too. This thread's hits once answered to other
 * threads' bar, so raising that bar in a running conversation took LoCoMo's neighbours with it
 * (docs/EVALUATION.md). (The gate decides what is sent; messages that pass are still ordered
 * by the fused ranks: ranking them by relevance instead cost LoCoMo's single thread 0.06 of
 * recall at 4,000 tokens. Memories are not: memoriesByRelevance.)
 */
export function isStrong(
  hit: MemorySearchHit,
  gate: number,
  calibration: GateCalibration
): boolean {
  return hit.kind === 'message' && (hit.relevance ?? 0) >= gate + calibration.strongMargin
}

/**
 * The best hits that make `limit` items once each recalled message has brought its neighbour:
 * a message counts twice, a memory once. So a budget that holds 100 items asks for 50 messages
 * (and their replies) or 100 memories.
 */
export function withinItems(hits: readonly MemorySearchHit[], limit: number): MemorySearchHit[] {
  const out: MemorySearchHit[] = []
  let items = 0
  for (const hit of hits) {
    items += hit.kind === 'message' ? 2 : 1
    if (items > limit) break
    out.push(hit)
  }
  return out
}

/**
 * Whether the text alone justifies returning an item: it holds every query term, or the
 * full-text list found it and it holds half of them or one strong term. A vector under the
 * floor neither helps nor vetoes.
 */
export function textSupport(
  content: string,
  terms: readonly string[],
  candidate: Candidate
): boolean {
  if (terms.length === 0) return false
  const share = matchedShare(content, terms)
  if (share === 1) return true
  if (candidate.textRank === undefined) return false
  return share >= TEXT_ONLY_MIN_SHARE || hasStrongTerm(content, terms)
}

/** The fused score is scaled so that first place in the query's two lists (vector, text) is 1. */
const FUSED_LISTS = 2

/** The weakest fused score a supported hit can have: a conversation-only rank at the deepest limit. */
export const WEAKEST_FUSED_SCORE = rrfScore(
  [{ rank: MAX_RECALL_LIMIT, weight: CONTEXT_WEIGHT }],
  FUSED_LISTS
)

export function toHit(
  candidate: Candidate,
  content: string,
  similarity: number | null,
  matchedBy: MemorySearchHit['matchedBy'],
  memory: Memory | undefined,
  message: RecallMessage | undefined
): MemorySearchHit {
  return {
    kind: candidate.kind,
    ref: `${candidate.kind}:${candidate.id}`,
    id: candidate.id,
    content,
    // A list that does not support the item contributes nothing to its fused score.
    score: rrfScore(
      matchedBy.includes('vector')
        ? [
            { rank: candidate.vectorRank },
            { rank: candidate.contextRank, weight: CONTEXT_WEIGHT },
            { rank: candidate.textRank }
          ]
        : [{ rank: candidate.textRank }],
      FUSED_LISTS
    ),
    similarity,
    cosine: candidate.cosine,
    matchedBy,
    category: memory?.category ?? null,
    threadId: memory?.sourceThreadId ?? message?.threadId ?? null,
    threadTitle: message?.threadTitle ?? null,
    messageId: memory?.sourceMessageId ?? message?.id ?? null,
    seq: message?.seq ?? null,
    role: message?.role ?? null,
    createdAt: memory?.updatedAt ?? message?.createdAt ?? 0,
    ...(message && message.omittedChars > 0 && { omittedChars: message.omittedChars })
  }
}
