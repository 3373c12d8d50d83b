/**
 * Finds the chosen embedding model (settings `embeddingModel`) on this machine. In order: the
 * folder set in the memory settings, a folder named by CONTEXT_LENS_MODELS_DIR (development),
 * the copy shipped in the packaged app's resources, the copy downloaded earlier into the
 * user-data folder; failing all of those, a one-time download from the Hugging Face hub into
 * the user-data folder when allowed, else another known model found in those folders.
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { MemorySettings } from '@shared/domain'
import {
  DEFAULT_EMBEDDING_MODEL_ID,
  EMBEDDING_MODEL_IDS,
  type EmbeddingModelId
} from '@shared/embeddingModelIds'
import {
  DEFAULT_MODEL_ID,
  modelSpec,
  type EmbeddingModelSpec,
  type ModelSource
} from './embeddingModels'

const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json']

function isModelFolder(folder: string, dtype: 'q8' | 'fp32' = 'q8'): boolean {
  const weights = dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx'
  return [...REQUIRED, weights].every((file) => existsSync(join(folder, file)))
}

/** The id a folder declares (context-lens-model.json, written by the fetch script), if any. */
function declaredId(folder: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(folder, 'context-lens-model.json'), 'utf8')) as {
      id?: unknown
    }
    return typeof manifest.id === 'string' ? manifest.id : undefined
  } catch {
    return undefined
  }
}

/**
 * A folder given by the user may be the model folder itself or a models root holding
 * `<id>/...` (the layout transformers.js and our cache use).
 */
function folderSource(
  folder: string,
  modelId: string = DEFAULT_MODEL_ID
): { spec: EmbeddingModelSpec; source: ModelSource } | null {
  if (isModelFolder(folder)) {
    const id = declaredId(folder) ?? basename(folder)
    return {
      spec: modelSpec(id),
      source: { kind: 'folder', root: dirname(folder), name: basename(folder) }
    }
  }
  const nested = join(folder, modelId)
  if (isModelFolder(nested)) {
    return {
      spec: modelSpec(declaredId(nested) ?? modelId),
      source: { kind: 'folder', root: folder, name: modelId }
    }
  }
  return null
}

export interface ModelLocations {
  settings: MemorySettings
  /** CONTEXT_LENS_MODELS_DIR, for development against the test cache. */
  envFolder?: string
  /** process.resourcesPath/models in a packaged app. */
  resourcesFolder?: string
  /** <userData>/models: where a downloaded model is kept. */
  userModels: string
}

/** The settings' model if it is one the app knows, else the default. */
export function chosenModelId(settings: { embeddingModel?: unknown }): EmbeddingModelId {
  const wanted = settings.embeddingModel
  return EMBEDDING_MODEL_IDS.find((id) => id === wanted) ?? DEFAULT_EMBEDDING_MODEL_ID
}

export function locateModel(
  where: ModelLocations
): { spec: EmbeddingModelSpec; source: ModelSource; origin: string } | null {
  const wanted = chosenModelId(where.settings)
  const candidates: [string, string | undefined | null][] = [
    ['settings', where.settings.modelFolder],
    ['environment', where.envFolder],
    ['resources', where.resourcesFolder],
    ['user data', where.userModels]
  ]
  const find = (modelId: string) => {
    for (const [origin, folder] of candidates) {
      if (!folder) continue
      const found = folderSource(folder, modelId)
      if (found) return { ...found, origin }
    }
    return null
  }
  const found = find(wanted)
  if (found) return found
  if (where.settings.allowDownload) {
    return {
      spec: modelSpec(wanted),
      source: { kind: 'hub', cacheDir: where.userModels },
      origin: 'download'
    }
  }
  // No download allowed: a model already on disk beats full-text-only recall.
  for (const other of EMBEDDING_MODEL_IDS) {
    const fallback = other === wanted ? null : find(other)
    if (fallback) return fallback
  }
  return null
}
