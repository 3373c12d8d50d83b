/**
 * The embedder the app uses: one worker for queries and a user-set number of indexing workers
 * (issue #21). Workers rather than intra-op threads: two one-thread sessions indexed faster
 * than one two-thread session on our 2-core machine (docs/MEMORY.md, "Indexing"); and a query
 * needs a worker that is not in the middle of a batch: ONNX Runtime's `run` blocks its worker
 * until the pass ends, so a query sent to a busy worker waits for the whole batch.
 *
 * - Queries go to the query worker at once, never behind background work; so does text
 *   embedded as a query in the background (a warm-up), since it readies that worker.
 * - Indexing workers start when background work arrives and stop after a few idle minutes:
 *   each holds its own copy of the model (about 0.45 GB for e5), which a store with nothing
 *   left to index should not pay for.
 * - Background texts are batched by length (lengthBatches.ts) and handed to idle indexing
 *   workers, longest first so the last batches to finish are short ones.
 * - While a query is being embedded, and for a moment after (the turn is built and sent
 *   then), no new background batch starts; the indexing workers also run at a lower OS
 *   priority, so a batch already running gives way.
 */
import {
  EmbedderUnavailableError,
  EmbeddingCancelledError,
  EmbeddingQueueFullError,
  type EmbedOptions,
  type Embedder,
  type EmbedderStatus
} from './embedder'
import type { ModelSource } from './embeddingModels'
import type { EmbeddingClient } from './embeddingClient'
import { lengthBatches, type LengthBatchLimits } from './lengthBatches'

/** What the pool uses of a worker's client. */
export type PoolWorker = Pick<
  EmbeddingClient,
  'ready' | 'status' | 'embed' | 'cancel' | 'close' | 'onStatus' | 'source'
>

/** Starts a worker: the query lane over the configured source, indexing lanes over its folder. */
type LaneFactory = (lane: 'query' | 'indexing', source: ModelSource | null) => PoolWorker

export interface EmbeddingPoolOptions {
  lane: LaneFactory
  /** Indexing workers (the `indexingThreads` setting). */
  indexingThreads: number
  /** How long background work stays held after the last query answered. */
  turnHoldMs?: number
  batches?: LengthBatchLimits
  /** Background texts waiting at most; more is refused with `EmbeddingQueueFullError`. */
  maxQueued?: number
}

/** Idle indexing workers stop after this long without background work. */
const IDLE_STOP_MS = 5 * 60_000
/**
 * Covers the build and the request after a turn's last query (under 100 ms here, idle; the
 * previews while the user types hold it too).
 */
const TURN_HOLD_MS = 400
/**
 * About one 512-token window of mixed Chinese and English per pass: a 500-token message goes
 * alone, short lines go together (where batching pays: the per-pass overhead dominates them).
 */
const DEFAULT_BATCHES: LengthBatchLimits = { maxTexts: 16, maxPaddedChars: 2_000, capChars: 2_000 }

interface Job {
  texts: string[]
  tag: string | undefined
  vectors: (Float32Array | undefined)[]
  left: number
  settled: boolean
  resolve: (vectors: Float32Array[]) => void
  reject: (error: Error) => void
}

interface Unit {
  job: Job
  index: number
}

interface Lane {
  client: PoolWorker
  busy: boolean
  retiring: boolean
}

export class EmbeddingPool implements Embedder {
  private readonly query: PoolWorker
  private readonly lanes: Lane[] = []
  private readonly units: Unit[] = []
  /** Background jobs not yet answered (queued or in a worker). */
  private readonly jobs = new Set<Job>()
  /** The query worker, when it must index because no indexing worker could start. */
  private readonly fallback: Lane
  private wanted: number
  private queriesRunning = 0
  private holdTimer: ReturnType<typeof setTimeout> | null = null
  private idleTimer: ReturnType<typeof setTimeout> | null = null
  /** An indexing worker could not load or kept crashing: the query worker indexes instead. */
  private lanesFailed = false
  private closed = false

