/**
 * The embedding worker (built to out/main/embeddingWorker.js): loads a sentence-embedding
 * model with transformers.js and turns batches of text into mean-pooled (or CLS), unit-length
 * vectors, centred per language when the model's spec says so (workers/embedding/centering.ts).
 * Inference never runs on the Electron main thread or in the renderer. It runs in an Electron
 * utility process in the app and in a worker thread under plain Node (embeddingHost.ts); the
 * messages are the same. Everything it reads comes from its init; it writes nothing but the
 * model cache when the source is the hub.
 */
import { getPriority, setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers'
import { center, cjkWeight, meanOf, REFERENCE_EN, REFERENCE_ZH } from './centering'
import { withPrefix, type EmbedRole } from './embeddingModels'
import type { FromWorker, InitMessage, ToWorker, WorkerInit } from './embeddingProtocol'

/** Electron's utility process channel (process.parentPort), or null in a worker thread. */
interface UtilityParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  postMessage(message: unknown): void
}
const utilityPort = (process as unknown as { parentPort?: UtilityParentPort }).parentPort ?? null

if (!parentPort && !utilityPort) {
  throw new Error('embeddingWorker must run in a worker thread or a utility process')
}
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) =>
  utilityPort ? utilityPort.postMessage(message) : parentPort?.postMessage(message, transfer)
const onMessage = (listener: (message: ToWorker | InitMessage) => void) =>
  utilityPort
    ? utilityPort.on('message', (event) => listener(event.data as ToWorker | InitMessage))
    : parentPort?.on('message', listener)
const close = () => (utilityPort ? process.exit(0) : parentPort?.close())

let init = workerData as WorkerInit

interface ProgressInfo {
  status: string
  file?: string
  loaded?: number
  total?: number
}

async function load(): Promise<FeatureExtractionPipeline> {
  const { spec, source } = init
  env.allowLocalModels = true
  if (source.kind === 'folder') {
    env.allowRemoteModels = false
    env.localModelPath = withSlash(source.root)
    env.useFSCache = false
  } else {
    // The hub cache uses the same <id>/<file> layout, so the folder is read locally next time.
    env.allowRemoteModels = true
    env.localModelPath = withSlash(source.cacheDir)
    env.cacheDir = source.cacheDir
    env.useFSCache = true
  }
  const name = source.kind === 'folder' ? source.name : spec.id
  const extractor = await pipeline('feature-extraction', name, {
    dtype: spec.dtype,
    session_options: {
      intraOpNumThreads: init.threads,
      interOpNumThreads: 1,
      // ONNX Runtime's arena keeps the largest batch's activations for good: with e5's 12 layers
      // on 512-token messages the worker stayed at 3.4 GB after indexing; without it, 0.66 GB,
      // at no measurable cost in speed (docs/MEMORY.md).
      enableCpuMemArena: false
    },
    progress_callback: (info: ProgressInfo) => {
      if (info.status === 'progress' && info.file) {
        post({
          type: 'progress',
          file: info.file,
          loaded: info.loaded ?? 0,
          total: info.total ?? 0
        })
      }
    }
  })
  return extractor
}

function withSlash(path: string): string {
  return path.endsWith('/') || path.endsWith('\\') ? path : `${path}/`
}

/** Content tokens the model reads per text: 512 less <s> and </s>. */
const WINDOW_TOKENS = 510

function prepare(extractor: FeatureExtractionPipeline, text: string, role: EmbedRole): string {
  const { maxChars, longText, lowercase } = init.spec
  let cut = text
  if (text.length > maxChars) {
    const head = longText === 'head+tail' ? Math.ceil(maxChars / 2) : maxChars
    cut =
      text.slice(0, head) +
      (head < maxChars ? ` ${text.slice(text.length - (maxChars - head))}` : '')
  }
  const flat = cut.replace(/\s+/gu, ' ').trim() || ' '
  const cased = lowercase ? flat.toLowerCase() : flat
  const fitted = longText === 'head+tail' ? headAndTail(extractor, cased, role) : cased
  return withPrefix(init.spec, fitted, role)
}

