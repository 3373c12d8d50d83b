import { dotAt } from './dotProduct'
import { codeWords, nearestCodes } from './hammingScan'
/**
 * Binary codes of message vectors (one sign bit per dimension, sqlite-vec's
 * vec_quantize_binary), held in memory for the first stage of message search: a Hamming scan
 * over 100,000 384-bit codes is a few milliseconds of popcounts, where sqlite-vec's exact
 * brute force takes about 100 ms and its KNN over bit columns grows with k.
 *
 * The second stage is here too: each message also keeps an 8-bit copy of its vector (one
 * scale per vector, about 0.4 KB a message), so the Hamming candidates are ranked by an
 * approximate cosine without reading them from SQLite. Reading 4,000 float vectors to re-score
 * them took 15 ms of a 100,000-message search (issue #16); only the few best then get their
 * exact cosine from the table (VectorStore.nearestMessages).
 *
 * Deletions happen in SQL (triggers), not here: a deleted message can still come back as a
 * candidate, is simply not found when re-scoring, and makes the caller reload the index.
 */
export class MessageCodeIndex {
  private ids: Float64Array
  private codes: Uint32Array
  /** 8-bit vectors, `dimension` per message, and the scale that turns each back into floats. */
  private vectors: Int8Array
  private scales: Float32Array
  private size = 0
  private readonly threadOrdinals = new Map<string, number>()
  /** Each thread's positions, in insertion order, by its ordinal: what a scoped search scans. */
  private readonly threadPositions: number[][] = []

  /** `bytes` per code: dimension / 8. */
  constructor(private readonly bytes: number) {
    this.ids = new Float64Array(1024)
    this.codes = new Uint32Array(1024 * this.words)
    this.vectors = new Int8Array(1024 * this.dimension)
    this.scales = new Float32Array(1024)
  }

  private get dimension(): number {
    return this.bytes * 8
  }

  private get words(): number {
    return codeWords(this.dimension)
  }

  get length(): number {
    return this.size
  }

  add(id: number, threadId: string, code: Uint8Array, vector: Float32Array): void {
    if (code.byteLength !== this.bytes) {
      throw new Error(`A ${code.byteLength}-byte code does not fit a ${this.bytes}-byte index.`)
    }
    if (vector.length !== this.dimension) {
      throw new Error(`A ${vector.length}-d vector does not fit a ${this.dimension}-d index.`)
    }
    if (this.size === this.ids.length) this.grow()
    let ordinal = this.threadOrdinals.get(threadId)
    if (ordinal === undefined) {
      ordinal = this.threadOrdinals.size
      this.threadOrdinals.set(threadId, ordinal)
      this.threadPositions.push([])
    }
    this.ids[this.size] = id
    this.threadPositions[ordinal]!.push(this.size)
    const padded = new Uint8Array(this.words * 4)
    padded.set(code)
    this.codes.set(new Uint32Array(padded.buffer), this.size * this.words)
    this.scales[this.size] = quantize(vector, this.vectors, this.size * this.dimension)
    this.size++
  }

  /**
   * The ids of the `limit` codes nearest to `query` in Hamming distance (ties at the cut-off
   * broken by insertion order), optionally within one thread.
   */
  candidates(query: Uint32Array, limit: number, threadId?: string): number[] {
    const [positions = []] = this.positions([{ code: query, limit }], threadId)
    return positions.map((at) => this.ids[at] as number)
  }

  /**
   * For each query, the ids of the `keep` best of its `limit` Hamming candidates by their 8-bit
   * vectors' dot product with its float vector, best first: an approximate cosine, for an exact
   * re-score of far fewer rows than the Hamming stage had to admit. One scan for all queries.
   */
  nearest(queries: readonly CodeQuery[], threadId?: string): number[][] {
    for (const { vector } of queries) {
      if (vector.length !== this.dimension) {
        throw new Error(`A ${vector.length}-d query does not fit a ${this.dimension}-d index.`)
      }
    }
    const dimension = this.dimension
    const vectors = this.vectors
    return this.positions(queries, threadId).map((positions, q) => {
      const { vector, keep } = queries[q] as CodeQuery
      // Plain loops over typed arrays: this runs over thousands of candidates per search.
      const scores = new Float64Array(positions.length)
      for (let i = 0; i < positions.length; i++) {
        const at = positions[i] as number
        scores[i] = dotAt(vector, vectors, at * dimension, dimension) * (this.scales[at] as number)
      }
      const order = Array.from(positions.keys())
      order.sort((a, b) => (scores[b] as number) - (scores[a] as number))
      return order.slice(0, keep).map((i) => this.ids[positions[i] as number] as number)
    })
  }

  /** Positions (not ids) of each query's Hamming candidates, in insertion order. */
  private positions(
    queries: readonly { code: Uint32Array; limit: number }[],
    threadId: string | undefined
  ): number[][] {
    const table = { codes: this.codes, words: this.words }
    if (threadId === undefined) return nearestCodes(table, this.size, queries)
    const thread = this.threadOrdinals.get(threadId)
    if (thread === undefined) return queries.map(() => [])
    return nearestCodes(table, this.threadPositions[thread] as number[], queries)
  }

  private grow(): void {
    const capacity = this.ids.length * 2
    const ids = new Float64Array(capacity)
    ids.set(this.ids)
    const codes = new Uint32Array(capacity * this.words)
    codes.set(this.codes)
    const vectors = new Int8Array(capacity * this.dimension)
    vectors.set(this.vectors)
    const scales = new Float32Array(capacity)
    scales.set(this.scales)
    this.ids = ids
    this.codes = codes
    this.vectors = vectors
    this.scales = scales
  }
}

/** One query of a search: its sign code, its float vector, what each stage keeps. */
export interface CodeQuery {
  code: Uint32Array
  vector: Float32Array
  /** Codes the Hamming stage admits. */
  limit: number
  /** Of those, how many the 8-bit stage returns. */
  keep: number
}

/**
 * Writes `vector` as 8-bit integers at `offset` (symmetric, its largest component at ±127)
 * and returns the scale that multiplies them back.
 */
function quantize(vector: Float32Array, into: Int8Array, offset: number): number {
  let largest = 0
  for (const value of vector) largest = Math.max(largest, Math.abs(value))
  if (largest === 0) return 0
  const scale = largest / 127
  for (let d = 0; d < vector.length; d++) {
    into[offset + d] = Math.round((vector[d] as number) / scale)
  }
  return scale
}
