/**
 * When automatic summary updates run. Three rules, each from a failure mode peers hit:
 * - a re-compression watermark above the first threshold (hysteresis, as LobeHub added), so a
 *   thread that just got a summary does not immediately get another;
 * - updates happen at the window's chunk cut (`BuiltContext.window.firstKeptSeq` moved) rather
 *   than on any turn, because the cut already breaks the prompt cache: a summary written then
 *   costs at most one more break per cut instead of one per turn;
 * - after three consecutive failures (a failed call, or a summary not smaller than what it
 *   replaces) automation stops for the thread until the user presses Retry, so a broken model
 *   or a summary that keeps growing cannot loop.
 * State is per thread and in memory: a restart is a fresh start, as a retry would be.
 */
import type { BuiltContext } from '@shared/context'

export const MAX_CONSECUTIVE_FAILURES = 3
/** A summary exists: the next update waits for this multiple of the first threshold. */
export const RECOMPRESS_FACTOR = 1.5

interface ThreadState {
  failures: number
  lastError: string | null
  /** The window's first kept seq at the previous turn; undefined before the first turn seen. */
  firstKeptSeq?: number | null
}

export class SummaryAutomation {
  private readonly threads = new Map<string, ThreadState>()

  private state(threadId: string): ThreadState {
    let state = this.threads.get(threadId)
    if (!state) {
      state = { failures: 0, lastError: null }
      this.threads.set(threadId, state)
    }
    return state
  }

  /** The gap an update waits for: the first threshold, or the higher watermark once one exists. */
  threshold(minTokens: number, hasSummary: boolean): number {
    return hasSummary ? Math.ceil(minTokens * RECOMPRESS_FACTOR) : minTokens
  }

  /**
   * Notes the turn's window and says whether this turn is a cut: always true for the sliding
   * window (it moves every turn anyway) and for the first turn seen.
   */
  observeTurn(threadId: string, build: BuiltContext): boolean {
    const { window } = build
    const state = this.state(threadId)
    const previous = state.firstKeptSeq
    state.firstKeptSeq = window.firstKeptSeq
    if (window.policy !== 'chunked') return true
    return previous === undefined || previous !== state.firstKeptSeq
  }

  paused(threadId: string): boolean {
    return (this.threads.get(threadId)?.failures ?? 0) >= MAX_CONSECUTIVE_FAILURES
  }

  /** Returns true when this failure stopped automation for the thread. */
  failed(threadId: string, error: string): boolean {
    const state = this.state(threadId)
    state.failures += 1
    state.lastError = error
    return state.failures === MAX_CONSECUTIVE_FAILURES
  }

  succeeded(threadId: string): void {
    const state = this.state(threadId)
    state.failures = 0
    state.lastError = null
  }

  /** Retry: automation resumes with a clean count. */
  resume(threadId: string): void {
    this.succeeded(threadId)
  }

  failures(threadId: string): { failures: number; lastError: string | null } {
    const state = this.threads.get(threadId)
    return { failures: state?.failures ?? 0, lastError: state?.lastError ?? null }
  }
}