/**
 * A text over the model's window, cut to its first and last halves (the tokenizer would keep
 * only the start). Measured on e5: a fact at the end of a 1,400-token message ranks first 3/8
 * times instead of 0/8, and one at its start 3/8 instead of 1/8 (docs/MEMORY.md).
 */
function headAndTail(extractor: FeatureExtractionPipeline, text: string, role: EmbedRole): string {
  // At most two tokens per character: a short text always fits.
  if (text.length * 2 < WINDOW_TOKENS - 16) return text
  const encode = (t: string) => extractor.tokenizer.encode(t, { add_special_tokens: false })
  const ids = encode(text)
  // The prefix and the joining space take part of the window.
  const budget = WINDOW_TOKENS - encode(withPrefix(init.spec, '', role)).length - 2
  if (ids.length <= budget) return text
  const head = Math.ceil(budget / 2)
  const decode = (part: number[]) => extractor.tokenizer.decode(part, { skip_special_tokens: true })
  return `${decode(ids.slice(0, head))} ${decode(ids.slice(ids.length - (budget - head)))}`
}

/** Pooled, normalised rows, one per text. */
async function embedRows(
  extractor: FeatureExtractionPipeline,
  texts: string[],
  roles: readonly EmbedRole[] = []
): Promise<Float32Array[]> {
  const output = await extractor(
    texts.map((text, i) => prepare(extractor, text, roles[i] ?? 'passage')),
    {
      pooling: init.spec.pooling,
      normalize: true
    }
  )
  const dimension = output.dims[1] as number
  const data = output.data as Float32Array
  return texts.map((_, i) => data.slice(i * dimension, (i + 1) * dimension))
}

/** The init: workerData in a thread, the first message in a utility process. */
function initReceived(): Promise<WorkerInit> {
  if (!utilityPort) return Promise.resolve(init)
  return new Promise((resolve) => {
    const waiting = (message: ToWorker | InitMessage) => {
      if (message.type === 'init') resolve(message.init)
    }
    onMessage(waiting)
  })
}

/** Ten nice levels below the app: the chat, its query worker and other apps come first. */
const INDEXING_NICE = 10

/**
 * An indexing worker gives the CPU to everything else first. Relative to the app's own
 * priority (a worker inherits it), so an app started at a raised priority keeps its order.
 * `setPriority(0, …)` changes the calling thread on Linux (where the session's one intra-op
 * thread is this thread) and the whole process elsewhere, which is only right in a utility
 * process, not a worker thread of the app's own process.
 */
function lowerPriority(): void {
  if (!init.lowPriority || (!utilityPort && process.platform !== 'linux')) return
  try {
    setPriority(0, Math.min(19, getPriority(0) + INDEXING_NICE))
  } catch {
    // Not allowed here (a sandbox): indexing runs at normal priority, as before.
  }
}

async function main(): Promise<void> {
  init = await initReceived()
  lowerPriority()
  let extractor: FeatureExtractionPipeline
  let means: { en: Float32Array; zh: Float32Array } | null = null
  let dimension: number
  try {
    extractor = await load()
    const [probe] = await embedRows(extractor, ['probe'])
    dimension = (probe as Float32Array).length
    if (init.spec.centering) {
      means = {
        en: meanOf(await embedRows(extractor, REFERENCE_EN)),
        zh: meanOf(await embedRows(extractor, REFERENCE_ZH))
      }
    }
    post({ type: 'ready', modelId: init.spec.id, dimension })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
    return
  }

  // One batch at a time: the client sends the next batch only after this one answers, which is
  // what lets a query overtake queued background work.
  onMessage(async (message) => {
    if (message.type === 'init') return
    if (message.type === 'close') {
      await extractor.dispose().catch(() => {})
      close()
      return
    }
    try {
      const rows = await embedRows(extractor, message.texts, message.roles)
      const vectors = new Float32Array(rows.length * dimension)
      rows.forEach((row, i) => {
        const text = message.texts[i] as string
        vectors.set(means ? center(row, cjkWeight(text), means) : row, i * dimension)
      })
      post({ type: 'result', id: message.id, dimension, vectors }, [vectors.buffer as ArrayBuffer])
    } catch (error) {
      post({
        type: 'error',
        id: message.id,
        message: error instanceof Error ? error.message : String(error)
      })
    }
  })
}

void main()
