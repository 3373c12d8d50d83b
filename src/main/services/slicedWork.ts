/**
 * Runs the core's stepwise computations (context/steps.ts) on the main thread in slices of a
 * few milliseconds, giving the event loop back between them: counting a 2 M-character paste
 * takes seconds of CPU, and IPC, streaming and the window must keep moving meanwhile.
 */
import { yieldToEventLoop } from '@shared/eventLoop'
import type { Steps } from '../context/steps'

/** The longest the main thread works before it yields; one step costs a few ms at most. */
const SLICE_MS = 8

export async function runSliced<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let deadline = performance.now() + sliceMs
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
    if (performance.now() >= deadline) {
      await yieldToEventLoop()
      deadline = performance.now() + sliceMs
    }
  }
}
