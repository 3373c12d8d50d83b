/**
 * The main-process side of the search worker (searchWorker.ts): requests by id,
 * in the order sent, so a vector written before a search is in the index the search reads.
 */
import { Worker } from 'node:worker_threads'
import type { VectorHit, VectorQuery } from '../../store/vectors/vectorStore'
import type { VectorSpace } from '../../store/vectors/vectorSpaces'
import type { IndexedVector } from '../../store/vectors/vectorIndexCache'
import type { FullTextIds, FullTextQuery } from '../../store/search/fullTextIds'
import { WAL_CHECKPOINT_EVERY_MS } from '../../store/walCheckpoints'
import type { FromSearchWorker, SearchWorkerData, ToSearchWorker } from './searchWorkerProtocol'

type Done = Extract<FromSearchWorker, { type: 'done' }>

export class SearchWorkerClient {
  private readonly worker: Worker
  private readonly waiting = new Map<
    number,
    { resolve: (answer: Done) => void; reject: (error: Error) => void }
  >()
  private nextId = 1
  /** Why the worker stopped answering; every later call fails at once with it. */
  private failure: Error | null = null

  constructor(workerPath: string, data: SearchWorkerData) {
    this.worker = new Worker(workerPath, { workerData: data })
    this.worker.on('message', (message: FromSearchWorker) => {
      const call = this.waiting.get(message.id)
      this.waiting.delete(message.id)
      if (message.type === 'done') call?.resolve(message)
      else call?.reject(new Error(message.message))
    })
    this.worker.on('error', (error) => this.fail(error))
    this.worker.on('exit', (code) => this.fail(new Error(`the search worker exited (${code})`)))
  }

  preload(space: VectorSpace): Promise<void> {
    return this.call({ type: 'preload', id: this.nextId++, space }).then(() => undefined)
  }

  indexed(spaceId: number, rows: IndexedVector[]): void {
    if (!this.failure) this.send({ type: 'indexed', spaceId, rows })
  }

  /** Each query's nearest messages (VectorStore.nearestMessagesEach). */
  nearest(
    space: VectorSpace,
    queries: readonly VectorQuery[],
    threadId?: string
  ): Promise<VectorHit[][]> {
    return this.call({
      type: 'nearest',
      id: this.nextId++,
      space,
      queries: [...queries],
      ...(threadId !== undefined && { threadId })
    }).then((answer) => answer.lists ?? [])
  }

  fullText(query: FullTextQuery): Promise<FullTextIds> {
    return this.call({ type: 'fullText', id: this.nextId++, ...query }).then(
      (answer) => answer.ids ?? { memory: [], message: [] }
    )
  }

  async close(): Promise<void> {
    this.fail(new Error('the search worker was closed'))
    await this.worker.terminate()
  }

  private call(message: Extract<ToSearchWorker, { id: number }>): Promise<Done> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      this.waiting.set(message.id, { resolve, reject })
      this.send(message)
    })
  }

  private send(message: ToSearchWorker): void {
    this.worker.postMessage(message)
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const call of this.waiting.values()) call.reject(this.failure)
    this.waiting.clear()
  }
}

/**
 * Memory search's two instances of this worker, each on its own thread and connection: one
 * holds the message code index and finds the nearest messages, the other only reads the
 * full-text lists, so neither waits behind the other (in one worker the lists queued behind
 * the vectors: 15-30 ms more per send). The second, idle between sends, also checkpoints the
 * store's write-ahead log, which would otherwise happen inside a commit on the main thread.
 */
export interface SearchWorkers {
  vectors: SearchWorkerClient
  fullText: SearchWorkerClient
}

export function startSearchWorkers(path: string, data: SearchWorkerData): SearchWorkers {
  return {
    vectors: new SearchWorkerClient(path, data),
    fullText: new SearchWorkerClient(path, { ...data, checkpointEveryMs: WAL_CHECKPOINT_EVERY_MS })
  }
}

export async function closeSearchWorkers(workers: SearchWorkers): Promise<void> {
  await Promise.all([workers.vectors.close(), workers.fullText.close()])
}
