/**
 * The main-process side of the embedding worker: a small typed client with a bounded queue,
 * batching, query priority and cancellation by tag. It never runs a model itself.
 */
import { cpus } from 'node:os'
import {
  EmbedderUnavailableError,
  EmbeddingCancelledError,
  EmbeddingQueueFullError,
  type EmbedOptions,
  type Embedder,
  type EmbedderStatus
} from './embedder'
import type { EmbedRole, EmbeddingModelSpec, ModelSource } from './embeddingModels'
import type { ToWorker, WorkerInit } from './embeddingProtocol'
import { workerThreadHost, type EmbeddingHost, type EmbeddingHostFactory } from './embeddingHost'

export interface EmbeddingClientOptions {
  /** The built worker file (out/main/embeddingWorker.js in the app). */
  workerPath: string
  spec: EmbeddingModelSpec
  source: ModelSource
  /**
   * For a `hub` source: fetches the files into a folder first (workers/embedding/modelDownload.ts), in
   * this process, and returns that folder; the worker itself never touches the network.
   * Aborted by `close` (cancel); its error message is the status's error.
   */
  download?: (
    signal: AbortSignal,
    onProgress: (file: string, loaded: number, total: number) => void
  ) => Promise<ModelSource>
  /** Where the worker runs: a worker thread by default, a utility process in the app. */
  host?: EmbeddingHostFactory
  /** Delays before each restart after a crash; one more crash than delays gives up. */
  respawnDelaysMs?: number[]
  /** Texts per forward pass. Small batches keep a waiting query's delay short. */
  maxBatch?: number
  /** Characters per forward pass, so a batch of long messages stays short too. */
  maxBatchChars?: number
  /** Texts waiting at most; more is refused with `EmbeddingQueueFullError`. */
  maxQueued?: number
  threads?: number
  /** A background indexing lane: its worker runs at a lower OS priority than the app. */
  lowPriority?: boolean
}

interface Job {
  texts: string[]
  priority: 'query' | 'background'
  role: EmbedRole
  tag: string | undefined
  resolve: (vectors: Float32Array[]) => void
  reject: (error: Error) => void
}

interface Batch {
  jobs: Job[]
}

/** How long `close` waits for the batch in the worker (a batch takes about a second at most). */
const CLOSE_WAIT_MS = 10_000
/** Restarts after crashes, growing; a sixth crash within the window gives up. */
const RESPAWN_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000]
/** Crashes further apart than this start counting afresh. */
const CRASH_WINDOW_MS = 5 * 60_000

export class EmbeddingClient implements Embedder {
  private host: EmbeddingHost | null = null
  private crashes = 0
  private lastCrashAt = 0
  private readonly queue: Job[] = []
  private readonly inFlight = new Map<number, Batch>()
  private readonly listeners = new Set<(status: EmbedderStatus) => void>()
  private readonly readyPromise: Promise<{ modelId: string; dimension: number }>
  private readonly cancelDownload = new AbortController()
  private current: EmbedderStatus
  /** Where the model was read from, once known (a hub source becomes its download folder). */
  private loadedFrom: ModelSource | null = null
  private nextId = 1
  private queuedTexts = 0
  private closed = false
  /** Resolves `close` once the batch the worker is running has answered. */
  private drained: (() => void) | null = null
  private readonly maxBatch: number
  private readonly maxBatchChars: number
  private readonly maxQueued: number

  constructor(private readonly options: EmbeddingClientOptions) {
    this.maxBatch = options.maxBatch ?? 16
    this.maxBatchChars = options.maxBatchChars ?? 8_000
    this.maxQueued = options.maxQueued ?? 1_024
    this.current = {
      state: options.source.kind === 'hub' ? 'downloading' : 'loading',
      modelId: options.spec.id,
      dimension: null,
      progress: [],
      error: null
    }
    this.readyPromise = this.start()
    // Callers that never await ready() must not see an unhandled rejection.
    this.readyPromise.catch(() => {})
  }

  private async start(): Promise<{ modelId: string; dimension: number }> {
    let source = this.options.source
    if (source.kind === 'hub' && this.options.download) {
      try {
        source = await this.options.download(this.cancelDownload.signal, (file, loaded, total) =>
          this.setStatus({
            progress: mergeProgress(this.current.progress, { file, loaded, total })
          })
        )
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        if (!this.closed) this.fail(reason)
        throw new EmbedderUnavailableError(reason)
      }
      if (this.closed) throw new EmbedderUnavailableError('closed')
      this.setStatus({ state: 'loading', progress: [] })
    }
    return this.startWorker(source)
  }

