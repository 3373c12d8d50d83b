import { dotAt } from './dotProduct'
import { admittedFor, codeWords, nearestCodes, signCode, writeSignCode } from './hammingScan'
/**
 * Every memory vector of a space, in memory, for nearest-neighbour search. Memories number in
 * the hundreds or thousands (10,000 in the whole-turn bench: 15 MB), and vec0's KNN over
 * 10,000 of them took 7-12 ms per query, most of it outside the distance loop (issue #16).
 *
 * The cosine is exact for every memory a search admits. Up to a few hundred (most stores) it
 * admits all; past that a Hamming scan of their sign codes admits as many as message search
 * does for the same k (hammingScan.ts), since a full scan of 10,000 float vectors costs about
 * 5 ms per query vector and a build searches with two (issue #21).
 *
 * Vectors are unit length (the embedding worker normalises them), so the dot product is the
 * cosine that vec0's `distance_metric=cosine` reported as 1 − distance. Deletions happen in SQL
 * (triggers): VectorStore checks the ids it returns against `memories` and drops the gone ones.
 */
export class MemoryVectorIndex {
  private ids: number[] = []
  private vectors: Float32Array
  private codes: Uint32Array
  /** Each memory's category, as an ordinal of `categoryOrdinals`. */
  private categories: Int32Array
  private readonly categoryOrdinals = new Map<string, number>()
  private readonly positions = new Map<number, number>()
  private readonly words: number

  constructor(private readonly dimension: number) {
    this.words = codeWords(dimension)
    this.vectors = new Float32Array(256 * dimension)
    this.codes = new Uint32Array(256 * this.words)
    this.categories = new Int32Array(256)
  }

  get length(): number {
    return this.ids.length
  }

  /** Adds the memory, or replaces its vector and category. */
  put(id: number, vector: Float32Array, category: string): void {
    if (vector.length !== this.dimension) {
      throw new Error(`A ${vector.length}-d vector does not fit a ${this.dimension}-d index.`)
    }
    let at = this.positions.get(id)
    if (at === undefined) {
      at = this.ids.length
      if (at === this.categories.length) this.grow()
      this.ids.push(id)
      this.positions.set(id, at)
    }
    this.categories[at] = this.ordinal(category)
    this.vectors.set(vector, at * this.dimension)
    writeSignCode(vector, this.codes, at * this.words)
  }

  setCategory(id: number, category: string): void {
    const at = this.positions.get(id)
    if (at !== undefined) this.categories[at] = this.ordinal(category)
  }

  /** Removes memories (the last one moves into each freed place). */
  remove(ids: Iterable<number>): void {
    for (const id of ids) {
      const at = this.positions.get(id)
      if (at === undefined) continue
      const last = this.ids.length - 1
      const lastId = this.ids[last] as number
      if (at !== last) {
        this.ids[at] = lastId
        this.categories[at] = this.categories[last] as number
        const { dimension, words } = this
        this.vectors.copyWithin(at * dimension, last * dimension, (last + 1) * dimension)
        this.codes.copyWithin(at * words, last * words, (last + 1) * words)
        this.positions.set(lastId, at)
      }
      this.ids.pop()
      this.positions.delete(id)
    }
  }

  /**
   * For each query, its k nearest memories (cosine distance, as vec0 reports it), nearest first,
   * optionally of some categories.
   */
  nearest(
    queries: readonly { vector: Float32Array; k: number }[],
    categories?: readonly string[]
  ): { id: number; distance: number }[][] {
    const among = this.positionsOf(categories)
    const limits = queries.map(({ k }) => admittedFor(k))
    const admitted = limits.every((limit) => limit >= among.length)
      ? queries.map(() => among)
      : nearestCodes(
          { codes: this.codes, words: this.words },
          among,
          queries.map(({ vector }, q) => ({ code: signCode(vector), limit: limits[q] as number }))
        )
    return queries.map(({ vector, k }, q) => this.ranked(vector, k, admitted[q] as number[]))
  }

  /** The positions of memories of these categories (all of them without any). */
  private positionsOf(categories: readonly string[] | undefined): number[] {
    const wanted = new Set<number>()
    for (const category of categories ?? []) {
      const ordinal = this.categoryOrdinals.get(category)
      if (ordinal !== undefined) wanted.add(ordinal)
    }
    const positions: number[] = []
    const all = !categories || categories.length === 0
    for (let at = 0; at < this.ids.length; at++) {
      if (all || wanted.has(this.categories[at] as number)) positions.push(at)
    }
    return positions
  }

  /** The k of `positions` nearest to `query` by exact cosine, nearest first. */
  private ranked(
    query: Float32Array,
    k: number,
    positions: readonly number[]
  ): { id: number; distance: number }[] {
    const { dimension, vectors } = this
    const hits = positions.map((at) => ({
      id: this.ids[at] as number,
      distance: 1 - dotAt(query, vectors, at * dimension, dimension)
    }))
    return hits.sort((a, b) => a.distance - b.distance).slice(0, Math.max(0, k))
  }

  private ordinal(category: string): number {
    let ordinal = this.categoryOrdinals.get(category)
    if (ordinal === undefined) {
      ordinal = this.categoryOrdinals.size
      this.categoryOrdinals.set(category, ordinal)
    }
    return ordinal
  }

  private grow(): void {
    const capacity = this.categories.length * 2
    const vectors = new Float32Array(capacity * this.dimension)
    vectors.set(this.vectors)
    const codes = new Uint32Array(capacity * this.words)
    codes.set(this.codes)
    const categories = new Int32Array(capacity)
    categories.set(this.categories)
    this.vectors = vectors
    this.codes = codes
    this.categories = categories
  }
}
