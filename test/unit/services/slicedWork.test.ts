import { describe, expect, it } from 'vitest'
import type { Steps } from '../../../src/main/context/steps'
import { runSliced } from '../../../src/main/services/slicedWork'

/** A job of `steps` steps of `stepMs` of busy work each, returning `value`. */
function* busy<T>(steps: number, stepMs: number, value: T): Steps<T> {
  for (let i = 0; i < steps; i++) {
    const until = performance.now() + stepMs
    while (performance.now() < until) {
      // The CPU work a slice of counting does.
    }
    yield
  }
  return value
}

/** The longest the event loop went without running a 1 ms timer while `work` ran. */
async function longestGap(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(longest, performance.now() - last)
}

describe('sliced work', () => {
  it('gives the loop back between slices when several jobs run at once', async () => {
    // Three jobs of 60 ms each: a paste's estimate, its count from the ends and a build. Each
    // used to take its own 8 ms per turn, and together they held the loop for 24 ms and more.
    const gap = await longestGap(() =>
      Promise.all(
        [busy(30, 2, 'a'), busy(30, 2, 'b'), busy(30, 2, 'c')].map((job) => runSliced(job))
      )
    )
    expect(gap).toBeLessThan(20)
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