  private startWorker(source: ModelSource): Promise<{ modelId: string; dimension: number }> {
    return new Promise((resolve, reject) => this.launch(source, resolve, reject))
  }

  /**
   * Starts the host and follows it. A host that ends after the model was ready (a native
   * crash in ONNX Runtime, say) is started again after a growing delay; its running batch
   * fails (the indexer retries such items), queued work waits. Only when it keeps ending, or
   * ends before the model ever loaded, is the model unavailable.
   */
  private launch(
    source: ModelSource,
    resolve: (loaded: { modelId: string; dimension: number }) => void,
    reject: (error: Error) => void
  ): void {
    this.loadedFrom = source
    const init: WorkerInit = {
      spec: this.options.spec,
      source,
      threads: this.options.threads ?? Math.max(1, Math.floor(cpus().length / 2)),
      lowPriority: this.options.lowPriority ?? false
    }
    const host = (this.options.host ?? workerThreadHost)(this.options.workerPath, init)
    this.host = host
    host.onMessage((message) => {
      if (this.host !== host) return
      switch (message.type) {
        case 'progress':
          this.setStatus({ progress: mergeProgress(this.current.progress, message) })
          return
        case 'ready':
          this.setStatus({
            state: 'ready',
            dimension: message.dimension,
            progress: [],
            error: null
          })
          resolve({ modelId: message.modelId, dimension: message.dimension })
          this.pump()
          return
        case 'failed':
          this.fail(message.message)
          reject(new EmbedderUnavailableError(message.message))
          return
        case 'result':
          this.settle(message.id, null, message)
          return
        case 'error':
          this.settle(message.id, new Error(message.message), null)
          return
      }
    })
    host.onExit((how) => {
      if (this.closed || this.host !== host) return
      // A 'failed' message, if any, came first and already set the cause.
      if (this.current.state === 'unavailable') return
      // Ending before the first load is a load failure; after a restart, one more crash.
      if (this.current.state !== 'ready' && this.crashes === 0) {
        const reason = `the embedding worker stopped before the model was loaded (${how})`
        this.fail(reason)
        reject(new EmbedderUnavailableError(reason))
        return
      }
      const now = Date.now()
      if (now - this.lastCrashAt > CRASH_WINDOW_MS) this.crashes = 0
      this.lastCrashAt = now
      this.crashes++
      const delays = this.options.respawnDelaysMs ?? RESPAWN_DELAYS_MS
      const delay = delays[this.crashes - 1]
      if (delay === undefined) {
        this.fail(`the embedding worker stopped ${this.crashes} times in a row (last: ${how})`)
        return
      }
      this.failInFlight(new EmbedderUnavailableError(`the embedding worker stopped (${how})`))
      this.setStatus({ state: 'loading' })
      console.error(`[memory] the embedding worker stopped (${how}); restarting in ${delay} ms`)
      setTimeout(() => {
        if (!this.closed) this.launch(source, resolve, reject)
      }, delay).unref()
    })
  }

  status(): EmbedderStatus {
    return this.current
  }

  /** The folder the worker loads from (after a download: where it went); null before. */
  source(): ModelSource | null {
    return this.loadedFrom
  }

