/**
 * An on-disk cache of embeddings for evaluation runs, so a rerun does not embed the same
 * 6,000 turns again. One SQLite file per model identity (model id, the space key with pooling,
 * lowercasing, centering and dimension, and the weights' sha-256), rows keyed by the sha-256
 * of the exact text embedded. Lives in the git-ignored `.cache/eval-embeddings/`.
 *
 * `CachedEmbedder` wraps the real worker client and implements the app's `Embedder` port, so
 * the app's own indexer and memory search use it unchanged: a cached text costs a lookup, a
 * new one goes to the worker and is stored.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type {
  EmbedOptions,
  Embedder,
  EmbedderStatus
} from '../../src/main/workers/embedding/embedder'
import { spaceKey, type EmbeddingModelSpec } from '../../src/main/workers/embedding/embeddingModels'

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex')

export interface ModelIdentity {
  spec: EmbeddingModelSpec
  dimension: number
  /** sha-256 of the ONNX weights when known: a changed file never reads stale vectors. */
  weights: string | null
}

export function weightsHash(modelFolder: string, spec: EmbeddingModelSpec): string | null {
  const file = join(
    modelFolder,
    spec.dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx'
  )
  return existsSync(file) ? sha256(readFileSync(file)) : null
}

export class EmbeddingCache {
  private readonly db: Database.Database
  private readonly select: Database.Statement
  private readonly insert: Database.Statement
  readonly path: string
  private readonly prefixed: boolean

  constructor(dir: string, identity: ModelIdentity) {
    const key = `${spaceKey(identity.spec, identity.dimension)}|${identity.weights ?? 'unknown'}`
    const name = `${identity.spec.id.replace(/[^A-Za-z0-9.-]+/g, '_')}-${sha256(key).slice(0, 12)}`
    this.prefixed = identity.spec.prefixes !== null
    mkdirSync(dir, { recursive: true })
    this.path = join(dir, `${name}.sqlite`)
    this.db = new Database(this.path)
    this.db.pragma('journal_mode = WAL')
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL);`
    )
    this.db.prepare('INSERT OR REPLACE INTO meta VALUES (?, ?)').run('identity', key)
    this.select = this.db.prepare('SELECT vector FROM vectors WHERE hash = ?').pluck()
    this.insert = this.db.prepare('INSERT OR REPLACE INTO vectors (hash, vector) VALUES (?, ?)')
  }

  /**
   * The row key of `text` embedded in `role`: a query and a stored item of the same text differ
   * only for models with prefixes (e5); for the others one vector serves both.
   */
  keyOf(text: string, role: EmbedOptions['role']): string {
    return role === 'query' && this.prefixed ? `query\u0000${text}` : text
  }

  get(text: string): Float32Array | undefined {
    const blob = this.select.get(sha256(text)) as Buffer | undefined
    if (!blob) return undefined
    // Copy out of SQLite's buffer: the vector must stay valid after the next read.
    return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength))
  }

  put(entries: readonly (readonly [string, Float32Array])[]): void {
    this.db.transaction(() => {
      for (const [text, vector] of entries) {
        this.insert.run(
          sha256(text),
          Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
        )
      }
    })()
  }

  size(): number {
    return this.db.prepare('SELECT count(*) FROM vectors').pluck().get() as number
  }

  close(): void {
    this.db.close()
  }
}

export interface CacheStats {
  hits: number
  misses: number
  /** Wall time spent waiting for the worker on misses. */
  embedMs: number
}

/** The real embedder behind the cache. `close()` of a view never closes the shared worker. */
export class CachedEmbedder implements Embedder {
  readonly stats: CacheStats = { hits: 0, misses: 0, embedMs: 0 }

  constructor(
    private readonly inner: Embedder,
    private readonly cache: EmbeddingCache
  ) {}

  status(): EmbedderStatus {
    return this.inner.status()
  }

  ready(): Promise<{ modelId: string; dimension: number }> {
    return this.inner.ready()
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const key = (text: string) => this.cache.keyOf(text, options.role)
    const out: (Float32Array | undefined)[] = texts.map((text) => this.cache.get(key(text)))
    const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))]
    this.stats.hits += texts.length - texts.filter((_, i) => out[i] === undefined).length
    if (missing.length > 0) {
      this.stats.misses += missing.length
      const started = performance.now()
      const vectors = await this.inner.embed(missing, options)
      this.stats.embedMs += performance.now() - started
      const fresh = new Map(missing.map((text, i) => [text, vectors[i] as Float32Array]))
      this.cache.put([...fresh].map(([text, vector]) => [key(text), vector] as const))
      texts.forEach((text, i) => {
        out[i] ??= fresh.get(text)
      })
    }
    return out as Float32Array[]
  }

  cancel(tag: string): number {
    return this.inner.cancel(tag)
  }

  onStatus(listener: (status: EmbedderStatus) => void): () => void {
    return this.inner.onStatus(listener)
  }

  /** The shared worker is closed by whoever made it, never through the cache. */
  async close(): Promise<void> {}

  /**
   * Embeds every text not cached yet, a few chunks in flight so the worker never idles
   * between batches. `progress(done, total)` after each chunk.
   */
  async warm(
    texts: Iterable<string>,
    progress: (done: number, total: number) => void = () => {},
    options: EmbedOptions = {}
  ): Promise<{ total: number; embedded: number; ms: number }> {
    const started = performance.now()
    const todo = [...new Set(texts)].filter(
      (text) => this.cache.get(this.cache.keyOf(text, options.role)) === undefined
    )
    const CHUNK = 64
    const IN_FLIGHT = 4
    let next = 0
    let done = 0
    progress(0, todo.length)
    const worker = async () => {
      while (next < todo.length) {
        const chunk = todo.slice(next, next + CHUNK)
        next += chunk.length
        await this.embed(chunk, options)
        done += chunk.length
        progress(done, todo.length)
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
    return { total: todo.length, embedded: done, ms: performance.now() - started }
  }
}

/**
 * Each store's services own "their" embedder and close it when they stop; the evaluation shares
 * one worker across every store, so each gets a view whose `close()` only detaches its listeners.
 */
export function sharedView(embedder: Embedder): Embedder {
  const unsubscribe: (() => void)[] = []
  return {
    status: () => embedder.status(),
    ready: () => embedder.ready(),
    embed: (texts, options) => embedder.embed(texts, options),
    cancel: (tag) => embedder.cancel(tag),
    onStatus: (listener) => {
      const off = embedder.onStatus(listener)
      unsubscribe.push(off)
      return off
    },
    close: async () => {
      for (const off of unsubscribe.splice(0)) off()
    }
  }
}
