/**
 * One streamed chat completion through the AI SDK: the builder's messages in, typed events
 * out (text deltas, usage, finish), every failure a ProviderError. The SDK parses the wire
 * formats; this file only chooses the client, maps the prompt, watches for stalls and names
 * failures. Retries are the caller's decision (maxRetries: 0), so the UI can say "retry in N s".
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import {
  jsonSchema,
  streamText,
  tool,
  type JSONSchema7,
  type LanguageModel,
  type LanguageModelUsage,
  type ToolSet
} from 'ai'
import { createOllama } from 'ollama-ai-provider-v2'
import { resolveModel } from './catalog'
import { toProviderError } from './errors'
import { toModelPrompt } from './messageMapping'
import { ollamaFetch } from './ollamaStream'
import {
  ProviderError,
  type CacheableMessage,
  type ChatFinishReason,
  type ChatStreamEvent,
  type ChatUsage,
  type ProviderRecord
} from './types'

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434'

export interface StreamTimeouts {
  /** From sending the request to the first streamed part: model loading, prompt processing. */
  firstChunkMs: number
  /** Longest silence between two parts once the reply streams. */
  idleMs: number
}

const DEFAULT_TIMEOUTS: StreamTimeouts = { firstChunkMs: 180_000, idleMs: 60_000 }

/** Places Anthropic cache breakpoints (the caching layout); applied only for Anthropic. */
type CacheMarkerPlacement = (messages: readonly CacheableMessage[]) => CacheableMessage[]

export interface StreamChatRequest {
  provider: ProviderRecord
  modelId: string
  /** The decrypted key for this call only; absent for keyless local servers. */
  apiKey?: string
  /** In order, as the ContextBuilder produced them; `cacheControl` marks are honoured for Anthropic. */
  messages: readonly CacheableMessage[]
  /** Defaults to the model's maxOutput for Anthropic and Ollama (they need one), else the server's. */
  maxOutputTokens?: number
  signal?: AbortSignal
  anthropicCache?: CacheMarkerPlacement
  timeouts?: Partial<StreamTimeouts>
  /** Tools the model may call, as the builder chose them; calls come back as events. */
  tools?: readonly ToolSchema[]
  /** 'none': the tools stay declared (the history has calls) but the model must answer. */
  toolChoice?: 'none'
  /** Called as the HTTP request is handed to fetch (its body serialised). */
  onRequest?: () => void
  /** Called once the response's headers have arrived, or the request failed. */
  onResponse?: () => void
  /** The HTTP client, fetch unless given (the warm-up's answers without the network). */
  transport?: typeof globalThis.fetch
}

interface ToolSchema {
  name: string
  description: string
  parameters: Record<string, unknown>
}

/** Tools without `execute`: the SDK ends the step at a call and the tool loop decides. */
function toToolSet(tools: readonly ToolSchema[] | undefined): ToolSet | undefined {
  if (!tools || tools.length === 0) return undefined
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema(t.parameters as JSONSchema7)
      })
    ])
  )
}

/** Ollama's root URL from whatever the user typed ("…:11434", "…:11434/api", "…/v1"). */
export function ollamaRoot(baseUrl: string | undefined): string {
  return (baseUrl ?? DEFAULT_OLLAMA_URL).replace(/\/+$/, '').replace(/\/(api|v1)$/, '')
}

/** The SDK model object for one call. Clients are cheap; nothing is cached between calls. */
function createLanguageModel(
  provider: ProviderRecord,
  modelId: string,
  apiKey: string | undefined,
  observe: FetchObserver = {}
): LanguageModel {
  const fetch = observedFetch(observe)
  switch (provider.kind) {
    case 'openai':
      // Chat Completions, which every model in the catalog supports and OpenAI-compatible
      // servers mirror; the provider's default would be the Responses API.
      return createOpenAI({ apiKey: apiKey ?? '', baseURL: provider.baseUrl, fetch }).chat(modelId)
    case 'openai-compatible':
      if (!provider.baseUrl) {
        throw new ProviderError({
          kind: 'invalid_request',
          message: 'This provider has no base URL.'
        })
      }
      return createOpenAICompatible({
        name: 'openaiCompatible',
        baseURL: provider.baseUrl,
        ...(apiKey && { apiKey }),
        // Without it, servers send no usage in streams (stream_options.include_usage).
        includeUsage: true,
        fetch
      }).chatModel(modelId)
    case 'anthropic':
      return createAnthropic({ apiKey: apiKey ?? '', baseURL: provider.baseUrl, fetch })(modelId)
    case 'ollama':
      return createOllama({
        baseURL: `${ollamaRoot(provider.baseUrl)}/api`,
        fetch: ollamaFetch(fetch)
      })(modelId)
  }
}

