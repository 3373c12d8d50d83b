import type {
  MemoryCategory,
  MemorySearchHit,
  MemorySearchResult,
  MemorySearchScope
} from '@shared/domain'
import type { MemoryWarning } from '@shared/context'
import { yieldToEventLoop } from '@shared/eventLoop'
import { AppError } from '@shared/result'
import { RECALL_SAMPLE_CHARS } from '../../context/recall/recallQuery'
import { estimateTokens } from '../../context/tokens/tokenEstimate'
import { RECALLED_ROLES, type RecallMessage } from '../../store/search/recallRepository'
import { calibratedSimilarity } from '../../workers/embedding/embeddingModels'
import {
  CANDIDATES_PER_LIST,
  gatherCandidates,
  unavailableWarning,
  type CandidateQuery,
  type GatheredCandidates,
  type SearchSources
} from './searchCandidates'
import {
  isStrong,
  memoriesByRelevance,
  textSupport,
  toHit,
  WEAKEST_FUSED_SCORE,
  withinCaps,
  withinItems
} from './searchHits'
import { absentNames, asksAboutTheUser, matchedShare, queryNames } from './memoryRanking'
import {
  applyGate,
  gateCalibration,
  relevanceOf,
  withAbsentNames,
  withConversationBest,
  withMinRelevance,
  type GateCalibration,
  type GateKind,
  type Gated
} from './relevanceGate'
import { cjkWeight } from '../../workers/embedding/centering'

export interface MemorySearchOptions {
  limit?: number
  /** On the model's calibrated scale (see workers/embeddingModels.ts). Default 0.6. */
  minSimilarity?: number
  categories?: readonly MemoryCategory[]
  /** `thread`: only messages of `threadId` (memories are global either way). Default `all`. */
  scope?: MemorySearchScope
  threadId?: string
  excludeMessageIds?: readonly number[]
  /**
   * The input being answered and what follows it, once stored: never recalled, and not part
   * of the conversation (`conversationBest`).
   */
  inputMessageIds?: readonly number[]
  /** Search memories, messages or both. Default both. */
  kinds?: readonly ('memory' | 'message')[]
  /** The query embedding gets at most this long; after it, full text only. Default 500. */
  timeoutMs?: number
  /**
   * The conversation around the query (context/recall/recallQuery.ts): a second vector query whose
   * list is fused at CONTEXT_WEIGHT, and whose cosine counts for the floor like the query's.
   */
  context?: string
  /**
   * The opt-in "fill spare budget" of a build: also return vector-list items under the floor
   * (after every supported hit, `matchedBy: ['nearest']`) and the turns next to every recalled
   * message (`neighbour`). Interactive searches leave it off and get supported hits only.
   */
  fillBudget?: boolean
  /**
   * A build's default: only candidates whose relevance passes the model's gate
   * (relevanceGate.ts; `minRelevance` replaces it), neighbours only beside strong hits, and
   * the best of the rest reported as `rejected`. Ignored with `fillBudget`.
   */
  gate?: { minRelevance?: number }
  /** This thread's messages up to this seq are covered by its summary: never recalled. */
  summarizedThrough?: number
}

const DEFAULT_MIN_SIMILARITY = 0.6
const DEFAULT_LIMIT = 10
const DEFAULT_TIMEOUT_MS = 500
/**
 * A vector-list item under the floor and without text support is not evidence, but when the
 * budget has room it is the best guess left: such items come after every supported hit,
 * nearest first, down to this calibrated similarity (0.5 ≈ cosine 0.0 after centering for
 * bge-small-zh, where unrelated pairs sit; calibrated on the dev set, docs/EVALUATION.md).
 */
const NEAREST_FLOOR = 0.5
/**
 * Scores of those items: calibrated similarity (under 0.6) × this, so below any supported hit's
 * fused score. Derived, not written out: a constant fixed for RRF's k = 60 would outrank deep
 * hits at k = 5.
 */
const NEAREST_SCORE = WEAKEST_FUSED_SCORE / 0.6
/**
 * A build's per-model rank floor (EmbeddingModelSpec.rankFloor) applies while its budget holds
 * at most this many items: there a weak vector-only hit takes the place of a text-supported one
 * one for one. With room for hundreds, demoting those hits to fill pushed evidence past the
 * limit instead (LoCoMo per session at 8,000 tokens: −0.016 with the floor at 0.7; the
 * variants are in docs/EVALUATION.md).
 */
