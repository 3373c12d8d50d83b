import { expect } from 'vitest'

// The one way a test waits for something: it asks again until the answer comes, never sleeps a
// fixed time and hopes. Two shapes: `pollUntil` for a value or a condition, `eventually` for an
// assertion (vitest's `expect.poll`, with the timeout filled in). The one fixed wait is
// `expectStillAfter`, for checking that something did NOT happen.

/** Taken before any test can install fake timers, so polling keeps real time under them. */
const realSetTimeout = globalThis.setTimeout

export interface PollOptions {
  /** What is being waited for, as the error names it: "timed out … waiting for <what>". */
  what: string
  timeoutMs?: number
  intervalMs?: number
}

/** What `read` answers while the wait goes on. */
type NotYet = undefined | null | false

/**
 * Calls `read` until it answers something other than `undefined`, `null` or `false`, and
 * returns that answer; after `timeoutMs` (5 s unless said) it throws an error naming `what`.
 * An error thrown by `read` (a failed assertion) ends the wait at once.
 */
export async function pollUntil<T>(
  read: () => T | NotYet | Promise<T | NotYet>,
  { what, timeoutMs = 5_000, intervalMs = 20 }: PollOptions
): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await read()
    if (value !== undefined && value !== null && value !== false) return value
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    }
    await new Promise((resolve) => realSetTimeout(resolve, intervalMs))
  }
}

/**
 * For an absence ("no request goes out", "no worker is started again"): no answer ever comes to
 * show that something did not happen, so this waits `ms` of real time on purpose, a window in
 * which the unwanted thing would show, and runs `check` (an assertion) at once, every
 * `intervalMs` meanwhile and at the end; a failed check ends the wait at once. Anything a test
 * expects to happen is waited for with `pollUntil` or `eventually` instead.
 */
export async function expectStillAfter(
  ms: number,
  check: () => void | Promise<void>,
  intervalMs = 20
): Promise<void> {
  const started = Date.now()
  for (;;) {
    await check()
    const left = ms - (Date.now() - started)
    if (left <= 0) return
    await new Promise((resolve) => realSetTimeout(resolve, Math.min(intervalMs, left)))
  }
}

/** `expect.poll` with the timeout filled in: retries until the assertion holds. */
export type Eventually = <T>(
  read: () => T | Promise<T>,
  timeout?: number
) => ReturnType<typeof expect.poll<T | Promise<T>>>

/** An `eventually` that retries for up to `defaultTimeout` ms unless a call says otherwise. */
export const pollWithin =
  (defaultTimeout: number): Eventually =>
  (read, timeout = defaultTimeout) =>
    expect.poll(read, { timeout, interval: 50 })

/** Auto-waiting assertion for the e2e tests: retries for up to 15 s. */
export const eventually: Eventually = pollWithin(15_000)
