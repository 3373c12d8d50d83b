/**
 * The input's count, once per text. Exact BPE of a 2 M-character draft takes seconds (a few
 * hundred thousand Chinese characters a second), far behind the keyboard. So a long draft is
 * counted once, in the background, and each keystroke after that counts only the tail after
 * the last slice boundary of the previous count (typing happens at the end). Until that count
 * is there, or after an edit far from the end, the preview uses the estimate and the build says
 * so (`input_estimated`). The send counts exactly, and takes the draft's count when the text
 * is the one counted (or joins its count still running) instead of counting it again. A long
 * text nobody previewed is counted from its ends first (endsFirstCount.ts): a send far over
 * the window needs no more, and the rest is counted after the request has left.
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

interface Counting {
  text: string
  encoding: TokenCounter['encoding']
  done: Promise<TokenIndex>
}

export class DraftCounts {
  private readonly indexes = new Map<string, TokenIndex>()
  private readonly counting = new Map<string, Counting>()
  /** Per thread, the long text a send counted from its ends, until its middle is counted. */
  private readonly fromEnds = new Map<string, EndsFirstCount>()

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

  /** The exact index of `text` if one is at hand: the draft's finished count of this text. */
  counted(threadId: string, text: string, counter: TokenCounter): TokenIndex | null {
    const from = this.indexes.get(threadId)
    return from?.text === text && from.encoding === counter.encoding ? from : null
  }

  /**
   * The exact index of a text about to be sent: the draft's when it is this text, the running
   * count's when that is counting it, else counted now from whatever the draft's count shares.
   * With `endsNeeded`, a long text is counted from its ends, and the index may stop there once
   * each end holds that many tokens (a text far over the model's window; `TokenIndex.middle`).
   */
  async exact(
    threadId: string,
    text: string,
    counter: TokenCounter,
    endsNeeded = Infinity
  ): Promise<TokenIndex> {
    if (!counter.exact) return runSliced(counter.indexSteps(text, null))
    const running = this.counting.get(threadId)
    if (running?.text === text && running.encoding === counter.encoding) return running.done
    const counted = this.counted(threadId, text, counter)
    if (counted) return counted
    const from = this.indexes.get(threadId)
    if (from !== undefined && reusableSlices(text, from, counter.encoding) > 0) {
      return this.remember(threadId, await runSliced(counter.indexSteps(text, from)))
    }
    if (text.length <= PREVIEW_EXACT_CHARS) {
      return this.remember(threadId, await runSliced(counter.indexSteps(text, null)))
    }
    let count = this.fromEnds.get(threadId)
    if (count?.text !== text || count.encoding !== counter.encoding) {
      count = new EndsFirstCount(text, counter)
      this.fromEnds.delete(threadId)
      this.fromEnds.set(threadId, count)
      // A send's count is finished after its request (TurnService); one a quit cut short is not.
      if (this.fromEnds.size > REMEMBERED_DRAFTS) {
        this.fromEnds.delete(this.fromEnds.keys().next().value as string)
      }
    }
    const index = await runSliced(count.untilSteps(endsNeeded))
    if (!count.complete) return index
    if (this.fromEnds.get(threadId) === count) this.fromEnds.delete(threadId)
    return this.remember(threadId, index)
  }

  /** Counts `draft` exactly for the next keystrokes; one count per thread at a time. */
  private countInBackground(threadId: string, draft: string, counter: TokenCounter): void {
    if (this.counting.has(threadId)) return
    const done = runSliced(counter.indexSteps(draft, null))
    this.counting.set(threadId, { text: draft, encoding: counter.encoding, done })
    done
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
