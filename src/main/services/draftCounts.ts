/**
 * The input's count for previews of long drafts. Exact BPE of a 2 M-character draft takes
 * seconds (about 1 M Chinese characters a second), far behind the keyboard. So a long draft is
 * counted once, in the background, and each keystroke after that counts only the tail after
 * the last slice boundary of the previous count (typing happens at the end). Until that count
 * is there, or after an edit far from the end, the preview uses the estimate and the build says
 * so (`input_estimated`); the send always counts exactly.
 */
import { estimateCounter, type TokenCounter } from '../context/tokens/tokenCounter'
import { reusableSlices, type TokenIndex } from '../context/tokens/tokenIndex'
import { runSliced } from './slicedWork'

/**
 * Drafts up to this long, or tails after the reusable slices up to this long, are counted
 * exactly on every preview: at worst (Chinese) about 50 ms of work, spread over slices.
 */
const PREVIEW_EXACT_CHARS = 50_000
/** Threads whose long draft keeps its index (each holds a reference to its draft). */
const REMEMBERED_DRAFTS = 4

export class DraftCounts {
  private readonly indexes = new Map<string, TokenIndex>()
  private readonly counting = new Set<string>()

  /** The draft's index: exact BPE, or the estimate's while the exact count is not there. */
  async index(threadId: string, draft: string, counter: TokenCounter): Promise<TokenIndex> {
    if (draft.length <= PREVIEW_EXACT_CHARS || !counter.exact) {
      return runSliced(counter.indexSteps(draft, null))
    }
    const from = this.indexes.get(threadId)
    const keep = from === undefined ? 0 : reusableSlices(draft, from, counter.encoding)
    if (
      from !== undefined &&
      keep > 0 &&
      draft.length - (from.ends[keep - 1] as number) <= PREVIEW_EXACT_CHARS
    ) {
      return this.remember(threadId, await runSliced(counter.indexSteps(draft, from)))
    }
    this.countInBackground(threadId, draft, counter)
    return runSliced(estimateCounter.indexSteps(draft, null))
  }

  /** Counts `draft` exactly for the next keystrokes; one count per thread at a time. */
  private countInBackground(threadId: string, draft: string, counter: TokenCounter): void {
    if (this.counting.has(threadId)) return
    this.counting.add(threadId)
    runSliced(counter.indexSteps(draft, null))
      .then((index) => this.remember(threadId, index))
      // Counting cannot fail on text; should it anyway, previews simply keep the estimate.
      .catch(() => undefined)
      .finally(() => this.counting.delete(threadId))
  }

  private remember(threadId: string, index: TokenIndex): TokenIndex {
    this.indexes.delete(threadId)
    this.indexes.set(threadId, index)
    if (this.indexes.size > REMEMBERED_DRAFTS) {
      this.indexes.delete(this.indexes.keys().next().value as string)
    }
    return index
  }

  /** Resolves when no background count is running (tests and the bench wait for it). */
  async settled(): Promise<void> {
    while (this.counting.size > 0) await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