  ready(): Promise<{ modelId: string; dimension: number }> {
    return this.readyPromise
  }

  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.current.state === 'unavailable') {
      return Promise.reject(new EmbedderUnavailableError(this.current.error ?? 'unavailable'))
    }
    if (texts.length === 0) return Promise.resolve([])
    if (this.queuedTexts + texts.length > this.maxQueued) {
      return Promise.reject(new EmbeddingQueueFullError(this.maxQueued))
    }
    return new Promise((resolve, reject) => {
      const job: Job = {
        texts: [...texts],
        priority: options.priority ?? 'background',
        role: options.role ?? 'passage',
        tag: options.tag,
        resolve,
        reject
      }
      if (job.priority === 'query') {
        const firstBackground = this.queue.findIndex((j) => j.priority === 'background')
        this.queue.splice(firstBackground === -1 ? this.queue.length : firstBackground, 0, job)
      } else {
        this.queue.push(job)
      }
      this.queuedTexts += job.texts.length
      this.pump()
    })
  }

  cancel(tag: string): number {
    let cancelled = 0
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i] as Job
      if (job.tag !== tag) continue
      this.queue.splice(i, 1)
      this.queuedTexts -= job.texts.length
      job.reject(new EmbeddingCancelledError())
      cancelled++
    }
    // A batch already in the worker finishes, but its tagged results are thrown away.
    for (const batch of this.inFlight.values()) {
      for (const job of batch.jobs) {
        if (job.tag === tag) {
          job.reject(new EmbeddingCancelledError())
          job.resolve = () => {}
          cancelled++
        }
      }
    }
    return cancelled
  }

  onStatus(listener: (status: EmbedderStatus) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new EmbeddingCancelledError())
    for (const batch of this.inFlight.values()) {
      for (const job of batch.jobs) job.reject(new EmbeddingCancelledError())
    }
    this.queuedTexts = 0
    // Terminating the worker while ONNX Runtime runs a batch aborts the whole process (its
    // native callback throws into a torn-down environment): a model switch during indexing
    // did. The running batch is let finish, up to CLOSE_WAIT_MS.
    if (this.inFlight.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await new Promise<void>((resolve) => {
        this.drained = resolve
        timer = setTimeout(resolve, CLOSE_WAIT_MS)
      })
      clearTimeout(timer)
    }
    this.inFlight.clear()
    this.cancelDownload.abort()
    await this.host?.terminate()
  }

  /**
   * Sends the next batch when the worker is idle: queries first, then background jobs. A query
   * job goes alone: batched with another text it would be padded to the longer one's length,
   * and its caller (memory search) starts on the first vector while the next one is embedded.
   */
  private pump(): void {
    if (this.closed || this.current.state !== 'ready' || this.inFlight.size > 0) return
    if (this.queue.length === 0) return
    const jobs: Job[] = []
    let count = 0
    let chars = 0
    while (this.queue.length > 0) {
      const next = this.queue[0] as Job
      const nextChars = next.texts.reduce((sum, t) => sum + Math.min(t.length, 2_000), 0)
      const fits =
        count + next.texts.length <= this.maxBatch &&
        chars + nextChars <= this.maxBatchChars &&
        next.priority !== 'query' &&
        jobs[0]?.priority !== 'query'
      if (jobs.length > 0 && !fits) break
      this.queue.shift()
      jobs.push(next)
      count += next.texts.length
      chars += nextChars
    }
    this.queuedTexts -= count
    const id = this.nextId++
    this.inFlight.set(id, { jobs })
    const message: ToWorker = {
      type: 'embed',
      id,
      texts: jobs.flatMap((j) => j.texts),
      roles: jobs.flatMap((j) => j.texts.map(() => j.role))
    }
    this.host?.post(message)
  }

  private settle(
    id: number,
    error: Error | null,
    result: { dimension: number; vectors: Float32Array } | null
  ): void {
    const batch = this.inFlight.get(id)
    this.inFlight.delete(id)
    if (this.inFlight.size === 0) this.drained?.()
    if (batch) {
      let row = 0
      for (const job of batch.jobs) {
        if (error || !result) {
          job.reject(error ?? new Error('no result'))
          continue
        }
        const vectors = job.texts.map((_, i) => {
          const start = (row + i) * result.dimension
          return result.vectors.slice(start, start + result.dimension)
        })
        row += job.texts.length
        job.resolve(vectors)
      }
    }
    this.pump()
  }

  private fail(reason: string): void {
    this.setStatus({ state: 'unavailable', error: reason, progress: [] })
    for (const job of this.queue.splice(0)) job.reject(new EmbedderUnavailableError(reason))
    this.queuedTexts = 0
    this.failInFlight(new EmbedderUnavailableError(reason))
  }

  private failInFlight(error: Error): void {
    for (const batch of this.inFlight.values()) {
      for (const job of batch.jobs) job.reject(error)
    }
    this.inFlight.clear()
    this.drained?.()
  }

  private setStatus(change: Partial<EmbedderStatus>): void {
    this.current = { ...this.current, ...change }
    for (const listener of this.listeners) listener(this.current)
  }
}

function mergeProgress(
  list: EmbedderStatus['progress'],
  update: { file: string; loaded: number; total: number }
): EmbedderStatus['progress'] {
  const others = list.filter((p) => p.file !== update.file)
  return [...others, { file: update.file, loaded: update.loaded, total: update.total }]
}
