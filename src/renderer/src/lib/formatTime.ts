const DAY_MS = 24 * 60 * 60 * 1000

/**
 * A compact timestamp for lists: the time for today, the weekday within a week, the date
 * otherwise. `now` is a parameter so the result is deterministic in tests.
 */
export function formatActivityTime(timestamp: number, locale: string, now = Date.now()): string {
  const date = new Date(timestamp)
  const today = new Date(now)
  if (date.toDateString() === today.toDateString()) {
    return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
  }
  if (now - timestamp < 6 * DAY_MS && timestamp < now) {
    return date.toLocaleDateString(locale, { weekday: 'short' })
  }
  const sameYear = date.getFullYear() === today.getFullYear()
  return date.toLocaleDateString(locale, {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' })
  })
}

/** Date and time in full, for tooltips. */
export function formatFullTime(timestamp: number, locale: string): string {
  return new Date(timestamp).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })
}
