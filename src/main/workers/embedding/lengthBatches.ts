/**
 * Groups background texts into forward passes of similar length. A batch is padded to its
 * longest text, so mixing a 20-character line with a 2,000-character message runs the line at
 * the message's cost; sorting by length first and capping each pass at one token budget keeps
 * padding small and a pass short (a waiting turn never meets a long one).
 */

export interface LengthBatchLimits {
  /** Texts per pass at most. */
  maxTexts: number
  /**
   * Padded characters per pass at most (texts × the longest), about one window of the model:
   * a text this long or longer goes alone.
   */
  maxPaddedChars: number
  /** Characters a text counts for at most (the worker cuts longer texts to the window). */
  capChars: number
}

/** Indexes into `lengths`, batched: each batch's texts of similar length, shortest first. */
export function lengthBatches(lengths: readonly number[], limits: LengthBatchLimits): number[][] {
  const order = lengths
    .map((length, index) => ({ index, cost: Math.max(1, Math.min(length, limits.capChars)) }))
    .sort((a, b) => a.cost - b.cost || a.index - b.index)
  const batches: number[][] = []
  let current: number[] = []
  for (const { index, cost } of order) {
    // Sorted ascending, so this text is the longest of the batch it joins.
    const fits =
      current.length < limits.maxTexts && (current.length + 1) * cost <= limits.maxPaddedChars
    if (!fits && current.length > 0) {
      batches.push(current)
      current = []
    }
    current.push(index)
  }
  if (current.length > 0) batches.push(current)
  return batches
}
