/** Messages between the main process and the embedding worker (structured-clone data). */
import type { EmbedRole, EmbeddingModelSpec, ModelSource } from './embeddingModels'

export interface WorkerInit {
  spec: EmbeddingModelSpec
  source: ModelSource
  /** ONNX Runtime intra-op threads; the main process keeps at least one core. */
  threads: number
  /** Background indexing: the worker lowers its own scheduling priority (embeddingPool.ts). */
  lowPriority?: boolean
}

/** In a utility process (no workerData) the init comes as the first message. */
export interface InitMessage {
  type: 'init'
  init: WorkerInit
}

export type ToWorker =
  /** `roles[i]` says whether `texts[i]` is a search query or a stored item (prefixes). */
  { type: 'embed'; id: number; texts: string[]; roles: EmbedRole[] } | { type: 'close' }

export type FromWorker =
  | { type: 'progress'; file: string; loaded: number; total: number }
  | { type: 'ready'; modelId: string; dimension: number }
  | { type: 'failed'; message: string }
  /** `vectors` is texts.length × dimension floats, row after row (transferred, not copied). */
  | { type: 'result'; id: number; dimension: number; vectors: Float32Array }
  | { type: 'error'; id: number; message: string }
