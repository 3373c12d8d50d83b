/**
 * The summarizer port. The service implements it with a model (through the provider layer);
 * `FallbackSummarizer` implements it without one. Callers prepare the request here, so the
 * redaction and the prompt are the same whoever summarizes.
 */
import type { ProviderMessage } from '@shared/context'
import { extractiveSummary } from './extractiveSummary'
import { redactSecrets } from './redactSecrets'
import { detectLanguage, type SummaryLanguage } from './summaryLanguage'
import { buildSummaryPrompt } from './summaryPrompt'

export interface SummaryRequest {
  /** The summary being updated; it appears once in `prompt`. */
  previousSummary: string | null
  /** The turns to add, secrets already redacted. */
  newMessages: readonly ProviderMessage[]
  focusTopic: string | null
  language: SummaryLanguage
  /** Target length in tokens; pass it to the model as max output tokens (with some slack). */
  maxTokens: number
  /** The complete prompt for a model: send it as one user message. */
  prompt: string
}

export interface Summarizer {
  /** "model" for a real model, "fallback" for the extractive summary. */
  readonly source: 'model' | 'fallback'
  /** The summary text (the checkpoint, without any markers). */
  summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string>
}

/**
 * `auth` and `network` are worth retrying later (a new key, the connection back); anything else
 * (a refusal, an empty or malformed reply, a context-length error) is not, and callers fall
 * back to the extractive summary.
 */
export type SummarizerFailure = 'auth' | 'network' | 'other'

export class SummarizerError extends Error {
  constructor(
    message: string,
    readonly failure: SummarizerFailure,
    options?: { cause?: unknown }
  ) {
    super(message, options)
    this.name = 'SummarizerError'
  }
}

export function isRetryableFailure(error: unknown): boolean {
  return error instanceof SummarizerError && error.failure !== 'other'
}

export interface SummaryRequestInput {
  previousSummary?: string | null
  newMessages: readonly ProviderMessage[]
  focusTopic?: string | null
  /** Detected from the messages (and the previous summary) when absent. */
  language?: SummaryLanguage
  maxTokens: number
}

function redactMessage(message: ProviderMessage): ProviderMessage {
  const redacted: ProviderMessage = { role: message.role, content: redactSecrets(message.content) }
  if (message.toolCalls) {
    redacted.toolCalls = message.toolCalls.map((c) => ({
      ...c,
      arguments: redactSecrets(c.arguments)
    }))
  }
  if (message.toolCallId !== undefined) redacted.toolCallId = message.toolCallId
  return redacted
}

export function prepareSummaryRequest(input: SummaryRequestInput): SummaryRequest {
  const newMessages = input.newMessages.map(redactMessage)
  const previousSummary = input.previousSummary?.trim()
    ? redactSecrets(input.previousSummary.trim())
    : null
  const language =
    input.language ??
    detectLanguage(
      newMessages.some((m) => m.role === 'user') || !previousSummary
        ? newMessages
        : [{ role: 'user', content: previousSummary }]
    )
  const focusTopic = input.focusTopic?.trim() ? redactSecrets(input.focusTopic.trim()) : null
  return {
    previousSummary,
    newMessages,
    focusTopic,
    language,
    maxTokens: input.maxTokens,
    prompt: buildSummaryPrompt({
      previousSummary,
      newMessages,
      focusTopic,
      language,
      maxTokens: input.maxTokens
    })
  }
}

/** Characters a summary of `maxTokens` tokens can hold, roughly, in each language. */
function charsFor(maxTokens: number, language: SummaryLanguage): number {
  return Math.floor(maxTokens * (language === 'zh' ? 1.1 : 3.5))
}

/** The extractive summary behind the port: deterministic, no model, never fails. */
export class FallbackSummarizer implements Summarizer {
  readonly source = 'fallback' as const

  summarize(request: SummaryRequest): Promise<string> {
    return Promise.resolve(fallbackSummary(request))
  }
}

export function fallbackSummary(request: SummaryRequest): string {
  return extractiveSummary(request.newMessages, request.language, {
    focusTopic: request.focusTopic,
    previousSummary: request.previousSummary,
    maxChars: Math.min(8_000, charsFor(request.maxTokens, request.language))
  })
}

export type ThreadSummaryOutcome =
  | { status: 'updated'; text: string; source: 'model' | 'fallback'; error?: string }
  /** Auth or network: keep the stored summary as it is and try again later. */
  | { status: 'retry_later'; error: string }

/**
 * One update of a thread's stored summary: the model's summary, or on a failure retrying will
 * not fix, the extractive one; on an auth or network failure, nothing (retry later).
 */
export async function summarizeWithFallback(
  summarizer: Summarizer,
  request: SummaryRequest,
  signal?: AbortSignal
): Promise<ThreadSummaryOutcome> {
  try {
    const text = (await summarizer.summarize(request, signal)).trim()
    if (text) return { status: 'updated', text, source: summarizer.source }
    return {
      status: 'updated',
      text: fallbackSummary(request),
      source: 'fallback',
      error: 'empty summary'
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (isRetryableFailure(error)) return { status: 'retry_later', error: message }
    return { status: 'updated', text: fallbackSummary(request), source: 'fallback', error: message }
  }
}
