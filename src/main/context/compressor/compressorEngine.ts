/**
 * The `compressor` engine (`context.engine = 'compressor'`): Hermes Agent's lossy
 * ContextCompressor on top of our lossless store. Compression changes what is sent, never
 * what is stored: the engine receives message lists and returns new ones.
 *
 * - `build` selects the window the way the builder does, with the total budget capped at the
 *   compression threshold, so a fresh build never starts over the trigger. A build is
 *   synchronous and a model summary is not; and compressing on every send would call the
 *   summarizer every turn. Older history reaches the model through the thread summary.
 * - `compressAsync` is what the service calls when a turn grows past the threshold (tool
 *   loops) and for "/compress <focus>"; `compress`, the synchronous contract method, does the
 *   same with the extractive summary.
 * - Anti-loop: two automatic compressions in a row that leave the prompt at or over the
 *   threshold suspend automatic compression until usage drops under it again.
 */
import type { ContextConfig } from '@shared/contextConfig'
import { DEFAULT_CONTEXT_CONFIG } from '@shared/contextConfig'
import type { BuildRequest, BuiltContext, ProviderMessage } from '@shared/context'
import { buildContext } from '../contextBuilder'
import {
  BaseContextEngine,
  type CompressOptions,
  type EngineStatus,
  type ProviderUsage
} from '../engine/contextEngine'
import { totalBudgetOf } from '../budget'
import { contextWindowOf, describeModel } from '../modelCatalog'
import { FallbackSummarizer, type Summarizer } from '../summary/summarizer'
import { tokenCounterFor, type TokenCounter } from '../tokens/tokenCounter'
import {
  compressTranscript,
  compressWithFallback,
  transcriptTokens,
  type CompressionResult,
  type CompressionSettings
} from './compressTranscript'
import { compressionThreshold, DEFAULT_THRESHOLD_PERCENT, type Threshold } from './threshold'

export interface CompressorEngineOptions {
  /** Writes the summaries; the extractive `FallbackSummarizer` until a model is configured. */
  summarizer?: Summarizer
  /** Share of the window that triggers compression (default 0.5, raised on small windows). */
  thresholdPercent?: number
  /** Tail token budget as a share of the threshold (default 0.2). */
  targetRatio?: number
  /** Messages the tail keeps whatever they cost (default 8). */
  minTailMessages?: number
  /** Non-system messages of the first exchange kept on the first compression (default 3). */
  protectFirstN?: number
  /** Output tokens reserved out of the window; the threshold applies to the rest (default 0). */
  maxOutputTokens?: number
  /** Model for token counting and the default window (default: the config default). */
  model?: string
  contextLength?: number
}

export interface CompressorCompressOptions extends CompressOptions {
  /** The user's "/compress": never counts toward the anti-loop. Implied by `focusTopic`. */
  manual?: boolean
  signal?: AbortSignal
}

/** Automatic compressions in a row that leave the prompt over the threshold before pausing. */
export const ANTI_LOOP_LIMIT = 2

interface SessionState {
  previousSummary: string | null
  compressionCount: number
  ineffectiveCompressions: number
}

export interface CompressionStats {
  tokensBefore: number
  tokensAfter: number
  compressed: boolean
  manual: boolean
  summarizedMessages: number
  prunedToolResults: number
  summarySource: 'model' | 'fallback' | null
  note: string | null
}

export interface CompressorEngineStatus extends EngineStatus {
  thresholdRule: Threshold['rule']
  thresholdPercent: number
  /** True while the anti-loop holds automatic compression back. */
  autoCompressionSuspended: boolean
  ineffectiveCompressions: number
  hasPreviousSummary: boolean
  lastBuildTokens: number
  lastCompression: CompressionStats | null
}

const MAX_SESSIONS = 32
const newSession = (): SessionState => ({
  previousSummary: null,
  compressionCount: 0,
  ineffectiveCompressions: 0
})

export class CompressorEngine extends BaseContextEngine {
  readonly name = 'compressor'
  private summarizer: Summarizer
  private counter: TokenCounter
  private threshold: Threshold
  private readonly settings: Required<
    Pick<
      CompressorEngineOptions,
      'thresholdPercent' | 'targetRatio' | 'minTailMessages' | 'protectFirstN'
    >
  > & { maxOutputTokens: number | undefined }
  private readonly sessions = new Map<string, SessionState>()
  private sessionId = ''
  private lastBuildTokens = 0
  private lastCompression: CompressionStats | null = null

  constructor(options: CompressorEngineOptions = {}) {
    super()
    this.summarizer = options.summarizer ?? new FallbackSummarizer()
    this.settings = {
      thresholdPercent: options.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT,
      targetRatio: options.targetRatio ?? 0.2,
      minTailMessages: options.minTailMessages ?? 8,
      protectFirstN: options.protectFirstN ?? 3,
      maxOutputTokens: options.maxOutputTokens
    }
    this.thresholdPercent = this.settings.thresholdPercent
    const model = options.model ?? DEFAULT_CONTEXT_CONFIG.model
    this.counter = tokenCounterFor(model)
    this.threshold = compressionThreshold(0)
    this.updateModel(model, options.contextLength ?? describeModel(model).contextWindow)
  }

  /** The service swaps in a model summarizer when a provider is configured. */
  setSummarizer(summarizer: Summarizer): void {
    this.summarizer = summarizer
  }

  private get session(): SessionState {
    let state = this.sessions.get(this.sessionId)
    if (!state) {
      state = newSession()
      this.sessions.set(this.sessionId, state)
      if (this.sessions.size > MAX_SESSIONS)
        this.sessions.delete(this.sessions.keys().next().value as string)
    }
    return state
  }

