/**
 * Long computations in the core are generators that yield between bounded units of work, so
 * the same code runs to completion synchronously (`runSteps`) or, in the app, in slices that
 * give the event loop back between them (services/slicedWork.ts). The core stays free of
 * timers and threads.
 */
export type Steps<T> = Generator<void, T, undefined>

/** Runs every step at once and returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}
