/**
 * The embedding model, wired to Electron: the worker in a utility process, the first-run
 * download through Electron's network stack. The services only see an EmbedderFactory.
 */
import { existsSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { app, net, utilityProcess } from 'electron'
import type { MemorySettings } from '@shared/domain'
import { indexingThreadsFor } from '@shared/indexingThreads'
import type { EmbedderFactory } from './services/memory/memoryModels'
import { EmbeddingClient } from './workers/embedding/embeddingClient'
import { utilityProcessHost } from './workers/embedding/embeddingHost'
import { EmbeddingPool } from './workers/embedding/embeddingPool'
import {
  DEFAULT_MODEL_ENDPOINT,
  downloadModel,
  modelFiles,
  type Fetch
} from './workers/embedding/modelDownload'
import { locateModel } from './workers/embedding/modelLocation'

/**
 * The embedding model runs in a utility process (out/main/embeddingWorker.js; a worker thread
 * where Electron offers none). Where the model is read from: workers/embedding/modelLocation.ts; a
 * first-run download happens here, in main (workers/embedding/modelDownload.ts). Without a model,
 * memory recall uses full text only.
 */
export const electronEmbeddings =
  (workerPath: string): EmbedderFactory =>
  (settings) => {
    const userModels = join(app.getPath('userData'), 'models')
    const located = locateModel({
      settings,
      envFolder: process.env.CONTEXT_LENS_MODELS_DIR,
      resourcesFolder: app.isPackaged ? join(process.resourcesPath, 'models') : undefined,
      userModels
    })
    if (!located) return null
    if (!existsSync(workerPath)) return null
    console.info(`[memory] embedding model ${located.spec.id} from ${located.origin}`)
    const { spec, source } = located
    // A native crash in ONNX Runtime ends a utility process, not the app; it is restarted.
    const host =
      typeof utilityProcess?.fork === 'function'
        ? utilityProcessHost((path, args, options) => utilityProcess.fork(path, args, options))
        : undefined
    const embedder = new EmbeddingPool({
      indexingThreads: indexingThreadsFor(settings.indexingThreads, cpus().length),
      lane: (lane, loaded) =>
        new EmbeddingClient({
          workerPath,
          spec,
          source: loaded ?? source,
          ...(host && { host }),
          // Indexing workers: one ONNX thread each, at a lower priority (embeddingPool.ts).
          ...(lane === 'indexing' && { threads: 1, lowPriority: true }),
          ...(lane === 'query' &&
            source.kind === 'hub' && {
              download: async (signal, onProgress) => {
                await downloadModel({
                  modelId: spec.id,
                  files: modelFiles(spec),
                  root: source.cacheDir,
                  endpoint: modelEndpoint(settings),
                  fetch: downloadFetch,
                  signal,
                  onProgress
                })
                return { kind: 'folder', root: source.cacheDir, name: spec.id }
              }
            })
        })
    })
    return { embedder, spec }
  }

/**
 * Electron's net.fetch: the system proxy (PAC included) and the OS certificate store. Under
 * plain Node (the boot test's fake electron may offer none) Node's fetch does the same job.
 */
const downloadFetch: Fetch = (url, init) =>
  typeof net?.fetch === 'function' ? net.fetch(url, init) : fetch(url, init)

/** The memory settings' mirror, else HF_ENDPOINT (the Hugging Face tools' own variable). */
function modelEndpoint(settings: MemorySettings): string {
  return settings.modelMirror ?? process.env.HF_ENDPOINT ?? DEFAULT_MODEL_ENDPOINT
}
