import { expect } from 'vitest'

// One auto-waiting assertion for every e2e file, so each only says how long it may wait.

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

/** Auto-waiting assertion: retries until it holds, never sleeps a fixed time. */
export const eventually: Eventually = pollWithin(15_000)
