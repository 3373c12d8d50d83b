/**
 * Runs the core's stepwise computations (context/steps.ts) on the main thread in slices of a
 * few milliseconds, giving the event loop back between them: counting a 2 M-character paste
 * takes seconds of CPU, and IPC, streaming and the window must keep moving meanwhile.
 *
 * The slices of every job share one budget per turn of the event loop. Each job used to take
 * its own 8 ms and yield with `setImmediate`, but immediates queued together run together: a
 * paste's preview runs its estimate, its count from the ends and a build at once, and their
 * slices held the loop for 20-45 ms in a row (issue #22). A job started while no other waits
 * runs at once, as before, for what is left of the turn's budget. Any other waits in one queue,
 * served for SLICE_MS per turn: a new job first (a send's short count does not wait behind a
 * paste's long one), the one the budget cut off last. The turn a job starts in can hold two
 * shares: the queue's comes in that turn's check phase, right after the job's own.
 */
import type { Steps } from '../context/steps'

/** The longest the main thread works on sliced jobs per turn; one step costs a few ms at most. */
const SLICE_MS = 8

interface Job {
  steps: Steps<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const queue: Job[] = []
let scheduled = false
/** Until when the current turn's sliced work may run. */
let budgetEnds = 0

export function runSliced<T>(steps: Steps<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const job: Job = { steps, resolve: resolve as (value: unknown) => void, reject }
    const now = performance.now()
    if (queue.length === 0) {
      // What is left of this turn's budget, or a new one.
      if (now >= budgetEnds) budgetEnds = now + SLICE_MS
      if (ran(job)) return
    }
    queue.unshift(job)
    if (!scheduled) {
      scheduled = true
      setImmediate(serve)
    }
  })
}

/** Steps `job` until it is done (true) or the turn's budget is spent. */
function ran(job: Job): boolean {
  try {
    for (;;) {
      const next = job.steps.next()
      if (next.done) {
        job.resolve(next.value)
        return true
      }
      if (performance.now() >= budgetEnds) return false
    }
  } catch (error) {
    job.reject(error)
    return true
  }
}

/** One turn's share: jobs in order until the budget is spent; the one it cuts off goes last. */
function serve(): void {
  budgetEnds = performance.now() + SLICE_MS
  while (queue.length > 0) {
    const job = queue.shift() as Job
    if (!ran(job)) {
      queue.push(job)
      break
    }
    if (performance.now() >= budgetEnds) break
  }
  scheduled = queue.length > 0
  if (scheduled) setImmediate(serve)
}
