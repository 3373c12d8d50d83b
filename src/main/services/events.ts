import type { EventName, EventPayload } from '@shared/contract'

/** How services tell the renderer something changed; Electron and the test harness implement it. */
export type Publish = <E extends EventName>(event: E, payload: EventPayload<E>) => void

type Listener = (payload: unknown) => void

/**
 * Events for the renderer, which in-process work can listen to as well: the composition root
 * subscribes such work where it can be read (the indexer follows stored messages), instead of
 * inside a wrapped `publish`. The renderer hears an event first, then the listeners, in the
 * order they subscribed.
 */
export class ServiceEvents {
  private readonly listeners = new Map<EventName, Listener[]>()

  constructor(private readonly emit: Publish) {}

  readonly publish: Publish = (event, payload) => {
    this.emit(event, payload)
    for (const listener of this.listeners.get(event) ?? []) listener(payload)
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as Listener])
  }
}

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
