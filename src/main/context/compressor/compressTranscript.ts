/**
 * The compression algorithm as functions of data (Hermes Agent's ContextCompressor, four
 * phases): prune old tool output, choose the head and tail boundaries, summarize the middle,
 * assemble head + summary + tail. `planCompression` and `finishCompression` are synchronous;
 * only the summarizer call between them is not. The input is never modified.
 */
import type { ProviderMessage } from '@shared/context'
import {
  countMessageTokens,
  MESSAGE_FRAMING_TOKENS,
  REPLY_PRIMING_TOKENS
} from '../tokens/messageTokens'
import type { TokenCounter } from '../tokens/tokenCounter'
import {
  fallbackSummary,
  isRetryableFailure,
  prepareSummaryRequest,
  type Summarizer,
  type SummaryRequest
} from '../summary/summarizer'
import { assembleCompressed, readEmbeddedSummary, SUMMARY_REPLACED } from './assembleCompressed'
import { chooseBoundaries, embeddedSummaryIndex, protectedHeadEnd } from './boundaries'
import { copyMessage } from './messageGroups'
import { pruneToolOutput, type PruneResult } from './toolPruning'

export interface CompressionSettings {
  contextLength: number
  /** Prompt size that triggers compression; the tail budget is a share of it. */
  thresholdTokens: number
  counter: TokenCounter
  /** Tail token budget as a share of the threshold (Hermes' target_ratio, 0.2). */
  targetRatio: number
  /** Messages the tail keeps whatever they cost. */
  minTailMessages: number
  /** Non-system messages of the first exchange kept verbatim (0 once decayed). */
  protectFirstN: number
}

export interface CompressionRequestOptions {
  focusTopic?: string | null
  /** The summary the last compression produced, updated rather than rewritten. */
  previousSummary?: string | null
}

/** A compression's summary budget (Hermes): 20 % of what it replaces, at least 2,000 tokens, at most 5 % of
 * the window or 12,000. */
const COMPRESSION_SUMMARY_RATIO = 0.2
const COMPRESSION_SUMMARY_MIN_TOKENS = 2_000
const COMPRESSION_SUMMARY_MAX_TOKENS = 12_000
const COMPRESSION_SUMMARY_MAX_WINDOW_SHARE = 0.05

export function summaryTokenBudget(contentTokens: number, contextLength: number): number {
  const ceiling = Math.min(
    Math.floor(contextLength * COMPRESSION_SUMMARY_MAX_WINDOW_SHARE),
    COMPRESSION_SUMMARY_MAX_TOKENS
  )
  const wanted = Math.max(
    COMPRESSION_SUMMARY_MIN_TOKENS,
    Math.floor(contentTokens * COMPRESSION_SUMMARY_RATIO)
  )
  return Math.max(1, Math.min(ceiling, wanted))
}

interface CompressionPlan {
  input: readonly ProviderMessage[]
  tokensBefore: number
  prune: PruneResult
  /** The protected head and tail as they will be sent (pruned). */
  head: ProviderMessage[]
  tail: ProviderMessage[]
  /** The messages the summary replaces, without an earlier compression's summary. */
  middle: ProviderMessage[]
  summarizedMessages: number
  /** Null when there is nothing between head and tail to summarize. */
  request: SummaryRequest | null
}

export interface CompressionResult {
  messages: ProviderMessage[]
  /** False when the messages are returned as they came. */
  compressed: boolean
  /** The new summary's text (without its reference-only markers), or null. */
  summary: string | null
  summarySource: 'model' | 'fallback' | null
  tokensBefore: number
  tokensAfter: number
  /** Messages the summary replaced. */
  summarizedMessages: number
  prunedToolResults: number
  shrunkToolCalls: number
  /** Why nothing changed, or why the fallback summary stands in for the model's. */
  note: string | null
}

function tokenCounts(messages: readonly ProviderMessage[], counter: TokenCounter): number[] {
  return messages.map((m) => countMessageTokens(counter, m) + MESSAGE_FRAMING_TOKENS)
}

