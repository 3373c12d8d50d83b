import { cpus } from 'node:os'
import type { MemorySettings } from '@shared/domain'
import { DEFAULT_EMBEDDING_MODEL_ID } from '@shared/embeddingModelIds'
import { indexingThreadsFor } from '@shared/indexingThreads'
import type { SettingsRepository } from '../../store/settingsRepository'
import type { Embedder } from '../../workers/embedding/embedder'
import type { EmbeddingModelSpec } from '../../workers/embedding/embeddingModels'
import { chosenModelId } from '../../workers/embedding/modelLocation'
import type { MemoryIndexer } from './memoryIndexer'

const KEY = 'memory'

export const DEFAULT_MEMORY_SETTINGS: MemorySettings = {
  modelFolder: null,
  embeddingModel: DEFAULT_EMBEDDING_MODEL_ID,
  allowDownload: true,
  modelMirror: null,
  autoExtract: true,
  indexingThreads: null
}

/**
 * Makes the embedder for the current settings: the Electron entry starts a worker over the
 * model folder it finds (settings, packaged resources, user data, or a one-time download);
 * tests pass the cached folder. Null: no model, recall runs on full text only.
 */
export type EmbedderFactory = (
  settings: MemorySettings
) => { embedder: Embedder; spec: EmbeddingModelSpec } | null

/** Owns the running embedder: starts it, swaps it when the settings change, stops it at quit. */
export class MemoryModelManager {
  private current: Embedder | null = null

  constructor(
    private readonly deps: {
      settings: SettingsRepository
      indexer: MemoryIndexer
      factory: EmbedderFactory | null
      log: (message: string, error: unknown) => void
    }
  ) {}

  settings(): MemorySettings {
    const stored = this.deps.settings.get(KEY)
    const merged = {
      ...DEFAULT_MEMORY_SETTINGS,
      ...(typeof stored === 'object' && stored ? stored : {})
    }
    // A model id this version does not know (written by another version) reads as the default.
    return { ...merged, embeddingModel: chosenModelId(merged) }
  }

  async updateSettings(patch: Partial<MemorySettings>): Promise<MemorySettings> {
    const previous = this.settings()
    const next = { ...previous, ...patch }
    this.deps.settings.set(KEY, next)
    // Only where the model comes from needs a reload (switching extraction does not).
    if (
      next.modelFolder !== previous.modelFolder ||
      next.embeddingModel !== previous.embeddingModel ||
      next.allowDownload !== previous.allowDownload ||
      next.modelMirror !== previous.modelMirror
    ) {
      await this.reload()
    } else if (next.indexingThreads !== previous.indexingThreads) {
      this.current?.setIndexingThreads?.(indexingThreadsFor(next.indexingThreads, cpus().length))
    }
    return next
  }

  /** Starts the indexer with the configured model; never throws (no model = full text only). */
  start(): void {
    this.load()
    this.deps.indexer.start()
  }

  async reload(): Promise<void> {
    const previous = this.current
    this.load()
    await previous?.close()
  }

  async stop(): Promise<void> {
    await this.deps.indexer.stop()
    await this.current?.close()
    this.current = null
  }

  private load(): void {
    let made: ReturnType<EmbedderFactory> = null
    try {
      made = this.deps.factory?.(this.settings()) ?? null
    } catch (error) {
      this.deps.log('the embedding worker could not be started', error)
    }
    this.current = made?.embedder ?? null
    this.deps.indexer.setEmbedder(made?.embedder ?? null, made?.spec ?? null)
  }
}
