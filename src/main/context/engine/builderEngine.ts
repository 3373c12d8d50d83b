import type { ContextConfig } from '@shared/contextConfig'
import { buildContext } from '../contextBuilder'
import type { BuildRequest, BuiltContext, ProviderMessage } from '@shared/context'
import { BaseContextEngine, type EngineStatus, type ProviderUsage } from './contextEngine'

export interface BuilderEngineStatus extends EngineStatus {
  /** Prompt tokens the last build counted, to compare with what the provider reports. */
  lastBuildTokens: number
  /** Provider-reported prompt tokens divided by our count: the next correction factor. */
  countRatio: number | null
}

/**
 * The default engine: every request is selected afresh from the lossless store under the
 * budget, so a request never outgrows the window and there is nothing to compress later.
 */
export class BuilderEngine extends BaseContextEngine {
  readonly name = 'builder'
  private lastBuildTokens = 0
  private countRatio: number | null = null

  build(request: BuildRequest, config: ContextConfig): BuiltContext {
    const built = buildContext(request, config, this.name)
    this.contextLength = built.tokenStats.contextWindow
    this.thresholdTokens = built.tokenStats.budget
    this.lastBuildTokens = built.tokenStats.total
    return built
  }

  override updateFromResponse(usage: ProviderUsage): void {
    super.updateFromResponse(usage)
    this.countRatio = this.lastBuildTokens > 0 ? usage.promptTokens / this.lastBuildTokens : null
  }

  /** Builds already fit the budget; compressing afterwards would only lose information. */
  override shouldCompress(_promptTokens?: number): boolean {
    return false
  }

  compress(messages: readonly ProviderMessage[]): ProviderMessage[] {
    return [...messages]
  }

  override getStatus(): BuilderEngineStatus {
    return {
      ...super.getStatus(),
      lastBuildTokens: this.lastBuildTokens,
      countRatio: this.countRatio
    }
  }
}