const RANK_FLOOR_LIMIT = 100
/** A message that ends by asking (English or Chinese question mark). */
const QUESTION_END = /[?？]\s*$/u
/** A neighbour's score as a share of its hit's: just under the hits ranked near it. */
const NEIGHBOUR_WEIGHT = 0.5
/** How many of the best candidates under the gate a build reports (the inspector's "why not"). */
const REJECTED_REPORTED = 5

/** A thread's messages up to `seq`, which its summary covers. */
interface SummarizedThrough {
  threadId: string
  seq: number
}

/**
 * Hybrid recall over memories and every stored message: KNN over the active vector space and
 * BM25 over the trigram FTS indexes, fused by reciprocal rank (docs/MEMORY.md, "How it is
 * found"). Each list is evidence on its own: an item the vector list supports (calibrated
 * similarity at least `minSimilarity`) competes on both ranks; an item only the full-text list
 * found competes on its text rank alone, if enough of the query's terms occur in it. A vector
 * hit under the floor is never returned on its vector alone. Without a model, or when the
 * query cannot be embedded in time, the result is full text only and says so.
 */
/** One search's options, worked out once and read by every stage. */
interface SearchPlan extends CandidateQuery {
  limit: number
  /** The floor of vector support for ungated searches (the calibrated scale). */
  minSimilarity: number
  threadId: string | undefined
  exclude: Set<number>
  input: Set<number>
  summarized: SummarizedThrough | undefined
  fillBudget: boolean
  /** A gated search's bars; null: ungated (an interactive search, or the opt-in fill). */
  calibration: GateCalibration | null
  /** The names the query asks about, when their absence may raise the bars (no user gate). */
  names: string[]
  /**
   * Gated, the model calibrated for it, and the question asks about the user: another thread's
   * message gets its speaker's offset (relevanceGate.ts), and replies do not come as neighbours
   * of the user's turns (they hold what the assistant said, not what the user did).
   */
  aboutTheUser: boolean
  /** Other threads are weighed against this conversation (gated, no user gate, has turns). */
  conversation: boolean
}

/** The candidates as hits: kept (ungated), or scored for the gate and words-only (gated). */
interface ScoredHits {
  hits: MemorySearchHit[]
  scored: MemorySearchHit[]
  wordsOnly: MemorySearchHit[]
  /**
   * Gated in a running conversation: the relevance to the input of this thread's best
   * message, the window's included (withConversationBest); null when none was a candidate.
   */
  conversationBest: number | null
  /** Gated, about the user: another thread's message was a candidate, so the rule applied. */
  aboutTheUser: boolean
}

export class HybridSearch {
  constructor(private readonly deps: SearchSources) {}

  /**
   * Each list reads 50 items (ungated: max(50, limit)). Excluded messages are filtered out of
   * them, not replaced by reading deeper: on LoCoMo, lists read deeper to make up for a
   * window's worth of exclusions let weak items into the fused top and cost 1-3 points of
   * evidence recall.
   * Stages: plan, gather (searchCandidates.ts), score, select.
   */
  async search(query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    const started = performance.now()
    const plan = this.plan(query, options)
    if (!plan) return { hits: [], mode: 'text_only', warnings: [], tookMs: 0 }
    const gathered = await gatherCandidates(this.deps, plan)
    // The lists' reads and the candidates' rows with their scoring are each tens of ms in a
    // large store; the event loop turns between them.
    await yieldToEventLoop()
    const scored = this.score(plan, gathered)
    const { hits, gate, passed, absent, raisedBy } = this.select(plan, scored)
    return {
      hits,
      mode: gathered.vector ? 'hybrid' : 'text_only',
      warnings: gathered.warnings,
      tookMs: performance.now() - started,
      timings: gathered.timings,
      ...(gate && {
        gate: {
          gates: gathered.vector ? gate.gates : null,
          passed,
          absentNames: gathered.vector ? absent : [],
          conversationBest: gathered.vector ? raisedBy : null,
          aboutTheUser:
            gathered.vector && scored.aboutTheUser && plan.calibration
              ? plan.calibration.aboutTheUser
              : null,
          rejected: gate.rejected
            .sort((a, b) => (b.item.relevance ?? 0) - (a.item.relevance ?? 0))
            .slice(0, REJECTED_REPORTED)
            .map(({ item, ...why }) => ({ hit: item, ...why }))
        }
      })
    }
  }

