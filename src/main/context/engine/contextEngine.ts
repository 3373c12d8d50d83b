/**
 * The engine contract, modelled on Hermes Agent's ContextEngine: one engine is active, chosen
 * by config (`context.engine`), and callers never depend on which. Hermes engines compress a
 * message list when it grows too long; ours also build each request from the store, so
 * `build` is part of the contract. Everything but `name`, `build` and `compress` has a
 * default in BaseContextEngine.
 */
import type { ContextConfig } from '@shared/contextConfig'
import type { BuildRequest, BuiltContext, ProviderMessage } from '@shared/context'

/** Token usage as the provider reported it for one call. */
export interface ProviderUsage {
  promptTokens: number
  completionTokens: number
  totalTokens?: number
}

/** A tool an engine exposes to the model (JSON Schema parameters). */
export interface ToolSchema {
  name: string
  description: string
  parameters: Record<string, unknown>
}

export interface CompressOptions {
  currentTokens?: number
  /** From a manual "compress, focusing on X": engines that can should keep X. */
  focusTopic?: string
}

export interface EngineStatus {
  name: string
  lastPromptTokens: number
  lastCompletionTokens: number
  lastTotalTokens: number
  thresholdTokens: number
  contextLength: number
  usagePercent: number
  compressionCount: number
}

export interface ContextEngine {
  readonly name: string
  readonly lastPromptTokens: number
  readonly lastCompletionTokens: number
  readonly lastTotalTokens: number
  /** Prompt size at which the engine wants to compress. */
  readonly thresholdTokens: number
  /** The model's full context window. */
  readonly contextLength: number
  readonly compressionCount: number

  build(request: BuildRequest, config: ContextConfig): BuiltContext
  /** After every provider call. */
  updateFromResponse(usage: ProviderUsage): void
  shouldCompress(promptTokens?: number): boolean
  /** Returns a valid, possibly shorter, provider message list. */
  compress(messages: readonly ProviderMessage[], options?: CompressOptions): ProviderMessage[]
  onSessionStart(sessionId: string, options?: Record<string, unknown>): void
  /** A real session boundary (thread closed, app quit), never per turn. */
  onSessionEnd(sessionId: string, messages: readonly ProviderMessage[]): void
  /** Clears per-session state ("new conversation"). */
  onSessionReset(): void
  updateModel(model: string, contextLength: number): void
  getToolSchemas(): ToolSchema[]
  /** Handles a call to one of this engine's tools; returns JSON text for the tool result. */
  handleToolCall(name: string, args: Record<string, unknown>): string
  /** A cheap check before the provider call, without real usage yet. */
  shouldCompressPreflight(messages: readonly ProviderMessage[]): boolean
  getStatus(): EngineStatus
}

export abstract class BaseContextEngine implements ContextEngine {
  abstract readonly name: string
  lastPromptTokens = 0
  lastCompletionTokens = 0
  lastTotalTokens = 0
  thresholdTokens = 0
  contextLength = 0
  compressionCount = 0
  /** Hermes' default: compress once the prompt reaches three quarters of the window. */
  protected thresholdPercent = 0.75

  abstract build(request: BuildRequest, config: ContextConfig): BuiltContext
  abstract compress(
    messages: readonly ProviderMessage[],
    options?: CompressOptions
  ): ProviderMessage[]

  updateFromResponse(usage: ProviderUsage): void {
    this.lastPromptTokens = usage.promptTokens
    this.lastCompletionTokens = usage.completionTokens
    this.lastTotalTokens = usage.totalTokens ?? usage.promptTokens + usage.completionTokens
  }

  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return this.thresholdTokens > 0 && promptTokens >= this.thresholdTokens
  }

  // The no-op defaults keep the contract's full signatures, so engines and callers see them.
  onSessionStart(_sessionId: string, _options?: Record<string, unknown>): void {}

  onSessionEnd(_sessionId: string, _messages: readonly ProviderMessage[]): void {}

  onSessionReset(): void {
    this.lastPromptTokens = 0
    this.lastCompletionTokens = 0
    this.lastTotalTokens = 0
    this.compressionCount = 0
  }

  updateModel(_model: string, contextLength: number): void {
    this.contextLength = contextLength
    this.thresholdTokens = Math.floor(contextLength * this.thresholdPercent)
  }

  getToolSchemas(): ToolSchema[] {
    return []
  }

  handleToolCall(name: string, _args: Record<string, unknown>): string {
    return JSON.stringify({ error: `Unknown context engine tool: ${name}` })
  }

  shouldCompressPreflight(_messages: readonly ProviderMessage[]): boolean {
    return false
  }

  getStatus(): EngineStatus {
    return {
      name: this.name,
      lastPromptTokens: this.lastPromptTokens,
      lastCompletionTokens: this.lastCompletionTokens,
      lastTotalTokens: this.lastTotalTokens,
      thresholdTokens: this.thresholdTokens,
      contextLength: this.contextLength,
      usagePercent: this.contextLength
        ? Math.min(100, (this.lastPromptTokens / this.contextLength) * 100)
        : 0,
      compressionCount: this.compressionCount
    }
  }
}