  constructor(private readonly options: EmbeddingPoolOptions) {
    this.wanted = Math.max(1, options.indexingThreads)
    this.query = options.lane('query', null)
    this.fallback = { client: this.query, busy: false, retiring: false }
    // Indexing workers load after the query worker, so the first search is not slowed by
    // several models loading at once, and read the folder it read (a download happens once).
    this.query
      .ready()
      .then(() => this.pump())
      .catch(() => {})
  }

  status(): EmbedderStatus {
    return this.query.status()
  }

  ready(): Promise<{ modelId: string; dimension: number }> {
    return this.query.ready()
  }

  onStatus(listener: (status: EmbedderStatus) => void): () => void {
    return this.query.onStatus(listener)
  }

  /** Starts the indexing workers now and resolves once all have loaded (bench, tests). */
  async indexingReady(): Promise<void> {
    await this.query.ready()
    this.resize()
    await Promise.all(this.lanes.map((lane) => lane.client.ready()))
  }

  /** Indexing workers now running (retiring ones excluded). */
  indexingLanes(): number {
    return this.lanes.filter((lane) => !lane.retiring).length
  }

  /** The user changed the setting: start or retire indexing workers (a running batch ends first). */
  setIndexingThreads(count: number): void {
    this.wanted = Math.max(1, count)
    if (this.lanes.length > 0) this.resize()
  }

  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (options.priority === 'query') return this.embedQuery(texts, options)
    // A search query embedded ahead of need (the start-up warm-up) warms the worker that
    // will embed the real ones; it waits behind them there, like any background work.
    if (options.role === 'query') return this.query.embed(texts, options)
    if (this.status().state === 'unavailable') {
      return Promise.reject(new EmbedderUnavailableError(this.status().error ?? 'unavailable'))
    }
    if (texts.length === 0) return Promise.resolve([])
    const limit = this.options.maxQueued ?? 1_024
    if (this.units.length + texts.length > limit) {
      return Promise.reject(new EmbeddingQueueFullError(limit))
    }
    return new Promise((resolve, reject) => {
      const job: Job = {
        texts: [...texts],
        tag: options.tag,
        vectors: texts.map(() => undefined),
        left: texts.length,
        settled: false,
        resolve,
        reject
      }
      this.jobs.add(job)
      job.texts.forEach((_, index) => this.units.push({ job, index }))
      if (this.idleTimer) clearTimeout(this.idleTimer)
      this.idleTimer = null
      this.pump()
    })
  }

  cancel(tag: string): number {
    let cancelled = this.query.cancel(tag)
    // A batch already in a worker finishes; the cancelled job's vectors from it are dropped.
    for (const job of [...this.jobs]) {
      if (job.tag !== tag) continue
      this.settle(job, new EmbeddingCancelledError())
      cancelled++
    }
    return cancelled
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (this.holdTimer) clearTimeout(this.holdTimer)
    if (this.idleTimer) clearTimeout(this.idleTimer)
    for (const job of [...this.jobs]) this.settle(job, new EmbeddingCancelledError())
    await Promise.all([this.query.close(), ...this.lanes.map((lane) => lane.client.close())])
  }

  private async embedQuery(texts: readonly string[], options: EmbedOptions) {
    this.queriesRunning++
    try {
      return await this.query.embed(texts, options)
    } finally {
      this.queriesRunning--
      this.holdBackground()
    }
  }

  /** No new batch until the turn that asked the query has been built and sent. */
  private holdBackground(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer)
    this.holdTimer = setTimeout(() => {
      this.holdTimer = null
      this.pump()
    }, this.options.turnHoldMs ?? TURN_HOLD_MS)
    this.holdTimer.unref?.()
  }

  /** The timer itself is the hold: a clock compared with it could read it as not yet over. */
  private held(): boolean {
    return this.queriesRunning > 0 || this.holdTimer !== null
  }

  private resize(): void {
    if (this.closed || this.query.status().state !== 'ready') return
    const source = this.query.source()
    while (this.indexingLanes() < this.wanted) {
      const lane: Lane = {
        client: this.options.lane('indexing', source),
        busy: false,
        retiring: false
      }
      this.lanes.push(lane)
      lane.client
        .ready()
        .then(() => this.pump())
        .catch(() => this.failed(lane))
    }
    for (const lane of this.lanes.filter((l) => !l.retiring).slice(this.wanted)) {
      lane.retiring = true
      if (!lane.busy) this.retire(lane)
    }
  }

  private retire(lane: Lane): void {
    const at = this.lanes.indexOf(lane)
    if (at !== -1) this.lanes.splice(at, 1)
    void lane.client.close()
    this.pump()
  }

  /** A worker that failed to load, or kept crashing, leaves indexing to the query worker. */
  private failed(lane: Lane): void {
    this.lanesFailed = true
    this.retire(lane)
  }

  /** Once nothing is queued or running, the indexing workers stop after IDLE_STOP_MS. */
  private stopWhenIdle(): void {
    if (this.idleTimer || this.units.length > 0 || this.lanes.some((l) => l.busy)) return
    if (this.lanes.length === 0) return
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null
      for (const lane of [...this.lanes]) {
        lane.retiring = true
        if (!lane.busy) this.retire(lane)
      }
    }, IDLE_STOP_MS)
    this.idleTimer.unref?.()
  }

  /**
   * Hands batches to idle workers, starting them if there is work and none runs. Should no
   * indexing worker be able to run, the query worker indexes, as the single worker did.
   */
  private pump(): void {
    if (this.closed || this.held()) return
    for (const lane of this.lanes.filter((l) => l.client.status().state === 'unavailable')) {
      this.lanesFailed = true
      this.lanes.splice(this.lanes.indexOf(lane), 1)
      void lane.client.close()
    }
    if (this.units.length > 0 && !this.lanesFailed) this.resize()
    const lanes =
      this.lanesFailed && this.lanes.length === 0
        ? [this.fallback]
        : this.lanes.filter((l) => !l.retiring && l.client.status().state === 'ready')
    for (const lane of lanes) {
      if (this.units.length === 0) break
      if (!lane.busy) this.runOn(lane)
    }
    this.stopWhenIdle()
  }

  private runOn(lane: Lane): void {
    const batch = this.nextBatch()
    lane.busy = true
    lane.client
      .embed(
        batch.map((unit) => unit.job.texts[unit.index] as string),
        { priority: 'background' }
      )
      .then((vectors) => {
        batch.forEach((unit, i) => this.deliver(unit, vectors[i] as Float32Array))
      })
      .catch((error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error))
        for (const unit of batch) this.settle(unit.job, failure)
      })
      .finally(() => {
        lane.busy = false
        if (lane.retiring) this.retire(lane)
        else this.pump()
      })
  }

  /** The longest batch of what is queued, taken out of the queue. */
  private nextBatch(): Unit[] {
    const lengths = this.units.map((unit) => (unit.job.texts[unit.index] as string).length)
    const batches = lengthBatches(lengths, this.options.batches ?? DEFAULT_BATCHES)
    const chosen = new Set(batches[batches.length - 1])
    const batch = this.units.filter((_, i) => chosen.has(i))
    for (let i = this.units.length - 1; i >= 0; i--) if (chosen.has(i)) this.units.splice(i, 1)
    return batch
  }

  private deliver(unit: Unit, vector: Float32Array): void {
    const job = unit.job
    if (job.settled) return
    job.vectors[unit.index] = vector
    if (--job.left === 0) {
      job.settled = true
      this.jobs.delete(job)
      job.resolve(job.vectors as Float32Array[])
    }
  }

  private settle(job: Job, error: Error): void {
    if (job.settled) return
    job.settled = true
    this.jobs.delete(job)
    job.reject(error)
    // Its other texts need not be embedded any more.
    for (let i = this.units.length - 1; i >= 0; i--) {
      if (this.units[i]?.job === job) this.units.splice(i, 1)
    }
  }
}
