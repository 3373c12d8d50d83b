/**
 * Folds messages into a summary, batch by batch within the summarizing model's window
 * (summaryHeadroom), and measures the result against what it replaces: a summary that is not
 * smaller than the previous summary plus the folded messages is rejected, since sending it
 * would cost more than sending what it stands for.
 */
import type { ContextMessage } from '@shared/context'
import {
  fallbackSummary,
  prepareSummaryRequest,
  summarizeWithFallback,
  type Summarizer,
  type SummaryRequest
} from '../../context/summary/summarizer'
import { toProviderMessage } from '../../context/summary/summaryUpdate'
import type { TokenCounter } from '../../context/tokens/tokenCounter'
import { batchRoom, batchesWithin } from './summaryHeadroom'

/** The longest summary asked for, as a share of the tokens it replaces. */
const TARGET_SHARE_OF_REPLACED = 0.6

export interface FoldInput {
  previousSummary: string | null
  messages: readonly ContextMessage[]
  focusTopic?: string | null
  maxTokens: number
  /** The summarizing model's window; null: no limit (the extractive summary). */
  contextWindow: number | null
  /**
   * `background`: auth and network failures give up (try later); `now` (the user asked): any
   * model failure falls back to the extractive summary, and says so.
   */
  mode: 'background' | 'now'
  signal: AbortSignal
}

export type FoldOutcome =
  | {
      status: 'folded'
      text: string
      source: 'model' | 'fallback'
      modelError: string | null
      summaryTokens: number
      replacedTokens: number
    }
  | { status: 'failed'; error: string }
  | { status: 'not_smaller'; summaryTokens: number; replacedTokens: number }

export async function foldSummary(
  summarizer: Summarizer,
  tokens: TokenCounter,
  input: FoldInput
): Promise<FoldOutcome> {
  const previousTokens = input.previousSummary ? tokens.count(input.previousSummary) : 0
  const replacedTokens = previousTokens + input.messages.reduce((sum, m) => sum + m.tokenCount, 0)
  // Never ask for more than a share of what is replaced: a summary must come out smaller.
  const maxTokens = Math.max(
    1,
    Math.min(input.maxTokens, Math.floor(replacedTokens * TARGET_SHARE_OF_REPLACED))
  )
  const replyTokens = Math.ceil(maxTokens * 1.25)
  let summary = input.previousSummary
  let source: 'model' | 'fallback' = summarizer.source
  let modelError: string | null = null
  const room =
    input.contextWindow === null
      ? Number.POSITIVE_INFINITY
      : batchRoom(input.contextWindow, replyTokens, maxTokens)
  for (const batch of batchesWithin(input.messages, room)) {
    const request = prepareSummaryRequest({
      previousSummary: summary,
      newMessages: batch.map(toProviderMessage),
      focusTopic: input.focusTopic ?? null,
      maxTokens
    })
    const outcome =
      input.mode === 'now'
        ? await summarizeNow(summarizer, request, input.signal)
        : await summarizeWithFallback(summarizer, request, input.signal)
    if (outcome.status === 'retry_later') return { status: 'failed', error: outcome.error }
    summary = outcome.text
    if (outcome.source === 'fallback') source = 'fallback'
    if (outcome.error) modelError = outcome.error
  }
  const text = summary ?? ''
  const summaryTokens = tokens.count(text)
  if (!text.trim() || summaryTokens >= replacedTokens) {
    return { status: 'not_smaller', summaryTokens, replacedTokens }
  }
  return { status: 'folded', text, source, modelError, summaryTokens, replacedTokens }
}

/** A summary now: the model's, or the extractive one on any failure or an empty reply. */
async function summarizeNow(
  summarizer: Summarizer,
  request: SummaryRequest,
  signal: AbortSignal
): Promise<{ status: 'updated'; text: string; source: 'model' | 'fallback'; error?: string }> {
  let error: string
  try {
    const text = (await summarizer.summarize(request, signal)).trim()
    if (text) return { status: 'updated', text, source: summarizer.source }
    error = 'The model returned an empty summary.'
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause)
  }
  return { status: 'updated', text: fallbackSummary(request), source: 'fallback', error }
}
