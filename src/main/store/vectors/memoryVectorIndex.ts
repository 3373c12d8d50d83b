import { dotAt } from './dotProduct'
/**
 * Every memory vector of a space, in memory, for exact nearest-neighbour search in one pass.
 * Memories number in the hundreds or thousands (10,000 in the whole-turn bench: 15 MB), and
 * vec0's KNN over 10,000 of them took 7-12 ms per query, most of it outside the distance
 * loop; a plain dot product over a Float32Array takes about a third of that (issue #16).
 *
 * Vectors are unit length (the embedding worker normalises them), so the dot product is the
 * cosine that vec0's `distance_metric=cosine` reported as 1 − distance. Deletions happen in SQL
 * (triggers): VectorStore checks the ids it returns against `memories` and drops the gone ones.
 */
export class MemoryVectorIndex {
  private ids: number[] = []
  private categories: string[] = []
  private vectors: Float32Array
  private readonly positions = new Map<number, number>()

  constructor(private readonly dimension: number) {
    this.vectors = new Float32Array(256 * dimension)
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
      if ((at + 1) * this.dimension > this.vectors.length) {
        const grown = new Float32Array(this.vectors.length * 2)
        grown.set(this.vectors)
        this.vectors = grown
      }
      this.ids.push(id)
      this.categories.push(category)
      this.positions.set(id, at)
    }
    this.categories[at] = category
    this.vectors.set(vector, at * this.dimension)
  }

  setCategory(id: number, category: string): void {
    const at = this.positions.get(id)
    if (at !== undefined) this.categories[at] = category
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
        this.categories[at] = this.categories[last] as string
        this.vectors.copyWithin(
          at * this.dimension,
          last * this.dimension,
          (last + 1) * this.dimension
        )
        this.positions.set(lastId, at)
      }
      this.ids.pop()
      this.categories.pop()
      this.positions.delete(id)
    }
  }

  /** The k memories nearest to `query` (cosine distance, as vec0 reports it), nearest first. */
  nearest(
    query: Float32Array,
    k: number,
    categories?: readonly string[]
  ): { id: number; distance: number }[] {
    const allowed = categories && categories.length > 0 ? new Set(categories) : null
    const dimension = this.dimension
    const vectors = this.vectors
    const distances = new Float64Array(this.ids.length).fill(Number.POSITIVE_INFINITY)
    for (let at = 0; at < this.ids.length; at++) {
      if (allowed && !allowed.has(this.categories[at] as string)) continue
      distances[at] = 1 - dotAt(query, vectors, at * dimension, dimension)
    }
    // The k-th smallest distance from a sorted copy (a typed array sorts numbers natively),
    // then only what lies within it is gathered and ordered.
    if (k <= 0 || distances.length === 0) return []
    const cutoff = Float64Array.from(distances).sort()[Math.min(k, distances.length) - 1] as number
    const hits: { id: number; distance: number }[] = []
    distances.forEach((distance, at) => {
      if (distance <= cutoff && distance !== Number.POSITIVE_INFINITY) {
        hits.push({ id: this.ids[at] as number, distance })
      }
    })
    return hits.sort((a, b) => a.distance - b.distance).slice(0, k)
  }
}
