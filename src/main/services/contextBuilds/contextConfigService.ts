/**
 * What the context builds keep in settings: the configuration's layers (the global default in
 * the settings table, a thread's override in its settings JSON, the chat model's limits and id),
 * each model's token correction that provider usage calibrates, and a thread's active-task
 * state. The builds (ContextBuildService) read their configuration here.
 */
import type { ActiveTaskState, BuiltContext } from '@shared/context'
import {
  mergeConfigPatches,
  resolveContextConfig,
  type ContextConfig,
  type ContextConfigPatch,
  type ContextConfigView
} from '@shared/contextConfig'
import { AppError } from '@shared/result'
import type { ThreadSettings } from '@shared/threadSettings'
import type { SettingsRepository } from '../../store/settingsRepository'
import type { ThreadRepository } from '../../store/threadRepository'
import type { ChatModelLimits } from '../providers/modelResolver'

/** The key of the default context configuration in the settings table (a thread's is `context`). */
const CONFIG_KEY = 'context'

const MIN_CORRECTION = 0.5
const MAX_CORRECTION = 2

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

/** Provider prompt tokens / our count is smoothed with this weight for the newest reply. */
const CALIBRATION_WEIGHT = 0.5

export interface ContextConfigServiceDeps {
  threads: ThreadRepository
  settings: SettingsRepository
  /**
   * The chat model of a thread, when a provider is configured: its id (the tokenizer and the
   * correction factor) over the user's settings, its window and max output under them.
   */
  chatModel?: (threadId: string) => ChatModelLimits | null
}

export class ContextConfigService {
  constructor(private readonly deps: ContextConfigServiceDeps) {}

  /** The global layer, the thread's (when asked for) and what they resolve to. */
  get(threadId?: string): ContextConfigView {
    const global = this.globalPatch()
    const thread = threadId === undefined ? null : this.threadPatch(threadId)
    return { global, thread, effective: this.resolve(global, thread ?? {}) }
  }

  /**
   * Validates the merged result, because a thread raising one share can break the sum. A new
   * default is checked against every thread's overrides, so saving it cannot break a thread.
   */
  update(
    scope: 'global' | 'thread',
    change: ContextConfigPatch,
    threadId?: string
  ): ContextConfigView {
    if (scope === 'global') {
      const global = mergeConfigPatches(this.globalPatch(), change)
      this.resolve(global)
      for (const thread of this.deps.threads.listWithSetting(CONFIG_KEY)) {
        const result = resolveContextConfig(global, thread.value as ContextConfigPatch)
        if (!result.ok) {
          const name = thread.title || thread.id
          throw new AppError(
            'invalid_input',
            `This default would break the thread "${name}", which overrides it: ${result.issues.join('; ')}`
          )
        }
      }
      this.deps.settings.set(CONFIG_KEY, global)
    } else {
      if (threadId === undefined) {
        throw new AppError('invalid_input', 'A thread setting needs the thread.')
      }
      const thread = mergeConfigPatches(this.threadPatch(threadId), change)
      this.resolve(this.globalPatch(), thread)
      this.deps.threads.updateSettings(threadId, { context: thread })
    }
    return this.get(threadId)
  }

  /** Provider limits under the user's layers, the provider's model id over them, then `top`. */
  forThread(threadId: string, top: ContextConfigPatch): ContextConfig {
    const chat = this.deps.chatModel?.(threadId) ?? null
    const base: ContextConfigPatch = chat
      ? { contextWindow: chat.contextWindow, outputReserve: chat.outputReserve }
      : {}
    const model: ContextConfigPatch = chat ? { model: chat.model } : {}
    return this.resolve(base, this.globalPatch(), this.threadPatch(threadId), model, top)
  }

  /**
   * Moves the build's model's token correction factor toward provider tokens / our uncorrected
   * count (smoothed, clamped to 0.5-2, stored in the global config). Returns the new factor,
   * or null when either count is not positive. `config`: the one the build was made under.
   */
  calibrate(
    build: BuiltContext,
    usage: { promptTokens: number },
    config: ContextConfig
  ): number | null {
    const model = build.metadata.model
    const current = config.tokenCorrections[model] ?? 1
    const ours = build.tokenStats.total / current
    if (!(ours > 0) || !(usage.promptTokens > 0)) return null
    const observed = usage.promptTokens / ours
    const next = clamp(
      current * (1 - CALIBRATION_WEIGHT) + observed * CALIBRATION_WEIGHT,
      MIN_CORRECTION,
      MAX_CORRECTION
    )
    const rounded = Math.round(next * 10_000) / 10_000
    const global = mergeConfigPatches(this.globalPatch(), {
      tokenCorrections: { [model]: rounded }
    })
    this.deps.settings.set(CONFIG_KEY, global)
    return rounded
  }

  taskState(threadId: string): ActiveTaskState | undefined {
    return this.threadSettings(threadId).taskState
  }

  saveTaskState(threadId: string, state: ActiveTaskState): void {
    this.deps.threads.updateSettings(threadId, { taskState: state })
  }

  private resolve(...patches: ContextConfigPatch[]): ContextConfig {
    const result = resolveContextConfig(...patches)
    if (!result.ok) throw new AppError('invalid_input', result.issues.join('; '))
    return result.config
  }

  private globalPatch(): ContextConfigPatch {
    return (this.deps.settings.get(CONFIG_KEY) as ContextConfigPatch | undefined) ?? {}
  }

  private threadPatch(threadId: string): ContextConfigPatch {
    return this.threadSettings(threadId).context ?? {}
  }

  private threadSettings(threadId: string): ThreadSettings {
    const thread = this.deps.threads.get(threadId)
    if (!thread) throw new AppError('not_found', 'This conversation no longer exists.')
    return thread.settings
  }
}
