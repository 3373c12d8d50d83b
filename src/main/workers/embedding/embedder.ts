/** The port services use to turn text into vectors; `EmbeddingClient` implements it. */
import type { EmbedRole } from './embeddingModels'

type EmbedderState =
  /** Not started, or no model source configured. */
  | 'idle'
  /** Loading from disk. */
  | 'loading'
  /** Fetching the model files once, with progress. */
  | 'downloading'
  | 'ready'
  /** No model could be loaded: memory search falls back to full text. */
  | 'unavailable'

interface DownloadProgress {
  file: string
  loaded: number
  total: number
}

export interface EmbedderStatus {
  state: EmbedderState
  modelId: string | null
  /** Set once the model is loaded (and from the space's record before that). */
  dimension: number | null
  /** While downloading: per file. */
  progress: DownloadProgress[]
  /** Why the model is unavailable, in English, for the inspector and logs. */
  error: string | null
}

type EmbedPriority = 'query' | 'background'

export interface EmbedOptions {
  /** Queries jump ahead of background indexing. Default `background`. */
  priority?: EmbedPriority
  /** A label for cancellation, e.g. the thread the texts belong to. */
  tag?: string
  /**
   * `query` for a search question, `passage` (the default) for an item that is stored to be
   * found; models such as e5 read a different prefix for each (see EmbeddingModelSpec).
   */
  role?: EmbedRole
}

export interface Embedder {
  status(): EmbedderStatus
  /** Resolves with the loaded model; rejects when no model can be loaded. */
  ready(): Promise<{ modelId: string; dimension: number }>
  /** Unit-length vectors, one per text, in the model's space. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>
  /** Drops queued work with this tag; its promises reject with `EmbeddingCancelledError`. */
  cancel(tag: string): number
  onStatus(listener: (status: EmbedderStatus) => void): () => void
  /** How many background workers embed (the `indexingThreads` setting); absent: one, fixed. */
  setIndexingThreads?(count: number): void
  close(): Promise<void>
}

export class EmbeddingCancelledError extends Error {
  constructor() {
    super('Embedding was cancelled.')
    this.name = 'EmbeddingCancelledError'
  }
}

export class EmbeddingQueueFullError extends Error {
  constructor(limit: number) {
    super(`The embedding queue is full (${limit} texts waiting).`)
    this.name = 'EmbeddingQueueFullError'
  }
}

export class EmbedderUnavailableError extends Error {
  constructor(reason: string) {
    super(`No embedding model is available (${reason}).`)
    this.name = 'EmbedderUnavailableError'
  }
}
