/**
 * The input's count, once per text. Exact BPE of a 2 M-character draft takes seconds (a few
 * hundred thousand Chinese characters a second), far behind the keyboard. So a long draft is
 * counted once, in the background, and each keystroke after that counts only the tail after
 * the last slice boundary of the previous count (typing happens at the end). Until that count
 * is there, or after an edit far from the end, the preview uses the estimate and the build says
 * so (`input_estimated`). The send counts exactly, and takes the draft's count when the text
 * is the one counted instead of counting it again. A long text is counted from its ends first
 * (endsFirstCount.ts), the draft's background count too: a send far over the window needs no
 * more than its ends, and gets them from the count already running, whoever started it; the
 * rest is counted after the request has left.
 */
import { EndsFirstCount } from '../../context/tokens/endsFirstCount'
import { estimateCounter, type TokenCounter } from '../../context/tokens/tokenCounter'
import { reusableSlices, type TokenIndex } from '../../context/tokens/tokenIndex'
import { runSliced } from '../slicedWork'

/**
 * Drafts up to this long, or tails after the reusable slices up to this long, are counted
 * exactly on every preview: at worst (Chinese) about 50 ms of work, spread over slices.
 */
const PREVIEW_EXACT_CHARS = 50_000
/** Threads whose last counted input keeps its index (each holds a reference to its text). */
const REMEMBERED_DRAFTS = 4

export class DraftCounts {
  private readonly indexes = new Map<string, TokenIndex>()
  /** Per thread, the long text being counted, until every slice of it is. */
  private readonly partial = new Map<string, EndsFirstCount>()
  /** Per thread, the draft's count running in the background to its end. */
  private readonly background = new Map<string, Promise<TokenIndex>>()

  /** The draft's index: exact BPE, or the estimate's while the exact count is not there. */
  async index(threadId: string, draft: string, counter: TokenCounter): Promise<TokenIndex> {
    if (draft.length <= PREVIEW_EXACT_CHARS || !counter.exact) {
      return runSliced(counter.indexSteps(draft, null))
    }
    const from = this.growing(threadId, draft, counter)
    if (from) return this.remember(threadId, await runSliced(counter.indexSteps(draft, from)))
    this.countInBackground(threadId, draft, counter)
    return runSliced(estimateCounter.indexSteps(draft, null))
  }

  /** The exact index of `text` if one is at hand: the draft's finished count of this text. */
  counted(threadId: string, text: string, counter: TokenCounter): TokenIndex | null {
    const from = this.indexes.get(threadId)
    return from?.text === text && from.encoding === counter.encoding ? from : null
  }

  /**
   * The exact index of a text about to be sent: the draft's when it is this text, its count from
   * the draft's when the draft only grew a little at its end, else counted now, joining a count
   * of this text already running. With `endsNeeded`, a long text's index may stop once each end
   * holds that many tokens (a text far over the model's window; `TokenIndex.middle`).
   */
  async exact(
    threadId: string,
    text: string,
    counter: TokenCounter,
    endsNeeded = Infinity
  ): Promise<TokenIndex> {
    if (!counter.exact) return runSliced(counter.indexSteps(text, null))
    const counted = this.counted(threadId, text, counter)
    if (counted) return counted
    const from = this.growing(threadId, text, counter)
    if (from || text.length <= PREVIEW_EXACT_CHARS) {
      return this.remember(threadId, await runSliced(counter.indexSteps(text, from)))
    }
    const count = this.countOf(threadId, text, counter)
    const index = await runSliced(count.untilSteps(endsNeeded))
    return count.complete ? this.finished(threadId, count, index) : index
  }

  /** The draft's last index, when `text` still begins with it and adds little at its end. */
  private growing(threadId: string, text: string, counter: TokenCounter): TokenIndex | null {
    const from = this.indexes.get(threadId)
    const keep = from === undefined ? 0 : reusableSlices(text, from, counter.encoding)
    if (keep === 0) return null
    const reused = (from as TokenIndex).ends[keep - 1] as number
    return text.length - reused <= PREVIEW_EXACT_CHARS ? (from as TokenIndex) : null
  }

  /** The thread's running count of `text`, or a new one in its place. */
  private countOf(threadId: string, text: string, counter: TokenCounter): EndsFirstCount {
    const running = this.partial.get(threadId)
    if (running?.text === text && running.encoding === counter.encoding) return running
    const count = new EndsFirstCount(text, counter)
    this.partial.delete(threadId)
    this.partial.set(threadId, count)
    // A count nobody finishes (a quit, a send that failed) is dropped with the oldest.
    if (this.partial.size > REMEMBERED_DRAFTS) {
      this.partial.delete(this.partial.keys().next().value as string)
    }
    return count
  }

  private finished(threadId: string, count: EndsFirstCount, index: TokenIndex): TokenIndex {
    if (this.partial.get(threadId) === count) this.partial.delete(threadId)
    return this.remember(threadId, index)
  }

  /** Counts `draft` exactly for the next keystrokes; one count per thread at a time. */
  private countInBackground(threadId: string, draft: string, counter: TokenCounter): void {
    if (this.background.has(threadId)) return
    const count = this.countOf(threadId, draft, counter)
    const done = runSliced(count.untilSteps(Infinity))
    this.background.set(threadId, done)
    done
      .then((index) => this.finished(threadId, count, index))
      // Counting cannot fail on text; should it anyway, previews simply keep the estimate.
      .catch(() => undefined)
      .finally(() => this.background.delete(threadId))
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
    while (this.background.size > 0) await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
