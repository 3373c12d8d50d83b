/**
 * "Embed the query with a deadline and score stored vectors against it", once for memory
 * search, file chunks and tool descriptions. Vectors are cached per vector space: after the
 * user switches the memory model, nothing computed in the old space is compared with the new
 * one (tool relevance once did that until a restart, silently).
 */
import { withDeadline } from '@shared/deadline'
import { dotAt } from '../../store/vectors/dotProduct'
import type { ActiveModel } from './memoryIndexer'

/** Query vectors kept: a preview per keystroke asks for the same draft again and again. */
const QUERIES_KEPT = 32

export class QueryRanker {
  /** Newest last: a hit moves its entry to the end, the oldest is dropped first. */
  private readonly queries = new Map<string, Float32Array>()
  /**
   * Embeddings under way: a send that comes while its conversation is still being embedded
   * ahead (memoryService.ts `prepareConversation`) waits for that one instead of a second.
   */
  private readonly pending = new Map<string, Promise<Float32Array>>()

  /** The text's query vector in the model's space, if it was embedded lately. */
  cached(model: ActiveModel, text: string): Float32Array | null {
    const key = spaceKeyed(model, text)
    const vector = this.queries.get(key)
    if (!vector) return null
    this.queries.delete(key)
    this.queries.set(key, vector)
    return vector
  }

  /** The text's query vector in the model's space, from the cache when embedded lately. */
  embed(model: ActiveModel, text: string): Promise<Float32Array> {
    const cached = this.cached(model, text)
    if (cached) return Promise.resolve(cached)
    const key = spaceKeyed(model, text)
    let embedding = this.pending.get(key)
    if (!embedding) {
      embedding = this.embedNow(model, text, key).finally(() => this.pending.delete(key))
      this.pending.set(key, embedding)
    }
    return embedding
  }

  private async embedNow(model: ActiveModel, text: string, key: string): Promise<Float32Array> {
    const [vector] = await model.embedder.embed([text], { priority: 'query', role: 'query' })
    if (!vector) throw new Error('the model returned no vector')
    this.queries.set(key, vector)
    while (this.queries.size > QUERIES_KEPT) {
      this.queries.delete(this.queries.keys().next().value as string)
    }
    return vector
  }

  /** `embed`, or a DeadlineError after `ms` (the embedding goes on and is cached). */
  embedWithin(model: ActiveModel, text: string, ms: number): Promise<Float32Array> {
    return withDeadline(this.embed(model, text), ms)
  }
}

/** A cache key that names the vector space: a new model never answers with an old vector. */
export function spaceKeyed(model: ActiveModel, key: string): string {
  return `${model.space.key}\u0000${key}`
}

/** The dot product of two vectors of one space (cosine: the models' vectors are unit length). */
export function similarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    throw new Error(`vectors of ${a.length} and ${b.length} dimensions are from different spaces`)
  }
  return dotAt(a, b, 0, a.length)
}