/** Prompt tokens of a message list, counted the way the builder counts a request. */
export function transcriptTokens(
  messages: readonly ProviderMessage[],
  counter: TokenCounter
): number {
  return tokenCounts(messages, counter).reduce((a, b) => a + b, REPLY_PRIMING_TOKENS)
}

function sameMessage(a: ProviderMessage, b: ProviderMessage): boolean {
  return (
    a.content === b.content &&
    (a.toolCalls ?? []).every((call, i) => call.arguments === b.toolCalls?.[i]?.arguments)
  )
}

/** Takes an earlier summary out of a message that has to stay where it is. */
function withoutSummary(message: ProviderMessage): { message: ProviderMessage; body: string } {
  const embedded = readEmbeddedSummary(message.content)!
  return {
    message: { ...message, content: embedded.rest ?? SUMMARY_REPLACED },
    body: embedded.body
  }
}

function planCompression(
  messages: readonly ProviderMessage[],
  settings: CompressionSettings,
  options: CompressionRequestOptions = {}
): CompressionPlan {
  const counts = tokenCounts(messages, settings.counter)
  const tokensBefore = counts.reduce((a, b) => a + b, REPLY_PRIMING_TOKENS)
  // Head protection decays once a summary exists: the first exchange is in it by then.
  const protectFirstN = embeddedSummaryIndex(messages) >= 0 ? 0 : settings.protectFirstN
  const baseHeadEnd = protectedHeadEnd(messages, protectFirstN)
  const tail = {
    tokenBudget: Math.floor(settings.thresholdTokens * settings.targetRatio),
    minMessages: Math.max(1, settings.minTailMessages)
  }

  const first = chooseBoundaries(messages, baseHeadEnd, {
    ...tail,
    tokensOf: (i) => counts[i] ?? 0
  })
  // Like Hermes, pruning reaches into the head too: a 400-line file read in the first
  // exchange is as stale as one in the middle; the head keeps its messages, not their bulk.
  // With nothing between head and tail there is nothing to compress, the head included.
  const prune = pruneToolOutput(messages, 0, first.tailStart > first.headEnd ? first.tailStart : 0)
  const pruned = prune.messages
  const prunedCounts = pruned.map((m, i) =>
    sameMessage(m, messages[i]!)
      ? counts[i]!
      : countMessageTokens(settings.counter, m) + MESSAGE_FRAMING_TOKENS
  )
  // Pruned results are small, so the tail may now reach further back than before.
  const { headEnd, tailStart, stripSummaryAt } = chooseBoundaries(pruned, baseHeadEnd, {
    ...tail,
    tokensOf: (i) => prunedCounts[i] ?? 0
  })

  let previousSummary = options.previousSummary ?? null
  const kept = [...pruned]
  if (stripSummaryAt >= 0) {
    const stripped = withoutSummary(pruned[stripSummaryAt]!)
    kept[stripSummaryAt] = stripped.message
    previousSummary = stripped.body
  }
  const middle: ProviderMessage[] = []
  // The summarizer reads the original middle, not the pruned one-liners, so an error or a value
  // in old tool output can still reach the summary (the prompt clips long messages anyway).
  for (const m of messages.slice(headEnd, tailStart)) {
    const embedded = m.role === 'system' ? null : readEmbeddedSummary(m.content)
    if (!embedded) {
      middle.push(m)
      continue
    }
    // The summary in the messages is what was sent: it replaces the remembered one, once.
    previousSummary = embedded.body
    if (embedded.rest !== null) middle.push({ ...m, content: embedded.rest })
  }
  const middleTokens = middle.reduce(
    (sum, m) => sum + countMessageTokens(settings.counter, m) + MESSAGE_FRAMING_TOKENS,
    0
  )
  const request =
    middle.length === 0
      ? null
      : prepareSummaryRequest({
          previousSummary,
          newMessages: middle,
          focusTopic: options.focusTopic ?? null,
          maxTokens: summaryTokenBudget(middleTokens, settings.contextLength)
        })
  return {
    input: messages,
    tokensBefore,
    prune,
    head: kept.slice(0, headEnd),
    tail: kept.slice(tailStart),
    middle,
    summarizedMessages: tailStart - headEnd,
    request
  }
}