  /**
   * What is returned: the gate and the words-only caps applied (gated), the best first, a
   * message a returned memory was made from left out, `limit` of them, and the turns around
   * them (every hit when filling, only strong ones when gated). `passed` counts what passed
   * before the limit; `absent`, the query's names no candidate mentions (they raise
   * other threads' bar).
   */
  private select(
    plan: SearchPlan,
    scored: ScoredHits
  ): {
    hits: MemorySearchHit[]
    gate: Gated<MemorySearchHit> | null
    passed: number
    absent: string[]
    /** This conversation's best, when it raised other threads' bar. */
    raisedBy: number | null
  } {
    const absent = absentNames(
      plan.names,
      [...scored.scored, ...scored.wordsOnly].map((hit) => hit.content)
    )
    const named = plan.calibration && withAbsentNames(plan.calibration, absent)
    const calibration = named && withConversationBest(named, scored.conversationBest)
    const raisedBy =
      named && calibration && calibration.message.gate > named.message.gate
        ? scored.conversationBest
        : null
    const kindOf = (hit: MemorySearchHit): GateKind =>
      hit.kind === 'memory' ? 'memory' : hit.threadId === plan.threadId ? 'thread' : 'message'
    const gate = calibration
      ? applyGate(
          scored.scored,
          kindOf,
          (hit) => hit.relevance ?? 0,
          (hit) => estimateTokens(hit.content),
          calibration
        )
      : null
    const hits = [...scored.hits]
    if (gate && calibration) {
      hits.push(
        ...memoriesByRelevance(gate.passed),
        ...withinCaps(scored.wordsOnly, kindOf, calibration)
      )
    }
    hits.sort((a, b) => b.score - a.score || (b.similarity ?? 0) - (a.similarity ?? 0))
    // A message that a returned memory was made from adds nothing the memory does not say.
    const sources = new Set(
      hits.filter((h) => h.kind === 'memory' && h.messageId !== null).map((h) => h.messageId)
    )
    const unique = hits.filter((h) => h.kind === 'memory' || !sources.has(h.id))
    const top = plan.fillBudget ? withinItems(unique, plan.limit) : unique.slice(0, plan.limit)
    const neighbours = (parents: MemorySearchHit[]) =>
      this.addNeighbours(plan, parents, top, sources)
    return {
      hits: plan.fillBudget
        ? neighbours(top)
        : gate && calibration
          ? neighbours(top.filter((hit) => isStrong(hit, gate.gates[kindOf(hit)], calibration)))
          : top,
      gate,
      passed: unique.length,
      absent,
      raisedBy
    }
  }

  /** The options with their defaults; null for an empty query. */
  private plan(query: string, options: MemorySearchOptions): SearchPlan | null {
    const limit = options.limit ?? DEFAULT_LIMIT
    const model = this.deps.indexer.active()
    if (options.scope === 'thread' && !options.threadId) {
      throw new AppError('invalid_input', 'A thread-scoped search needs the thread.')
    }
    const text = query.trim()
    if (!text) return null
    const context = options.context?.trim() || null
    const fillBudget = options.fillBudget === true
    const gate = options.gate && !fillBudget ? options.gate : null
    const calibration = gate
      ? withMinRelevance(gateCalibration(model?.spec.id, context !== null), gate.minRelevance)
      : null
    return {
      text,
      context,
      model,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // A gated search's limit is a cap on what passes, not a depth to read: what lies deeper
      // than 50 in a list rarely passes, and reading it costs in proportion to the store.
      perList: gate ? CANDIDATES_PER_LIST : Math.max(CANDIDATES_PER_LIST, limit),
      kinds: new Set(options.kinds ?? ['memory', 'message']),
      threadFilter: options.scope === 'thread' ? options.threadId : undefined,
      categories: options.categories,
      limit,
      minSimilarity:
        options.minSimilarity ??
        (fillBudget && limit <= RANK_FLOOR_LIMIT ? model?.spec.rankFloor : undefined) ??
        DEFAULT_MIN_SIMILARITY,
      threadId: options.threadId,
      exclude: new Set([...(options.excludeMessageIds ?? []), ...(options.inputMessageIds ?? [])]),
      input: new Set(options.inputMessageIds ?? []),
      summarized:
        options.threadId !== undefined && options.summarizedThrough !== undefined
          ? { threadId: options.threadId, seq: options.summarizedThrough }
          : undefined,
      fillBudget,
      calibration,
      names: gate && gate.minRelevance === undefined ? queryNames(text) : [],
      aboutTheUser:
        calibration !== null && calibration.aboutTheUser.reply > 0 && asksAboutTheUser(text),
      conversation: gate !== null && gate.minRelevance === undefined && context !== null
    }
  }

