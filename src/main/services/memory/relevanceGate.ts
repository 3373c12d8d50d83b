/**
 * The relevance gate of a build's recall (issue #17): a candidate is sent only when the
 * evidence that it is relevant passes a bar calibrated per embedding model. The budget only
 * caps what passes; it never pulls in what does not. docs/MEMORY.md, "The relevance gate".
 *
 * Relevance is one number per candidate, on the calibrated similarity scale (0.6 "related",
 * 1 identical), so the inspector can say "relevance 0.71 < gate 0.76" in any language:
 *
 *   relevance = similarity − language offset ± speaker offset
 *               + TEXT_WEIGHT × (share of the query's terms it holds)
 *
 * The language offset exists because a multilingual model scores pairs of Chinese sentences
 * higher than pairs of English ones whatever they say (e5: unrelated Chinese pairs at cosine
 * 0.84, English 0.75), so one bar would let every Chinese memory through for a Chinese
 * question and stop English evidence. The full-text term is agreement: the query's own words
 * in the item, which a paraphrase-level cosine cannot tell from a topic match.
 */
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import { cjkWeight } from '../../workers/embedding/centering'
import { signalText } from './memoryRanking'

/** The bar for one kind of candidate. */
interface KindGate {
  /** The relevance a candidate needs, whatever else was found. */
  gate: number
  /**
   * A candidate this far below the best of its kind is left out even above `gate`: when one
   * item answers the question, the items far under it are the haystack it was found in.
   */
  belowBest: number
  /** At most this many of the kind pass, most relevant first. */
  cap: number
  /**
   * What passes is held to an allowance of tokens that grows with how far the best clears
   * `gate`: this many per 0.01 (the first item always passes), at most `maxTokens`. A best
   * just over the bar is weak evidence that the kind holds the answer at all, and a question
   * nothing answers finds exactly such a best. Counted in tokens because tokens are the cost:
   * thirty short turns of chat are a few hundred, thirty long answers several thousand.
   */
  tokensPerHundredth?: number
  maxTokens?: number
}

export interface GateCalibration {
  /**
   * Memories are what the user saved to be remembered: short (~25 tokens) and meant for
   * recall, so their bar is lower. So is this thread's own older history, which the window
   * dropped for room, not for relevance; it has no margin below the best either, since a
   * question about the past often needs turns far apart, one much weaker than the other, and
   * at a budget the thread overflows the window fills whatever recall leaves (LoCoMo's single
   * thread, docs/EVALUATION.md). Messages of other threads are whole turns of other
   * conversations, private to their thread: their bar is higher and what passes is capped.
   */
  memory: KindGate
  thread: KindGate
  message: KindGate
  /**
   * Other threads' messages once this thread has a conversation of its own: only their best
   * come, held to a smaller allowance than a new thread's. A new thread asking about the past
   * has nothing else to go on; in a running conversation, other chats that resemble it are
   * mostly noise and, sent after the cached history, an uncached cost on every turn
   * (docs/CONTEXT.md, "Prompt caching"). The allowance halved what a question nothing answers
   * recalls when asked mid-conversation, and left the evidence found the same
   * (docs/EVALUATION.md, "Asked in a running conversation").
   */
  messageInConversation: KindGate
  /** Subtracted from the similarity of a Chinese/Chinese pair, and of a cross-lingual one. */
  offsets: { chinese: number; crossLingual: number }
  /**
   * When the question asks about the user (asksAboutTheUser), the speaker offsets of another
   * thread's message: the user's own turn gains `own`, an assistant's reply loses `reply`.
   * What the user said or did is in what the user wrote; replies on the same subject (advice,
   * explanations, long lists) resemble the question as much and hold none of it. Zero: the
   * rule does not apply to the model (replies also come as neighbours then).
   */
  aboutTheUser: { own: number; reply: number }
  /** A message this far above its gate is strong: only strong hits bring their neighbours. */
  strongMargin: number
  /**
   * Added to other threads' bar when the question names something (queryNames) that no
   * candidate mentions: another chat that resembles a question about "Caroline", in a store
   * that never mentions her, is about someone else. Memories keep their bar: they are short
   * facts saved to be recalled ("prefers boutique hotels" for a hotel in Miami), and raising
   * theirs cost the dev set 0.007 of recall for 58 tokens (docs/EVALUATION.md).
   */
  absentName: number
}

/** What full-text agreement adds: an item holding every query term gains this much. */
const TEXT_WEIGHT = 0.1