function unchanged(plan: CompressionPlan, note: string): CompressionResult {
  return {
    messages: plan.input.map(copyMessage),
    compressed: false,
    summary: null,
    summarySource: null,
    tokensBefore: plan.tokensBefore,
    tokensAfter: plan.tokensBefore,
    summarizedMessages: 0,
    prunedToolResults: 0,
    shrunkToolCalls: 0,
    note
  }
}

function prunedOnly(
  plan: CompressionPlan,
  counter: TokenCounter,
  note: string | null
): CompressionResult {
  const { prune } = plan
  const changed = prune.summarized + prune.deduplicated + prune.shrunkCalls > 0
  if (!changed)
    return unchanged(
      plan,
      note ?? 'nothing to compress: the protected head and tail hold every message'
    )
  const tokensAfter = transcriptTokens(prune.messages, counter)
  if (tokensAfter >= plan.tokensBefore)
    return unchanged(plan, 'pruning would not make the request smaller')
  return {
    messages: prune.messages,
    compressed: true,
    summary: null,
    summarySource: null,
    tokensBefore: plan.tokensBefore,
    tokensAfter,
    summarizedMessages: 0,
    prunedToolResults: prune.summarized + prune.deduplicated,
    shrunkToolCalls: prune.shrunkCalls,
    note
  }
}

/** Assembles the result; falls back to pruning only, or to the input, if it would not shrink. */
function finishCompression(
  plan: CompressionPlan,
  counter: TokenCounter,
  summary: { text: string; source: 'model' | 'fallback'; note?: string | null } | null
): CompressionResult {
  if (!plan.request || !summary) return prunedOnly(plan, counter, null)
  const messages = assembleCompressed(plan.head, summary.text, plan.tail)
  const tokensAfter = transcriptTokens(messages, counter)
  if (tokensAfter >= plan.tokensBefore) {
    return prunedOnly(plan, counter, 'the summary would not make the request smaller')
  }
  return {
    messages,
    compressed: true,
    summary: summary.text.trim(),
    summarySource: summary.source,
    tokensBefore: plan.tokensBefore,
    tokensAfter,
    summarizedMessages: plan.summarizedMessages,
    prunedToolResults: plan.prune.summarized + plan.prune.deduplicated,
    shrunkToolCalls: plan.prune.shrunkCalls,
    note: summary.note ?? null
  }
}

/** Compression with the extractive summary: synchronous and deterministic. */
export function compressWithFallback(
  messages: readonly ProviderMessage[],
  settings: CompressionSettings,
  options: CompressionRequestOptions = {}
): CompressionResult {
  const plan = planCompression(messages, settings, options)
  const summary = plan.request
    ? { text: fallbackSummary(plan.request), source: 'fallback' as const }
    : null
  return finishCompression(plan, settings.counter, summary)
}

/**
 * Compression with a summarizer. The request has to fit now, so when the summarizer fails for
 * any reason (auth and network included) the extractive summary stands in and `note` says why.
 */
export async function compressTranscript(
  messages: readonly ProviderMessage[],
  settings: CompressionSettings,
  summarizer: Summarizer,
  options: CompressionRequestOptions & { signal?: AbortSignal } = {}
): Promise<CompressionResult> {
  const plan = planCompression(messages, settings, options)
  if (!plan.request) return finishCompression(plan, settings.counter, null)
  let text = ''
  let note: string | null = null
  try {
    text = (await summarizer.summarize(plan.request, options.signal)).trim()
    if (!text) note = 'the summarizer returned nothing; used the extractive summary'
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const kind = isRetryableFailure(error) ? 'is unavailable' : 'failed'
    note = `the summarizer ${kind} (${reason}); used the extractive summary`
  }
  if (text) return finishCompression(plan, settings.counter, { text, source: summarizer.source })
  return finishCompression(plan, settings.counter, {
    text: fallbackSummary(plan.request),
    source: 'fallback',
    note
  })
}
