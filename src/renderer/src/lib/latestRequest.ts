/**
 * Last request wins. Answers from main can arrive in any order (a slow query, a busy main
 * process, a call racing a change event), so every store that asks main for data takes a
 * ticket before each call and applies the answer only if its ticket still allows it. A
 * slower, older answer then never overwrites a newer one.
 */
export interface RequestTicket {
  /** No request was started, and nothing superseded this one, since it began. */
  isLatest(): boolean
  /**
   * No newer answer has been applied yet; if so, marks this one applied. For a live preview
   * that should show progress while newer requests are still on their way, instead of
   * starving while the user keeps typing.
   */
  claim(): boolean
}

export interface LatestRequest {
  /** Numbers a new request; every earlier one stops being the latest. */
  start(): RequestTicket
  /** Something newer than every answer on its way happened (another thread opened, an event
   * brought fresher data): all tickets issued so far are stale. */
  supersede(): void
}

export function latestRequest(): LatestRequest {
  let issued = 0
  let applied = 0
  return {
    start() {
      const seq = ++issued
      return {
        isLatest: () => seq === issued,
        claim() {
          if (seq <= applied) return false
          applied = seq
          return true
        }
      }
    },
    supersede() {
      applied = ++issued
    }
  }
}