/**
 * Per model, fitted on the dev sets and their control sets (docs/EVALUATION.md, "Calibrating
 * the gate"). A model without its own row uses the fallback: the "related" point of the
 * calibrated scale for both kinds, no language offsets, no relative margin.
 */
const CALIBRATIONS: Record<string, GateCalibration> = {
  [E5_MODEL_ID]: {
    memory: { gate: 0.54, belowBest: 0.14, cap: Infinity },
    // Under the memories' bar: at 0.54 LoCoMo's single thread at 4,000 tokens lost evidence the
    // bar stopped while the retrieved share had room; lower than 0.48 changed nothing there.
    thread: { gate: 0.48, belowBest: Infinity, cap: Infinity },
    message: {
      gate: 0.62,
      belowBest: 0.2,
      cap: Infinity,
      tokensPerHundredth: 400,
      maxTokens: 3000
    },
    messageInConversation: {
      gate: 0.66,
      belowBest: 0.08,
      cap: 8,
      tokensPerHundredth: 200,
      maxTokens: 3000
    },
    offsets: { chinese: 0.16, crossLingual: -0.02 },
    // Replies 0.10-0.18 below gave the LongMemEval haystack and oracle the same recall (within
    // 0.004); 0.14 is the middle (0.18 sent 3-13 % fewer tokens for 0.002 less of the oracle). The user's own +0.02 brought the oracle at 2,000 tokens
    // from 0.936 to 0.950 for 137 more recalled tokens on its control (docs/EVALUATION.md,
    // "A question about the user").
    aboutTheUser: { own: 0.02, reply: 0.14 },
    strongMargin: 0.1,
    absentName: 0.08
  }
}
const FALLBACK: GateCalibration = {
  memory: { gate: 0.6, belowBest: Infinity, cap: Infinity },
  thread: { gate: 0.6, belowBest: Infinity, cap: Infinity },
  message: { gate: 0.6, belowBest: Infinity, cap: 30 },
  messageInConversation: { gate: 0.6, belowBest: Infinity, cap: 8 },
  offsets: { chinese: 0, crossLingual: 0 },
  aboutTheUser: { own: 0, reply: 0 },
  strongMargin: 0.1,
  absentName: 0.08
}

/** The model's gates; `inConversation`: the thread has turns before this input. */
export function gateCalibration(
  modelId: string | undefined,
  inConversation = false
): GateCalibration {
  const calibration = (modelId && CALIBRATIONS[modelId]) || FALLBACK
  return inConversation
    ? { ...calibration, message: calibration.messageInConversation }
    : calibration
}

/**
 * A user's (or a what-if's) gate replaces both kinds' bars, their relative margins and the
 * graded cap: everything over it passes, up to the kind's cap.
 */
export function withMinRelevance(
  calibration: GateCalibration,
  minRelevance: number | undefined
): GateCalibration {
  if (minRelevance === undefined) return calibration
  const fixed = ({ cap }: KindGate): KindGate => ({ gate: minRelevance, belowBest: Infinity, cap })
  return {
    ...calibration,
    memory: fixed(calibration.memory),
    thread: fixed(calibration.thread),
    message: fixed(calibration.message),
    messageInConversation: fixed(calibration.messageInConversation)
  }
}

/**
 * The bars once the question names something no candidate mentions: other threads' raised by
 * `absentName`. Memories and this thread's own history keep theirs.
 */
export function withAbsentNames(
  calibration: GateCalibration,
  absent: readonly string[]
): GateCalibration {
  if (absent.length === 0) return calibration
  const raised = (bar: KindGate): KindGate => ({ ...bar, gate: bar.gate + calibration.absentName })
  return {
    ...calibration,
    message: raised(calibration.message),
    messageInConversation: raised(calibration.messageInConversation)
  }
}

/**
 * In a running conversation, another thread's message must be at least as relevant to the
 * input as the best message this conversation already holds (`best`, its relevance to the
 * input alone, window included): when the thread is about what the input asks, another chat
 * that resembles it tells the model nothing new, and sits after the cached history as an
 * uncached cost on every turn. A conversation that has only said hello leaves the bar where it
 * was. docs/MEMORY.md, "Nothing the conversation already holds".
 */
export function withConversationBest(
  calibration: GateCalibration,
  best: number | null
): GateCalibration {
  if (best === null || best <= calibration.message.gate) return calibration
  return { ...calibration, message: { ...calibration.message, gate: best } }
}

