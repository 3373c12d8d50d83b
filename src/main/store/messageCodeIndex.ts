/**
 * Binary codes of message vectors (one sign bit per dimension, sqlite-vec's
 * vec_quantize_binary), held in memory for the first stage of message search: a Hamming scan
 * over 100,000 512-bit codes is a few milliseconds of popcounts, where sqlite-vec's exact
 * brute force takes about 100 ms and its KNN over bit columns grows with k. The candidates are
 * then re-scored exactly against their float vectors (VectorStore.nearestMessages).
 *
 * Deletions happen in SQL (triggers), not here: a deleted message can still come back as a
 * candidate, is simply not found when re-scoring, and makes the caller reload the index.
 */
export class MessageCodeIndex {
  private ids: Float64Array
  private threads: Int32Array
  private codes: Uint32Array
  private size = 0
  private readonly threadOrdinals = new Map<string, number>()

  /** `bytes` per code: dimension / 8. */
  constructor(private readonly bytes: number) {
    this.ids = new Float64Array(1024)
    this.threads = new Int32Array(1024)
    this.codes = new Uint32Array(1024 * this.words)
  }

  private get words(): number {
    return Math.ceil(this.bytes / 4)
  }

  get length(): number {
    return this.size
  }

  add(id: number, threadId: string, code: Uint8Array): void {
    if (code.byteLength !== this.bytes) {
      throw new Error(`A ${code.byteLength}-byte code does not fit a ${this.bytes}-byte index.`)
    }
    if (this.size === this.ids.length) this.grow()
    let ordinal = this.threadOrdinals.get(threadId)
    if (ordinal === undefined) {
      ordinal = this.threadOrdinals.size
      this.threadOrdinals.set(threadId, ordinal)
    }
    this.ids[this.size] = id
    this.threads[this.size] = ordinal
    const padded = new Uint8Array(this.words * 4)
    padded.set(code)
    this.codes.set(new Uint32Array(padded.buffer), this.size * this.words)
    this.size++
  }

  /**
   * The ids of the `limit` codes nearest to `query` in Hamming distance (ties at the cut-off
   * broken by insertion order), optionally within one thread and without `exclude`.
   */
  candidates(
    query: Uint8Array,
    limit: number,
    options: { threadId?: string; exclude?: ReadonlySet<number> } = {}
  ): number[] {
    const words = this.words
    const padded = new Uint8Array(words * 4)
    padded.set(query)
    const q = new Uint32Array(padded.buffer)
    const thread =
      options.threadId === undefined ? -1 : (this.threadOrdinals.get(options.threadId) ?? -2)
    if (thread === -2) return []

    const maxDistance = this.bytes * 8
    const distances = new Uint16Array(this.size)
    const histogram = new Uint32Array(maxDistance + 2)
    for (let i = 0; i < this.size; i++) {
      if (
        (thread >= 0 && this.threads[i] !== thread) ||
        options.exclude?.has(this.ids[i] as number)
      ) {
        distances[i] = maxDistance + 1 // never selected
        continue
      }
      let distance = 0
      const base = i * words
      for (let w = 0; w < words; w++)
        distance += popcount((this.codes[base + w] as number) ^ (q[w] as number))
      distances[i] = distance
      histogram[distance]!++
    }

    // The smallest cut-off that admits `limit` codes, without sorting all of them.
    let cutoff = 0
    let admitted = 0
    while (cutoff <= maxDistance && admitted + (histogram[cutoff] as number) < limit) {
      admitted += histogram[cutoff] as number
      cutoff++
    }
    let atCutoff = limit - admitted
    const result: number[] = []
    for (let i = 0; i < this.size && result.length < limit; i++) {
      const distance = distances[i] as number
      if (distance < cutoff) result.push(this.ids[i] as number)
      else if (distance === cutoff && distance <= maxDistance && atCutoff > 0) {
        result.push(this.ids[i] as number)
        atCutoff--
      }
    }
    return result
  }

  private grow(): void {
    const capacity = this.ids.length * 2
    const ids = new Float64Array(capacity)
    ids.set(this.ids)
    const threads = new Int32Array(capacity)
    threads.set(this.threads)
    const codes = new Uint32Array(capacity * this.words)
    codes.set(this.codes)
    this.ids = ids
    this.threads = threads
    this.codes = codes
  }
}

/** Set bits in a 32-bit word (SWAR). */
function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}
