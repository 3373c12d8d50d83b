import { yieldToEventLoop } from '@shared/eventLoop'
import { EmbeddingCancelledError, type Embedder } from '../../workers/embedding/embedder'
import { spaceKey, type EmbeddingModelSpec } from '../../workers/embedding/embeddingModels'
import type { EmbeddingQueueRepository, QueuedItem } from '../../store/embeddingQueueRepository'
import type { VectorStore } from '../../store/vectors/vectorStore'
import type { VectorSpace } from '../../store/vectors/vectorSpaces'
import { IndexingRate } from './indexingRate'

/** The model that searches and indexing use, once its vector space is active. */
export interface ActiveModel {
  embedder: Embedder
  spec: EmbeddingModelSpec
  space: VectorSpace
}

export interface MemoryIndexerDeps {
  queue: EmbeddingQueueRepository
  vectors: VectorStore
  now: () => number
  log: (message: string, error: unknown) => void
  /** Called when progress or the model's state changed (throttled by the caller's needs). */
  changed: () => void
  /**
   * Items read from the queue per round. The embedder batches them by length over its
   * workers; enough that several workers stay busy to the end of a round.
   */
  batchSize?: number
  /** How often an idle indexer looks at the queue again (new messages also wake it). */
  idleMs?: number
  /** A model's space became active: searches can start (createServices warms them up). */
  activated?: (model: ActiveModel) => void
}

/**
 * Embeds every queued message and memory in the background, newest first, into the active
 * vector space. The queue is persistent (store/embeddingQueueRepository.ts), so work left at
 * quit resumes at the next start. A model change activates a new space and re-queues all items;
 * the old space is dropped once the new one is complete.
 */
export class MemoryIndexer {
  private runtime: { embedder: Embedder; spec: EmbeddingModelSpec; space?: VectorSpace } | null =
    null
  private stopped = true
  private running: Promise<void> | null = null
  private wakeUp: (() => void) | null = null
  private idleWaiters: (() => void)[] = []
  private idle = false
  private readonly batchSize: number
  private readonly idleMs: number
  private readonly rate = new IndexingRate()

  constructor(private readonly deps: MemoryIndexerDeps) {
    this.batchSize = deps.batchSize ?? 32
    this.idleMs = deps.idleMs ?? 1_000
  }

  /** Uses `embedder` from now on (null: none). Its space is activated once the model loads. */
  setEmbedder(embedder: Embedder | null, spec: EmbeddingModelSpec | null): void {
    if (!embedder || !spec) {
      this.runtime = null
      this.deps.changed()
      return
    }
    const runtime: { embedder: Embedder; spec: EmbeddingModelSpec; space?: VectorSpace } = {
      embedder,
      spec
    }
    this.runtime = runtime
    this.rate.reset()
    embedder.onStatus(() => this.deps.changed())
    embedder
      .ready()
      .then(({ modelId, dimension }) => {
        if (this.runtime !== runtime) return
        const { space, switched } = this.deps.vectors.activate(
          spaceKey(spec, dimension),
          modelId,
          dimension,
          this.deps.now()
        )
        if (switched) this.deps.queue.retryFailed()
        runtime.space = space
        this.deps.changed()
        this.wake()
        const model = this.active()
        if (model) this.deps.activated?.(model)
      })
      .catch((error: unknown) => {
        this.deps.log('the embedding model could not be loaded; recall uses full text only', error)
        this.deps.changed()
      })
  }

  /** The model and space searches should use, or null while none is ready. */
  active(): ActiveModel | null {
    const runtime = this.runtime
    if (!runtime?.space || runtime.embedder.status().state !== 'ready') return null
    return { embedder: runtime.embedder, spec: runtime.spec, space: runtime.space }
  }

  embedder(): Embedder | null {
    return this.runtime?.embedder ?? null
  }

  /** Items embedded per second lately, and the time `pending` items will take at that rate. */
  throughput(pending: number): { itemsPerSecond: number | null; secondsLeft: number | null } {
    return { itemsPerSecond: this.rate.perSecond(), secondsLeft: this.rate.secondsLeft(pending) }
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.running = this.loop()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.wake()
    await this.running
    this.running = null
  }

  /** New work was queued (a message was stored): look now instead of at the next poll. */
  wake(): void {
    this.wakeUp?.()
  }

  /** Drops a deleted thread's queued embedding work; its rows already left the queue. */
  cancelThread(threadId: string): void {
    this.runtime?.embedder.cancel(threadId)
  }

  /** Resolves once the queue is empty (for tests and the benchmark). */
  async drained(timeoutMs = 60_000): Promise<void> {
    this.idle = false
    this.wake()
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('indexing did not finish in time')),
        timeoutMs
      )
      this.idleWaiters.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const model = this.active()
      const items = model ? this.deps.queue.next(this.batchSize) : []
      if (!model || items.length === 0) {
        if (model && this.deps.vectors.retired().length > 0) {
          this.deps.vectors.dropRetired()
          this.deps.changed()
        }
        if (model) this.markIdle()
        await this.sleep()
        continue
      }
      const started = this.deps.now()
      const written = await this.index(model, items)
      this.rate.record(written, this.deps.now() - started)
      this.deps.changed()
      await yieldToEventLoop()
    }
    this.markIdle()
  }

  /**
   * One embedding call per thread, so deleting a thread can cancel just its part. Resolves
   * with how many items got their vector.
   */
  private async index(model: ActiveModel, items: QueuedItem[]): Promise<number> {
    const groups = new Map<string, QueuedItem[]>()
    for (const item of items) {
      const tag = item.threadId ?? 'memories'
      groups.set(tag, [...(groups.get(tag) ?? []), item])
    }
    const results = await Promise.allSettled(
      [...groups].map(async ([tag, group]) => ({
        group,
        vectors: await model.embedder.embed(
          group.map((item) => item.content),
          { priority: 'background', tag }
        )
      }))
    )
    // A model switched mid-batch: these vectors belong to the old space, drop them.
    if (this.active()?.space.id !== model.space.id) return 0
    let written = 0
    for (const [index, result] of results.entries()) {
      const group = [...groups.values()][index] as QueuedItem[]
      if (result.status === 'rejected') {
        if (result.reason instanceof EmbeddingCancelledError) continue
        this.deps.log(`embedding ${group.length} item(s) failed`, result.reason)
        this.deps.queue.failed(group)
        continue
      }
      const rows = group.map((item, i) => ({
        kind: item.kind,
        id: item.id,
        vector: result.value.vectors[i] as Float32Array
      }))
      try {
        const messages = rows.filter((r) => r.kind === 'message')
        const memories = rows.filter((r) => r.kind === 'memory')
        if (messages.length > 0) this.deps.vectors.putMessages(model.space, messages)
        if (memories.length > 0) this.deps.vectors.putMemories(model.space, memories)
        written += rows.length
      } catch (error) {
        this.deps.log('writing vectors failed', error)
        this.deps.queue.failed(group)
      }
    }
    return written
  }

  private markIdle(): void {
    this.idle = true
    for (const resolve of this.idleWaiters.splice(0)) resolve()
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.idleMs)
      timer.unref?.()
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.wakeUp = () => {
        this.wakeUp = null
        done()
      }
    })
  }

  isIdle(): boolean {
    return this.idle
  }
}
