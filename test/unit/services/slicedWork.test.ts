import { describe, expect, it } from 'vitest'
import type { Steps } from '../../../src/main/context/steps'
import { runSliced } from '../../../src/main/services/slicedWork'

/** Steps run by every `busy` job so far. */
let stepsRun = 0

/** A job of `steps` steps of `stepMs` of busy work each, returning `value`. */
function* busy<T>(steps: number, stepMs: number, value: T): Steps<T> {
  for (let i = 0; i < steps; i++) {
    const until = performance.now() + stepMs
    while (performance.now() < until) {
      // The CPU work a slice of counting does.
    }
    stepsRun++
    yield
  }
  return value
}

/**
 * The most steps that ran between two ticks of a 1 ms timer while `work` ran: how much work
 * one turn of the event loop took on. Counted in steps, not milliseconds, so that a machine
 * that is busy elsewhere (a CI runner) does not decide it.
 */
async function mostStepsPerTurn(work: () => Promise<unknown>): Promise<number> {
  let before = stepsRun
  let most = 0
  const timer = setInterval(() => {
    most = Math.max(most, stepsRun - before)
    before = stepsRun
  }, 1)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(most, stepsRun - before)
}

describe('sliced work', () => {
  it('gives the loop back between slices when several jobs run at once', async () => {
    // Three jobs of 60 ms each: a paste's estimate, its count from the ends and a build. Each
    // used to take its own 8 ms per turn: twelve 2 ms steps, 24 ms, before the loop turned.
    const steps = await mostStepsPerTurn(() =>
      Promise.all(
        [busy(30, 2, 'a'), busy(30, 2, 'b'), busy(30, 2, 'c')].map((job) => runSliced(job))
      )
    )
    // 8 ms of 2 ms steps is four. The turn the jobs start in holds two shares: the first job
    // runs at once, and the queue's share follows in the same turn's check phase. The old
    // scheduler ran 24 steps before the loop first turned, then 12 a turn.
    expect(steps).toBeLessThanOrEqual(8)
  })

  it('finishes every job, a short one started behind a long one first', async () => {
    const finished: string[] = []
    const long = runSliced(busy(100, 1, 'long')).then((v) => finished.push(v))
    await new Promise((resolve) => setImmediate(resolve))
    const short = runSliced(busy(2, 1, 'short')).then((v) => finished.push(v))
    await Promise.all([long, short])
    expect(finished).toEqual(['short', 'long'])
  })

  it('rejects the job whose step throws, and the others go on', async () => {
    function* failing(): Steps<number> {
      yield
      throw new Error('no such slice')
    }
    const results = await Promise.allSettled([runSliced(failing()), runSliced(busy(3, 1, 7))])
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: 'no such slice' } })
    expect(results[1]).toEqual({ status: 'fulfilled', value: 7 })
  })
})
