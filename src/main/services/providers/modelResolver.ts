import type { ModelRef } from '@shared/providers'
import type { ResolvedModel } from './catalog'
import type { ProviderService } from './providerService'
import type { ProviderRecord } from './types'
import type { ThreadService } from '../threads/threadService'

/** A thread's model, resolved against the configured providers. */
export interface ChatTarget {
  ref: ModelRef
  provider: ProviderRecord
  model: ResolvedModel
}

/** What a build takes from the thread's model: its id, window and reply reserve. */
export interface ChatModelLimits {
  model: string
  contextWindow: number
  outputReserve: number
}

export interface ModelResolverDeps {
  threads: ThreadService
  providers: ProviderService
  /** The global default model (settings), used when the thread has none of its own. */
  defaultModel: () => ModelRef | null
}

/**
 * Which model answers a thread: read by the turn (TurnService) and by the build, whose window
 * and reply reserve are the model's (ContextConfigService), so neither asks the other.
 */
export class ModelResolver {
  constructor(private readonly deps: ModelResolverDeps) {}

  /** The thread's own model, else the default; null when none names an existing provider. */
  targetFor(threadId: string): ChatTarget | null {
    for (const ref of [this.deps.threads.modelOf(threadId), this.deps.defaultModel()]) {
      if (!ref) continue
      const found = this.deps.providers.describeModel(ref.providerId, ref.modelId)
      if (found) return { ref, ...found }
    }
    return null
  }

  /** The limits a build takes from the thread's model; null without one. */
  limitsFor(threadId: string): ChatModelLimits | null {
    const target = this.targetFor(threadId)
    if (!target) return null
    return {
      model: target.ref.modelId,
      contextWindow: target.model.contextWindow,
      outputReserve: target.model.maxOutput
    }
  }
}
