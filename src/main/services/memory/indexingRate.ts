/**
 * The indexer's throughput for the memory status: items per second over the last few batches,
 * counting only the time a batch was running, so a quiet spell (nothing queued) does not read
 * as a slow machine; a pause for a turn inside a batch does count, as the user waits for it.
 */

/** Batches averaged over: a few seconds of work, steady enough to compute the time left. */
const WINDOW = 12

export class IndexingRate {
  private readonly batches: { items: number; ms: number }[] = []

  record(items: number, ms: number): void {
    if (items <= 0 || ms <= 0) return
    this.batches.push({ items, ms })
    if (this.batches.length > WINDOW) this.batches.shift()
  }

  /** Items per second, or null before the first batch. */
  perSecond(): number | null {
    const items = this.batches.reduce((sum, b) => sum + b.items, 0)
    const ms = this.batches.reduce((sum, b) => sum + b.ms, 0)
    return ms > 0 ? (items * 1000) / ms : null
  }

  /** Seconds until `pending` items are embedded at that rate; null if unknown or none pending. */
  secondsLeft(pending: number): number | null {
    const rate = this.perSecond()
    return rate && pending > 0 ? Math.ceil(pending / rate) : null
  }

  /** A new model indexes at its own speed. */
  reset(): void {
    this.batches.length = 0
  }
}
