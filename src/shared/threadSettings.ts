import type { ActiveTaskState } from './context'
import type { ContextConfigPatch } from './contextConfig'
import type { ModelRef } from './providers'

/**
 * What a thread keeps beside its messages (the `threads.settings` JSON), and which service
 * writes each key. Imports and other versions of the app write it too, so a reader still checks
 * the value it reads (`modelOfThread`), and keys this version does not know are kept.
 */
export interface ThreadSettings {
  /** The first message names the thread until the user renames it (ThreadService). */
  autoTitle?: boolean
  /** The thread's own chat model; null or absent: the default applies (ThreadService). */
  model?: ModelRef | null
  /** The thread's layer of the context configuration (ContextConfigService). */
  context?: ContextConfigPatch
  /** The active task the pinning block restates (ContextConfigService, ForkService). */
  taskState?: ActiveTaskState
  /** Tools enabled in this thread, by key (ToolService). */
  tools?: string[]
}

/** The model a thread's settings name, if it is a valid one; threads without one use the default. */
export function modelOfThread(settings: ThreadSettings | undefined): ModelRef | null {
  const model: unknown = settings?.model
  if (typeof model !== 'object' || model === null) return null
  const { providerId, modelId } = model as Record<string, unknown>
  return typeof providerId === 'string' && providerId && typeof modelId === 'string' && modelId
    ? { providerId, modelId }
    : null
}