  override updateModel(model: string, contextLength: number): void {
    this.counter = tokenCounterFor(model)
    this.contextLength = contextLength
    this.threshold = compressionThreshold(contextLength, {
      thresholdPercent: this.settings.thresholdPercent,
      maxOutputTokens: this.settings.maxOutputTokens
    })
    this.thresholdTokens = this.threshold.tokens
  }

  build(request: BuildRequest, config: ContextConfig): BuiltContext {
    const window = contextWindowOf(config)
    if (window !== this.contextLength || this.counter !== tokenCounterFor(config.model)) {
      this.updateModel(config.model, window)
    }
    const total = totalBudgetOf(config)
    const capped = this.thresholdTokens > 0 ? Math.min(total, this.thresholdTokens) : total
    const built = buildContext(request, { ...config, totalBudget: Math.max(1, capped) }, this.name)
    this.lastBuildTokens = built.tokenStats.total
    return built
  }

  private compressionSettings(): CompressionSettings {
    return {
      contextLength: this.contextLength,
      thresholdTokens: this.thresholdTokens,
      counter: this.counter,
      targetRatio: this.settings.targetRatio,
      minTailMessages: this.settings.minTailMessages,
      protectFirstN: this.session.compressionCount > 0 ? 0 : this.settings.protectFirstN
    }
  }

  /** The contract's synchronous compression, with the extractive summary. */
  compress(
    messages: readonly ProviderMessage[],
    options: CompressorCompressOptions = {}
  ): ProviderMessage[] {
    return this.compressWithFallback(messages, options).messages
  }

  compressWithFallback(
    messages: readonly ProviderMessage[],
    options: CompressorCompressOptions = {}
  ): CompressionResult {
    const result = compressWithFallback(messages, this.compressionSettings(), {
      focusTopic: options.focusTopic,
      previousSummary: this.session.previousSummary
    })
    return this.record(result, options)
  }

  /** Compression with the configured summarizer: the model's summary, or the extractive one. */
  async compressAsync(
    messages: readonly ProviderMessage[],
    options: CompressorCompressOptions = {}
  ): Promise<CompressionResult> {
    const session = this.session
    const result = await compressTranscript(messages, this.compressionSettings(), this.summarizer, {
      focusTopic: options.focusTopic,
      previousSummary: session.previousSummary,
      signal: options.signal
    })
    return this.record(result, options, session)
  }

  private record(
    result: CompressionResult,
    options: CompressorCompressOptions,
    session: SessionState = this.session
  ): CompressionResult {
    const manual = options.manual === true || Boolean(options.focusTopic?.trim())
    if (result.compressed) {
      session.compressionCount++
      if (result.summary) session.previousSummary = result.summary
    }
    if (!manual) {
      // Tokens outside the messages (tool schemas) stay; judge by what the prompt will be.
      const overhead = Math.max(0, (options.currentTokens ?? 0) - result.tokensBefore)
      const projected = result.tokensAfter + overhead
      session.ineffectiveCompressions =
        projected >= this.thresholdTokens ? session.ineffectiveCompressions + 1 : 0
    }
    if (session === this.session) this.compressionCount = session.compressionCount
    this.lastCompression = {
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      compressed: result.compressed,
      manual,
      summarizedMessages: result.summarizedMessages,
      prunedToolResults: result.prunedToolResults,
      summarySource: result.summarySource,
      note: result.note
    }
    return result
  }

  override updateFromResponse(usage: ProviderUsage): void {
    super.updateFromResponse(usage)
    if (usage.promptTokens < this.thresholdTokens) this.session.ineffectiveCompressions = 0
  }

  /** Over the threshold and not held back by the anti-loop; usage under it re-arms. */
  override shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    if (this.thresholdTokens <= 0) return false
    if (promptTokens < this.thresholdTokens) {
      this.session.ineffectiveCompressions = 0
      return false
    }
    return this.session.ineffectiveCompressions < ANTI_LOOP_LIMIT
  }

  /** Prompt tokens of a message list as this engine counts them (framing included). */
  promptTokens(messages: readonly ProviderMessage[]): number {
    return transcriptTokens(messages, this.counter)
  }

  /** Counts the messages as they would be sent; no provider usage needed. */
  override shouldCompressPreflight(messages: readonly ProviderMessage[]): boolean {
    return this.shouldCompress(this.promptTokens(messages))
  }

  override onSessionStart(sessionId: string): void {
    const known = this.sessions.get(sessionId)
    if (known) {
      // Most recently used last, so the oldest thread's state is the one dropped.
      this.sessions.delete(sessionId)
      this.sessions.set(sessionId, known)
    }
    this.sessionId = sessionId
    this.compressionCount = this.session.compressionCount
  }

  override onSessionEnd(sessionId: string): void {
    this.sessions.delete(sessionId)
    if (sessionId === this.sessionId) this.compressionCount = 0
  }

  override onSessionReset(): void {
    super.onSessionReset()
    this.sessions.set(this.sessionId, newSession())
    this.lastCompression = null
  }

  override getStatus(): CompressorEngineStatus {
    const session = this.session
    return {
      ...super.getStatus(),
      thresholdRule: this.threshold.rule,
      thresholdPercent: this.threshold.percent,
      autoCompressionSuspended: session.ineffectiveCompressions >= ANTI_LOOP_LIMIT,
      ineffectiveCompressions: session.ineffectiveCompressions,
      hasPreviousSummary: session.previousSummary !== null,
      lastBuildTokens: this.lastBuildTokens,
      lastCompression: this.lastCompression
    }
  }
}
