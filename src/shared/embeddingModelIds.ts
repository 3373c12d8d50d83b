/**
 * The sentence-embedding models memory can use, as the settings and the renderer know them.
 * Their runtime details (pooling, prefixes, calibration) live in main/workers/embedding/embeddingModels.ts.
 */
export const E5_MODEL_ID = 'Xenova/multilingual-e5-small'
export const BGE_MODEL_ID = 'Xenova/bge-small-zh-v1.5'

/** Selectable models, in the order the settings list them. */
export const EMBEDDING_MODEL_IDS = [E5_MODEL_ID, BGE_MODEL_ID] as const
export type EmbeddingModelId = (typeof EMBEDDING_MODEL_IDS)[number]

/** What a new installation uses; see docs/MEMORY.md for the measurements behind the choice. */
export const DEFAULT_EMBEDDING_MODEL_ID: EmbeddingModelId = E5_MODEL_ID

/** The int8 ONNX download, for the settings' download note (MB, rounded). */
export const EMBEDDING_MODEL_DOWNLOAD_MB: Record<EmbeddingModelId, number> = {
  [E5_MODEL_ID]: 118,
  [BGE_MODEL_ID]: 24
}
