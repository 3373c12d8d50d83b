/**
 * The input's count for previews of long drafts. Exact BPE of a 2 M-character draft takes
 * seconds (about 1 M Chinese characters a second), far behind the keyboard. So a long draft is
 * counted once, in the background, and each keystroke after that counts only the tail after
 * the last slice boundary of the previous count (typing happens at the end). Until that count
 * is there, or after an edit far from the end, the preview uses the estimate and the build says
 * so (`input_estimated`); the send always counts exactly.
 */
import type { TokenCount } from '@shared/context'
import {
  estimateCounter,
  resumesFrom,
  type CountCheckpoint,
  type TokenCounter
} from '../context/tokenCounter'
import { runSliced } from './slicedWork'

/**
 * Drafts up to this long, or tails after a checkpoint up to this long, are counted exactly on
 * every preview: at worst (Chinese) about 50 ms of work, spread over slices.
 */
export const PREVIEW_EXACT_CHARS = 50_000
/** Threads whose long draft keeps a checkpoint (each holds a reference to its draft). */
const REMEMBERED_DRAFTS = 4

export class DraftCounts {
  private readonly checkpoints = new Map<string, CountCheckpoint>()
  private readonly counting = new Set<string>()

  async count(threadId: string, draft: string, counter: TokenCounter): Promise<TokenCount> {
    if (draft.length <= PREVIEW_EXACT_CHARS || !counter.exact) {
      return runSliced(counter.countSteps(draft))
    }
    const from = this.checkpoints.get(threadId)
    if (
      from !== undefined &&
      draft.length - from.end <= PREVIEW_EXACT_CHARS &&
      resumesFrom(draft, from, counter.encoding)
    ) {
      const resumed = await runSliced(counter.resumeSteps(draft, from))
      if (resumed.checkpoint) this.remember(threadId, resumed.checkpoint)
      return resumed.count
    }
    this.countInBackground(threadId, draft, counter)
    return runSliced(estimateCounter.countSteps(draft))
  }

  /** Counts `draft` exactly for the next keystrokes; one count per thread at a time. */
  private countInBackground(threadId: string, draft: string, counter: TokenCounter): void {
    if (this.counting.has(threadId)) return
    this.counting.add(threadId)
    runSliced(counter.resumeSteps(draft, null))
      .then((resumed) => {
        if (resumed.checkpoint) this.remember(threadId, resumed.checkpoint)
      })
      // Counting cannot fail on text; should it anyway, previews simply keep the estimate.
      .catch(() => undefined)
      .finally(() => this.counting.delete(threadId))
  }

  private remember(threadId: string, checkpoint: CountCheckpoint): void {
    this.checkpoints.delete(threadId)
    this.checkpoints.set(threadId, checkpoint)
    if (this.checkpoints.size > REMEMBERED_DRAFTS) {
      this.checkpoints.delete(this.checkpoints.keys().next().value as string)
    }
  }

  /** Resolves when no background count is running (tests and the bench wait for it). */
  async settled(): Promise<void> {
    while (this.counting.size > 0) await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