type FetchObserver = Pick<StreamChatRequest, 'onRequest' | 'onResponse' | 'transport'>

/**
 * fetch (or `transport`), telling `onRequest` once a request is handed to it (its body
 * serialised) and `onResponse` once its headers are back (or it failed).
 */
function observedFetch({
  onRequest,
  onResponse,
  transport
}: FetchObserver): typeof globalThis.fetch {
  return (input, init) => {
    const response = (transport ?? globalThis.fetch)(input, init)
    onRequest?.()
    if (onResponse) response.then(onResponse, onResponse)
    return response
  }
}

/** Arms one timer at a time; the stream re-arms it after every part it receives. */
class Watchdog {
  private timer: ReturnType<typeof setTimeout> | null = null
  /** Set when it fired: what the stream was waiting for, and for how long. */
  fired: { waitingFor: string; ms: number } | null = null

  constructor(private readonly onFire: () => void) {}

  arm(ms: number, waitingFor: string): void {
    this.stop()
    this.timer = setTimeout(() => {
      this.fired = { waitingFor, ms }
      this.onFire()
    }, ms)
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}

function toChatUsage(usage: LanguageModelUsage): ChatUsage | null {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return null
  const raw = (usage.raw ?? {}) as Record<string, unknown>
  // DeepSeek reports hits as prompt_cache_hit_tokens, which the compatible client ignores.
  const deepseekHits =
    typeof raw.prompt_cache_hit_tokens === 'number' ? raw.prompt_cache_hit_tokens : 0
  return {
    promptTokens: usage.inputTokens ?? 0,
    completionTokens: usage.outputTokens ?? 0,
    cacheReadTokens: usage.inputTokenDetails.cacheReadTokens || deepseekHits,
    cacheWriteTokens: usage.inputTokenDetails.cacheWriteTokens ?? 0
  }
}

function providerOptionsFor(request: StreamChatRequest, numCtx: number, numPredict: number) {
  // The Ollama client sends maxOutputTokens as a field /api/chat ignores; num_predict is the
  // real limit, and num_ctx makes Ollama's window the one the builder planned for (its own
  // default is a few thousand tokens, silently truncating longer prompts).
  if (request.provider.kind !== 'ollama') return undefined
  return { ollama: { options: { num_ctx: numCtx, num_predict: numPredict } } }
}

/**
 * Streams one reply. Yields text deltas in order, then usage (when the provider reported any)
 * and finish; throws a ProviderError for anything else, 'aborted' included. Breaking out of
 * the loop cancels the HTTP request.
 */
export async function* streamChat(
  request: StreamChatRequest
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const { provider, modelId, apiKey, signal } = request
  const context = {
    apiKey,
    baseUrl: provider.baseUrl ?? (provider.kind === 'ollama' ? DEFAULT_OLLAMA_URL : undefined)
  }
  const timeouts = { ...DEFAULT_TIMEOUTS, ...request.timeouts }
  const model = resolveModel(provider, modelId)

  // One controller the SDK sees. The caller's signal and the watchdog both abort it, so this
  // code knows which of the two stopped the stream. (The SDK's own `timeout` option is not
  // used: in our tests on Node 20, neither firstChunkMs nor totalMs ended a response whose
  // headers had arrived but whose body stayed silent.)
  const controller = new AbortController()
  const watchdog = new Watchdog(() => controller.abort(new DOMException('stalled', 'TimeoutError')))
  const forwardAbort = () => controller.abort(signal?.reason)
  if (signal?.aborted)
    throw new ProviderError({ kind: 'aborted', message: 'The request was stopped.' })
  signal?.addEventListener('abort', forwardAbort, { once: true })

  const stopped = (): ProviderError | null =>
    watchdog.fired
      ? new ProviderError({
          kind: 'timeout',
          message: `No ${watchdog.fired.waitingFor} from ${model.id} within ${formatSeconds(watchdog.fired.ms)}; the request was given up.`
        })
      : signal?.aborted
        ? new ProviderError({ kind: 'aborted', message: 'The request was stopped.' })
        : null

  let done = false
  try {
    const marked =
      provider.kind === 'anthropic' && request.anthropicCache
        ? request.anthropicCache(request.messages)
        : request.messages
    const prompt = toModelPrompt(provider.kind, marked)
    const needsLimit = provider.kind === 'anthropic' || provider.kind === 'ollama'
    const maxOutputTokens = request.maxOutputTokens ?? (needsLimit ? model.maxOutput : undefined)
    const result = streamText({
      model: createLanguageModel(provider, modelId, apiKey, {
        ...(request.onRequest && { onRequest: request.onRequest }),
        ...(request.onResponse && { onResponse: request.onResponse }),
        ...(request.transport && { transport: request.transport })
      }),
      instructions: prompt.instructions,
      messages: prompt.messages,
      // The builder's later system blocks are trusted app text, never user input.
      allowSystemInMessages: true,
      maxOutputTokens,
      tools: toToolSet(request.tools),
      ...(request.toolChoice && request.tools?.length ? { toolChoice: request.toolChoice } : {}),
      providerOptions: providerOptionsFor(
        request,
        model.contextWindow,
        maxOutputTokens ?? model.maxOutput
      ),
      maxRetries: 0,
      abortSignal: controller.signal,
      // Failures arrive as stream parts and are classified below; the SDK's default logs them.
      onError: () => {}
    })

    // The first-token limit holds until real output (text or a tool call) arrives. Parts
    // before it (the SDK's own 'start', OpenAI's role-only first chunk, Anthropic's
    // message_start, reasoning) only show the server is alive: a reasoning model may think
    // for minutes before its first word.
    let waitingFor = 'reply'
    watchdog.arm(timeouts.firstChunkMs, waitingFor)
    let finishReason: ChatFinishReason = 'other'
    let usage: ChatUsage | null = null
    for await (const part of result.stream) {
      watchdog.stop()
      if (isRealOutput(part)) waitingFor = 'further output'
      switch (part.type) {
        case 'text-delta':
          if (part.text.length > 0) yield { type: 'text', delta: part.text }
          break
        case 'tool-call':
          yield {
            type: 'tool-call',
            call: {
              id: part.toolCallId,
              name: part.toolName,
              arguments: JSON.stringify(part.input ?? {})
            }
          }
          break
        case 'error':
          throw stopped() ?? toProviderError(part.error, context)
        case 'abort':
          throw (
            stopped() ?? new ProviderError({ kind: 'aborted', message: 'The request was stopped.' })
          )
        case 'finish': {
          if (
            part.finishReason === 'interrupted' ||
            (provider.kind === 'ollama' && isIncompleteOllama(part))
          ) {
            throw new ProviderError({
              kind: 'bad_response',
              message: 'The reply stream ended before the model finished.'
            })
          }
          if (part.finishReason === 'error') {
            throw new ProviderError({
              kind: 'bad_response',
              message: 'The provider ended the reply with an error and no explanation.'
            })
          }
          finishReason = part.finishReason
          usage = toChatUsage(part.totalUsage)
          break
        }
      }
      watchdog.arm(waitingFor === 'reply' ? timeouts.firstChunkMs : timeouts.idleMs, waitingFor)
    }
    watchdog.stop()
    if (usage) yield { type: 'usage', usage }
    yield { type: 'finish', reason: finishReason }
    done = true
  } catch (error) {
    throw stopped() ?? toProviderError(error, context)
  } finally {
    watchdog.stop()
    signal?.removeEventListener('abort', forwardAbort)
    // Early exit by the caller (break, return) or a failure: hang up the HTTP request.
    if (!done) controller.abort()
  }
}

function isRealOutput(part: { type: string; text?: string }): boolean {
  switch (part.type) {
    case 'text-delta':
      return (part.text ?? '').length > 0
    case 'tool-input-start':
    case 'tool-call':
      return true
    default:
      return false
  }
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`
}

/** Ollama ends every complete reply with a `done` chunk carrying counts; a stream without it was cut. */
function isIncompleteOllama(part: {
  finishReason: string
  totalUsage: LanguageModelUsage
}): boolean {
  return part.finishReason === 'other' && part.totalUsage.inputTokens === undefined
}
