/** What a promise given to `withDeadline` rejects with when its time is up. */
export class DeadlineError extends Error {}

/**
 * Settles as `promise` does, or rejects with a `DeadlineError` after `ms` (at least 0). The
 * work itself goes on; only the wait ends. The timer is cleared as soon as either settles.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError()), Math.max(0, ms))
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}