/** Which bar a candidate answers to: a memory, this thread's history, another thread's. */
export type GateKind = 'memory' | 'thread' | 'message'

export interface Gated<T> {
  passed: T[]
  /**
   * Those under their kind's gate, with the gate they missed; or over it but past its cap
   * (`overLimit`, items) or its allowance (`overTokens`).
   */
  rejected: { item: T; gate: number; overLimit?: number; overTokens?: number }[]
  /** Each kind's gate in this search: its bar, or its best less `belowBest` when higher. */
  gates: Record<GateKind, number>
}

/**
 * Applies each kind's gate to candidates that have a relevance; `kindOf`, `relevance` and
 * `tokens` read them. The order of `passed` is by relevance, best first.
 */
export function applyGate<T>(
  candidates: readonly T[],
  kindOf: (item: T) => GateKind,
  relevance: (item: T) => number,
  tokens: (item: T) => number,
  calibration: GateCalibration
): Gated<T> {
  const out: Gated<T> = { passed: [], rejected: [], gates: { memory: 0, thread: 0, message: 0 } }
  for (const kind of ['memory', 'thread', 'message'] as const) {
    const bar = calibration[kind]
    const ofKind = candidates
      .filter((c) => kindOf(c) === kind)
      .sort((a, b) => relevance(b) - relevance(a))
    const best = ofKind.length > 0 ? relevance(ofKind[0] as T) : 0
    const gate = Math.round(Math.max(bar.gate, best - bar.belowBest) * 1000) / 1000
    out.gates[kind] = gate
    const allowance = allowanceFor(bar, best)
    let taken = 0
    let used = 0
    let full = false
    for (const item of ofKind) {
      if (relevance(item) < gate) {
        out.rejected.push({ item, gate })
        continue
      }
      if (taken >= bar.cap) {
        out.rejected.push({ item, gate, overLimit: bar.cap })
        continue
      }
      // Counted only where an allowance applies: this is the send's path.
      const cost = allowance === Infinity ? 0 : tokens(item)
      // Once one does not fit, none after it passes: a shorter, weaker item is no better.
      full ||= taken > 0 && used + cost > allowance
      if (full) {
        out.rejected.push({ item, gate, overTokens: allowance })
        continue
      }
      out.passed.push(item)
      taken++
      used += cost
    }
  }
  out.passed.sort((a, b) => relevance(b) - relevance(a))
  return out
}

/** The kind's allowance in tokens for a search whose best of the kind has relevance `best`. */
function allowanceFor(bar: KindGate, best: number): number {
  if (bar.tokensPerHundredth === undefined) return Infinity
  // In thousandths, as relevance is rounded: 0.705 − 0.62 is 0.085, not 0.08499….
  const clears = Math.round((best - bar.gate) * 1000) / 10
  return Math.min(
    bar.maxTokens ?? Infinity,
    Math.max(0, Math.floor(clears * bar.tokensPerHundredth))
  )
}

export interface RelevanceSignals {
  /** Calibrated similarity (the better of the query's and the conversation's); null: no vector. */
  similarity: number | null
  /** Share of the query's full-text terms the item holds (0-1). */
  textShare: number
  /** How Chinese the query and the item are (cjkWeight, 0-1). */
  queryCjk: number
  itemText: string
  /** Who wrote another thread's message, when the question asks about the user. */
  speaker?: 'user' | 'assistant'
}

/** The language offset of a pair, blended by how Chinese each side is. */
function languageOffset(queryCjk: number, itemCjk: number, calibration: GateCalibration): number {
  const both = queryCjk * itemCjk
  const cross = queryCjk * (1 - itemCjk) + (1 - queryCjk) * itemCjk
  return both * calibration.offsets.chinese + cross * calibration.offsets.crossLingual
}

/**
 * The candidate's relevance, or null without a vector (full text only: the caller's text rule
 * decides then, since a share of words is not on the similarity scale).
 */
export function relevanceOf(
  signals: RelevanceSignals,
  calibration: GateCalibration
): number | null {
  if (signals.similarity === null) return null
  const offset = languageOffset(
    signals.queryCjk,
    cjkWeight(signalText(signals.itemText)),
    calibration
  )
  const { own, reply } = calibration.aboutTheUser
  const speaker = signals.speaker === 'user' ? own : signals.speaker === 'assistant' ? -reply : 0
  const value = signals.similarity - offset + speaker + TEXT_WEIGHT * signals.textShare
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000
}