  /**
   * Reads the candidates' rows and turns each into a hit. Ungated, an item is kept on vector
   * support or its text (and, filling, as a `nearest` guess); gated, it gets its relevance for
   * the gate, or waits for the words-only rule when it has no vector. In a running
   * conversation it also finds how relevant the conversation's own best message is, the
   * window's included (`conversationBest`).
   */
  private score(plan: SearchPlan, { candidates, terms }: GatheredCandidates): ScoredHits {
    const memories = this.deps.memories.getMany(
      candidates.filter((c) => c.kind === 'memory').map((c) => c.id)
    )
    const messages = this.deps.recall.messages(
      candidates.filter((c) => c.kind === 'message').map((c) => c.id),
      RECALL_SAMPLE_CHARS
    )
    const categories =
      plan.categories && plan.categories.length > 0 ? new Set(plan.categories) : null
    const related = plan.model?.spec.relatedCosine ?? 0.6
    const queryCjk = cjkWeight(plan.text)
    const out: ScoredHits = {
      hits: [],
      scored: [],
      wordsOnly: [],
      conversationBest: null,
      aboutTheUser: false
    }
    for (const candidate of candidates) {
      const memory = candidate.kind === 'memory' ? memories.get(candidate.id) : undefined
      const message = candidate.kind === 'message' ? messages.get(candidate.id) : undefined
      // Another conversation's message is recalled on what the user asks now, not on where
      // this conversation has drifted: chat about one's week resembles every other such chat.
      const cosine =
        plan.calibration && message && message.threadId !== plan.threadId
          ? candidate.inputCosine
          : candidate.cosine
      const similarity = cosine === null ? null : calibratedSimilarity(cosine, related)
      const content = memory?.content ?? message?.content
      if (content === undefined) continue
      const speaker = message && this.speakerOf(plan, message)
      out.aboutTheUser ||= speaker !== undefined
      const relevanceAt = (calibration: GateCalibration, at: number | null) =>
        relevanceOf(
          {
            similarity: at,
            textShare: matchedShare(content, terms),
            queryCjk,
            itemText: content,
            speaker
          },
          calibration
        )
      if (
        plan.calibration &&
        plan.conversation &&
        message &&
        this.ofConversation(plan, message, content)
      ) {
        // Weighed as other threads' messages are: on the input alone.
        const input = candidate.inputCosine
        const own = relevanceAt(
          plan.calibration,
          input === null ? null : calibratedSimilarity(input, related)
        )
        if (own !== null) out.conversationBest = Math.max(out.conversationBest ?? 0, own)
      }
      if (memory && categories && !categories.has(memory.category)) continue
      if (message && !this.recallable(plan, message)) continue
      const inVectorList = candidate.vectorRank !== undefined || candidate.contextRank !== undefined
      if (plan.calibration) {
        const relevance = relevanceAt(plan.calibration, similarity)
        const matchedBy: MemorySearchHit['matchedBy'] = inVectorList ? ['vector'] : []
        if (candidate.textRank !== undefined) matchedBy.push('text')
        const hit = toHit(candidate, content, similarity, matchedBy, memory, message)
        if (relevance !== null) out.scored.push({ ...hit, relevance })
        // Without a vector the text rule decides, as in a search without a model (capped).
        else if (textSupport(content, terms, candidate)) out.wordsOnly.push(hit)
        continue
      }
      const vectorSupport = inVectorList && similarity !== null && similarity >= plan.minSimilarity
      const matchedBy: MemorySearchHit['matchedBy'] = []
      if (vectorSupport) matchedBy.push('vector')
      if (candidate.textRank !== undefined) matchedBy.push('text')
      if (vectorSupport || textSupport(content, terms, candidate)) {
        out.hits.push(toHit(candidate, content, similarity, matchedBy, memory, message))
      } else if (
        plan.fillBudget &&
        inVectorList &&
        similarity !== null &&
        similarity >= NEAREST_FLOOR
      ) {
        const hit = toHit(candidate, content, similarity, ['nearest'], memory, message)
        out.hits.push({ ...hit, score: similarity * NEAREST_SCORE })
      }
    }
    return out
  }

