import type { EventName, EventPayload } from '@shared/contract'

/** How services tell the renderer something changed; Electron and the test harness implement it. */
export type Publish = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/**
 * Runs `fn` at most once per `ms`, always once more after the last call (trailing edge): for
 * status events pushed while work runs (memory:status during indexing).
 */
export function throttle(fn: () => void, ms: number): () => void {
  let last = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  return () => {
    const wait = last + ms - Date.now()
    if (wait <= 0) {
      last = Date.now()
      fn()
      return
    }
    if (timer) return
    timer = setTimeout(() => {
      timer = null
      last = Date.now()
      fn()
    }, wait)
    timer.unref?.()
  }
}
