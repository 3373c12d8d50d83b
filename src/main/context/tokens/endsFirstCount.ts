/**
 * A long text counted from both ends toward the middle. A paste far over the model's window is
 * sent as its beginning and end (windowSafetyNet.ts), so the request needs exact counts only
 * there: counting 2 M characters whole took 3-9 s of BPE, the ends a 128k-token window needs
 * 0.1-1.1 s however long the paste (`npm run bench -- --only stall`). Once both ends hold enough,
 * the index stands for the uncounted middle with one slice whose tokens are extrapolated from
 * the ends (tokens per character); the same count goes on to the middle later, after the
 * request has left, and then gives the exact index.
 *
 * Each slice (textSlices.ts) is counted on its own, so the order they are counted in does not
 * change the total.
 */
import type { Steps } from '../steps'
import { textSlices, type TextSlice } from './textSlices'
import type { TokenCounter } from './tokenCounter'
import type { TokenIndex } from './tokenIndex'

/** Slices cut between two pauses: about 2-3 ms of character classes. */
const SLICES_PER_STEP = 256

export class EndsFirstCount {
  private slices: TextSlice[] | null = null
  /** Each counted slice's tokens, by slice. */
  private readonly counts: number[] = []
  /** Slices [0, head) and [tail, slices.length) are counted. */
  private head = 0
  private tail = 0
  private headTokens = 0
  private tailTokens = 0

  constructor(
    readonly text: string,
    private readonly counter: TokenCounter
  ) {}

  get encoding(): TokenCounter['encoding'] {
    return this.counter.encoding
  }

  get complete(): boolean {
    return this.slices !== null && this.head >= this.tail
  }

  /**
   * Counts until each end holds at least `perSide` tokens, or every slice is counted, and
   * returns the index so far (the exact one once complete). Two runs may overlap: each step
   * counts the next slice the state asks for.
   */
  *untilSteps(perSide: number): Steps<TokenIndex> {
    yield* this.counter.prepareSteps()
    const slices = yield* this.sliceSteps()
    while (this.head < this.tail) {
      const headShort = this.headTokens < perSide
      const tailShort = this.tailTokens < perSide
      if (!headShort && !tailShort) break
      if (headShort && (!tailShort || this.headTokens <= this.tailTokens)) {
        this.headTokens += this.countSlice(slices, this.head)
        this.head++
      } else {
        this.tail--
        this.tailTokens += this.countSlice(slices, this.tail)
      }
      yield
    }
    return this.index(slices)
  }

  private *sliceSteps(): Steps<TextSlice[]> {
    if (this.slices) return this.slices
    const slices: TextSlice[] = []
    for (const slice of textSlices(this.text)) {
      slices.push(slice)
      if (slices.length % SLICES_PER_STEP === 0) yield
    }
    // Another run may have cut them meanwhile; the first to finish is kept.
    if (!this.slices) {
      this.slices = slices
      this.tail = slices.length
    }
    return this.slices
  }

  private countSlice(slices: TextSlice[], at: number): number {
    const slice = slices[at] as TextSlice
    const tokens = this.counter.countSpan(this.text.slice(slice.start, slice.end))
    this.counts[at] = tokens
    return tokens
  }

  private index(slices: TextSlice[]): TokenIndex {
    const ends: number[] = []
    const totals: number[] = []
    let firstChunked = -1
    let total = 0
    const add = (end: number, tokens: number, approximate: boolean) => {
      total += tokens
      ends.push(end)
      totals.push(total)
      if (approximate && firstChunked === -1) firstChunked = ends.length - 1
    }
    const counted = (at: number) => {
      const slice = slices[at] as TextSlice
      add(slice.end, this.counts[at] as number, slice.approximate)
    }
    for (let at = 0; at < Math.min(this.head, this.tail); at++) counted(at)
    let middle: number | undefined
    if (!this.complete) {
      const from = this.head === 0 ? 0 : (slices[this.head - 1] as TextSlice).end
      const to = (slices[this.tail] as TextSlice).start
      const countedChars = this.text.length - (to - from)
      const perChar = countedChars === 0 ? 0 : (this.headTokens + this.tailTokens) / countedChars
      middle = ends.length
      add(to, Math.round((to - from) * perChar), false)
    }
    for (let at = Math.max(this.head, this.tail); at < slices.length; at++) counted(at)
    const index: TokenIndex = {
      encoding: this.counter.encoding,
      text: this.text,
      ends,
      totals,
      firstChunked
    }
    return middle === undefined ? index : { ...index, middle }
  }
}