  /** Why search is full text only right now (the inspector and the memory manager say it). */
  unavailableWarning(): MemoryWarning {
    return unavailableWarning(this.deps.indexer)
  }

  /**
   * The turns right before and after each recalled message (the question an answer replied
   * to, the reply a question got), scored at NEIGHBOUR_WEIGHT × the hit they belong to: under
   * the hits ranked near it, so they fill what budget is left rather than displace hits. A
   * neighbour that is already a weaker hit (a `nearest` one, say) is lifted to that score.
   */
  private addNeighbours(
    plan: SearchPlan,
    from: MemorySearchHit[],
    top: MemorySearchHit[],
    sources: Set<number | null>
  ): MemorySearchHit[] {
    const parents = from.filter(
      (h): h is MemorySearchHit & { threadId: string; seq: number } =>
        h.kind === 'message' && h.threadId !== null && h.seq !== null
    )
    const found = new Map(top.filter((h) => h.kind === 'message').map((h) => [h.id, h]))
    const bySeat = new Map(parents.map((p) => [`${p.threadId}\u0000${p.seq}`, p]))
    const added: MemorySearchHit[] = []
    for (const message of this.deps.recall.neighbours(parents, RECALL_SAMPLE_CHARS)) {
      if (sources.has(message.id)) continue
      if (!this.recallable(plan, message)) continue
      if (this.speakerOf(plan, message) === 'assistant') continue
      const around = [message.seq + 1, message.seq - 1]
        .map((seq) => bySeat.get(`${message.threadId}\u0000${seq}`)?.score ?? 0)
        .filter((score) => score > 0)
      if (around.length === 0) continue
      const score = Math.max(...around) * NEIGHBOUR_WEIGHT
      const existing = found.get(message.id)
      if (existing) {
        if (existing.score < score) {
          existing.score = score
          existing.matchedBy = [...existing.matchedBy.filter((m) => m !== 'nearest'), 'neighbour']
        }
        continue
      }
      const hit = {
        ...toHit(
          { kind: 'message', id: message.id, cosine: null, inputCosine: null },
          message.content,
          null,
          ['neighbour'],
          undefined,
          message
        ),
        score
      }
      found.set(message.id, hit)
      added.push(hit)
    }
    return [...top, ...added].sort((a, b) => b.score - a.score)
  }

  /**
   * This thread's message before the input, sent in the window or not, that can hold an
   * answer: a question asks, so one asked before (the same one again, after a reply that
   * missed) says nothing about what the thread holds.
   */
  private ofConversation(plan: SearchPlan, message: RecallMessage, content: string): boolean {
    return (
      message.threadId === plan.threadId &&
      !plan.input.has(message.id) &&
      !message.excluded &&
      RECALLED_ROLES.includes(message.role) &&
      !QUESTION_END.test(content)
    )
  }

  /** Who wrote another thread's message, when the question asks about the user (SearchPlan). */
  private speakerOf(plan: SearchPlan, message: RecallMessage): 'user' | 'assistant' | undefined {
    if (!plan.aboutTheUser || message.threadId === plan.threadId) return undefined
    return message.role === 'user' || message.role === 'assistant' ? message.role : undefined
  }

  /** Not excluded, of a recalled role, in the search's scope and not covered by its summary. */
  private recallable(
    { exclude, threadFilter: threadId, summarized }: SearchPlan,
    message: RecallMessage
  ): boolean {
    return (
      !message.excluded &&
      !exclude.has(message.id) &&
      RECALLED_ROLES.includes(message.role) &&
      (threadId === undefined || message.threadId === threadId) &&
      !(summarized && message.threadId === summarized.threadId && message.seq <= summarized.seq)
    )
  }
}
