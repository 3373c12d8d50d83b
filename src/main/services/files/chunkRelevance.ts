/**
 * Embeds a file's chunks once per file hash and vector space (passage side, in the background),
 * and scores them per build against the input and the recent turns (query side). A file whose
 * vectors are not ready yet is scored null, so the builder falls back to word overlap and the
 * build still goes out at once.
 */
import type { FileRepository, StoredChunk } from '../../store/fileRepository'
import { EmbeddingCancelledError } from '../../workers/embedding/embedder'
import type { ActiveModel } from '../memory/memoryIndexer'
import { similarity, type QueryRanker } from '../memory/queryRanker'

/** How long a build waits for the query's vector; the memory search waits as long. */
const QUERY_TIMEOUT_MS = 500
/** Chunks per embedding call: small, so a chat's query is never stuck behind a whole file. */
const BATCH = 16
/** Files whose chunk vectors stay in memory. */
const VECTORS_KEPT = 4

export interface ChunkRelevanceDeps {
  files: FileRepository
  /** The memory model, once its vector space is active; null without one. */
  model: () => ActiveModel | null
  /** Embeds the query with a deadline, cached per vector space (shared with memory search). */
  ranker: QueryRanker
  log: (message: string, error: unknown) => void
  /** A file's vectors were stored (the renderer's chips say "ranked by meaning"). */
  embedded: (hash: string) => void
}

export type Scores = { relevance: (number | null)[]; embedded: boolean }

export class ChunkRelevance {
  private readonly running = new Map<string, Promise<void>>()
  private readonly vectorCache = new Map<string, Float32Array>()

  constructor(private readonly deps: ChunkRelevanceDeps) {}

  /** Whether `hash` has vectors in the active space for this chunking. */
  isEmbedded(hash: string, chunker: string): boolean {
    const model = this.deps.model()
    return model !== null && this.deps.files.vectors(hash, model.space.key, chunker) !== null
  }

  /** Starts embedding the file's chunks unless they are embedded or being embedded. */
  ensure(hash: string, chunker: string, chunks: readonly StoredChunk[]): Promise<void> {
    const model = this.deps.model()
    if (!model || chunks.length === 0) return Promise.resolve()
    const key = `${hash}/${model.space.key}/${chunker}`
    const existing = this.running.get(key)
    if (existing) return existing
    if (this.deps.files.vectors(hash, model.space.key, chunker)) return Promise.resolve()
    const job = this.embed(model, hash, chunker, chunks)
      .catch((error: unknown) => {
        // A removed file's work is cancelled on purpose; anything else is worth a line.
        if (error instanceof EmbeddingCancelledError) return
        this.deps.log(`file ${hash.slice(0, 12)} was not embedded`, error)
      })
      .finally(() => this.running.delete(key))
    this.running.set(key, job)
    return job
  }

  /** Drops the queued embedding of a file that is no longer stored. */
  cancel(hash: string): void {
    this.deps.model()?.embedder.cancel(`file:${hash}`)
  }

  /**
   * Each chunk's cosine to the query, or nulls (with `embedded: false`) when the file has no
   * vectors in the active space yet or the query could not be embedded in time.
   */
  async score(
    hash: string,
    chunker: string,
    chunks: readonly StoredChunk[],
    query: string
  ): Promise<Scores> {
    const none: Scores = { relevance: chunks.map(() => null), embedded: false }
    const model = this.deps.model()
    if (!model) return none
    const vectors = this.vectorsOf(hash, model.space.key, chunker)
    if (!vectors) {
      void this.ensure(hash, chunker, chunks)
      return none
    }
    // Nothing to compare with (an empty draft in a new thread): document order decides.
    if (query.trim() === '') return { ...none, embedded: true }
    let q: Float32Array
    try {
      q = await this.deps.ranker.embedWithin(model, query, QUERY_TIMEOUT_MS)
    } catch (error) {
      this.deps.log('the attachment query was not embedded in time', error)
      return { ...none, embedded: true }
    }
    const dimension = q.length
    const relevance = chunks.map((_, i) => {
      if ((i + 1) * dimension > vectors.length) return null
      const row = vectors.subarray(i * dimension, (i + 1) * dimension)
      return Math.round(similarity(q, row) * 10_000) / 10_000
    })
    return { relevance, embedded: true }
  }

  /** Kept for the newest files, so a preview per keystroke reads no blob from SQLite. */
  private vectorsOf(hash: string, space: string, chunker: string): Float32Array | null {
    const key = `${hash}/${space}/${chunker}`
    const cached = this.vectorCache.get(key)
    if (cached) return cached
    const vectors = this.deps.files.vectors(hash, space, chunker)
    if (vectors) {
      this.vectorCache.set(key, vectors)
      while (this.vectorCache.size > VECTORS_KEPT) {
        this.vectorCache.delete(this.vectorCache.keys().next().value as string)
      }
    }
    return vectors
  }

  private async embed(
    model: ActiveModel,
    hash: string,
    chunker: string,
    chunks: readonly StoredChunk[]
  ): Promise<void> {
    let all: Float32Array | null = null
    let dimension = 0
    for (let from = 0; from < chunks.length; from += BATCH) {
      const texts = chunks.slice(from, from + BATCH).map((c) => c.text)
      const vectors = await model.embedder.embed(texts, {
        priority: 'background',
        role: 'passage',
        tag: `file:${hash}`
      })
      for (const [i, vector] of vectors.entries()) {
        if (!all) {
          dimension = vector.length
          all = new Float32Array(chunks.length * dimension)
        }
        all.set(vector, (from + i) * dimension)
      }
    }
    // The model may have changed while this ran; vectors are filed under the space they are in.
    if (all && this.deps.model()?.space.key === model.space.key) {
      this.deps.files.putVectors(hash, model.space.key, chunker, dimension, all)
      this.deps.embedded(hash)
    }
  }
}
