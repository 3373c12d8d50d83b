import { afterEach, describe, expect, it } from 'vitest'
import { contract } from '@shared/contract'
import { defaultIndexingThreads, indexingThreadsFor } from '@shared/indexingThreads'
import {
  EmbeddingCancelledError,
  type EmbedderStatus
} from '../../../src/main/workers/embedding/embedder'
import { EmbeddingPool, type PoolWorker } from '../../../src/main/workers/embedding/embeddingPool'
import { lengthBatches } from '../../../src/main/workers/embedding/lengthBatches'
import { expectStillAfter, pollUntil } from '../../support/poll'

/**
 * Issue #21: background texts batched by length, several indexing workers, queries on a
 * worker of their own, background work held while a turn runs. Workers here are fakes whose
 * batches end when the test says so.
 */

describe('lengthBatches', () => {
  const limits = { maxTexts: 4, maxPaddedChars: 100, capChars: 100 }

  it('groups texts of similar length, shortest first, so little is padded', () => {
    const lengths = [90, 10, 12, 50, 11, 48]
    expect(lengthBatches(lengths, limits)).toEqual([[1, 4, 2], [5, 3], [0]])
  })

  it('keeps every pass within the padded budget and the text count', () => {
    const lengths = Array.from({ length: 30 }, (_, i) => 5 + ((i * 37) % 60))
    const batches = lengthBatches(lengths, limits)
    expect(batches.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i))
    for (const batch of batches) {
      const longest = Math.max(...batch.map((i) => lengths[i] as number))
      expect(batch.length).toBeLessThanOrEqual(4)
      if (batch.length > 1) expect(batch.length * longest).toBeLessThanOrEqual(100)
    }
  })

  it('sends a text at or over the budget alone, counting it at the cap', () => {
    expect(lengthBatches([5_000, 100, 3], limits)).toEqual([[2], [0], [1]])
  })
})

describe('the indexing threads setting', () => {
  const update = contract.memory.updateSettings

  it('defaults to half the cores, at least one, and never runs more than the cores', () => {
    expect([1, 2, 3, 8].map(defaultIndexingThreads)).toEqual([1, 1, 1, 4])
    expect(indexingThreadsFor(null, 2)).toBe(1)
    expect(indexingThreadsFor(2, 2)).toBe(2)
    expect(indexingThreadsFor(8, 2)).toBe(2)
    expect(indexingThreadsFor(undefined, 16)).toBe(8)
  })

  it('accepts 1 to 16 or null (automatic) and refuses anything else', () => {
    const parse = (value: unknown) => update.input.safeParse({ indexingThreads: value }).success
    expect([1, 2, 16, null].map(parse)).toEqual([true, true, true, true])
    expect([0, 17, 1.5, -1, '2', true].map(parse)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false
    ])
  })
})

interface FakeWorker extends PoolWorker {
  lane: 'query' | 'indexing'
  /** Texts of each call, in order. */
  calls: string[][]
  /** Ends the oldest running call. */
  finish(): void
  running: number
}

const fakeStatus: EmbedderStatus = {
  state: 'ready',
  modelId: 'fake',
  dimension: 1,
  progress: [],
  error: null
}

function fakeWorker(lane: 'query' | 'indexing', autoFinish: boolean): FakeWorker {
  const pending: (() => void)[] = []
  const status = fakeStatus
  const worker: FakeWorker = {
    lane,
    calls: [],
    running: 0,
    ready: async () => ({ modelId: 'fake', dimension: 1 }),
    status: () => status,
    source: () => ({ kind: 'folder', root: '/models', name: 'fake' }),
    onStatus: () => () => {},
    cancel: () => 0,
    close: async () => {},
    embed: (texts) => {
      worker.calls.push([...texts])
      worker.running++
      return new Promise((resolve) => {
        const done = () => {
          worker.running--
          resolve(texts.map((t) => Float32Array.of(t.length)))
        }
        if (autoFinish) setTimeout(done, 1)
        else pending.push(done)
      })
    },
    finish: () => pending.shift()?.()
  }
  return worker
}

/**
 * A short window in which the pool could wrongly start a batch on `worker`: what is checked is
 * an absence, which polling cannot show. Shorter than the turn's hold (60 ms in that test), after
 * which a batch is due. Everything the pool should do is polled for instead.
 */
const startsNothing = (worker: () => FakeWorker | undefined) =>
  expectStillAfter(5, () => expect(worker()?.calls).toEqual([]))

/** Waits until `worker` has been handed its `count`-th batch. */
const handed = (worker: FakeWorker | undefined, count: number) =>
  pollUntil(() => (worker?.calls.length ?? 0) >= count, {
    what: `batch ${count} on the ${worker?.lane ?? 'missing'} worker`
  })

describe('EmbeddingPool', () => {
  const pools: EmbeddingPool[] = []
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()))
  })

  function pool(indexingThreads: number, options: { autoFinish?: boolean; holdMs?: number } = {}) {
    const workers: FakeWorker[] = []
    const created = new EmbeddingPool({
      indexingThreads,
      turnHoldMs: options.holdMs ?? 40,
      batches: { maxTexts: 4, maxPaddedChars: 40, capChars: 40 },
      lane: (lane) => {
        const worker = fakeWorker(lane, options.autoFinish ?? false)
        workers.push(worker)
        return worker
      }
    })
    pools.push(created)
    return { pool: created, workers, indexing: () => workers.filter((w) => w.lane === 'indexing') }
  }

  it('runs a batch on every indexing worker at once and answers each job in its order', async () => {
    const { pool: p, workers, indexing } = pool(2, { autoFinish: true })
    const texts = ['a'.repeat(30), 'bb', 'c'.repeat(25), 'dd', 'e'.repeat(35)]
    const vectors = await p.embed(texts, { tag: 'thread' })
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length))
    expect(indexing()).toHaveLength(2)
    for (const worker of indexing()) expect(worker.calls.length).toBeGreaterThan(0)
    // The query worker indexed nothing.
    expect(workers.find((w) => w.lane === 'query')?.calls).toEqual([])
  })

  it('serves a query on its own worker while every indexing worker is busy', async () => {
    const { pool: p, workers, indexing } = pool(1)
    const background = p.embed(['x'.repeat(30), 'y'.repeat(30)])
    await handed(indexing()[0], 1)
    expect(indexing()[0]?.running).toBe(1)
    const query = workers.find((w) => w.lane === 'query') as FakeWorker
    const asked = p.embed(['what did I say?'], { priority: 'query', role: 'query' })
    await handed(query, 1)
    query.finish()
    await expect(asked).resolves.toHaveLength(1)
    // The batch that was running when the query came is still running.
    expect(indexing()[0]?.running).toBe(1)
    indexing()[0]?.finish()
    // The second batch waits for the turn after the query (40 ms here).
    await handed(indexing()[0], 2)
    indexing()[0]?.finish()
    await expect(background).resolves.toHaveLength(2)
  })

  it('starts no background batch while a query runs and for the turn after it', async () => {
    const { pool: p, workers, indexing } = pool(1, { holdMs: 60 })
    await p.indexingReady()
    const query = workers.find((w) => w.lane === 'query') as FakeWorker
    const asked = p.embed(['q'], { priority: 'query' })
    const background = p.embed(['m'])
    await startsNothing(() => indexing()[0])
    query.finish()
    await asked
    // Held after the query answered: the turn is being built and sent.
    await startsNothing(() => indexing()[0])
    await handed(indexing()[0], 1)
    expect(indexing()[0]?.calls).toEqual([['m']])
    indexing()[0]?.finish()
    await expect(background).resolves.toHaveLength(1)
  })

  it('warms the query worker with queries embedded in the background, without holding indexing', async () => {
    const { pool: p, workers, indexing } = pool(1, { autoFinish: true })
    await p.embed(['warm-up'], { priority: 'background', role: 'query' })
    expect(workers.find((w) => w.lane === 'query')?.calls).toEqual([['warm-up']])
    await p.embed(['m'])
    expect(indexing()[0]?.calls).toEqual([['m']])
  })

  it('cancels a tag: queued texts are dropped, a running batch is let finish', async () => {
    const { pool: p, indexing } = pool(1)
    const doomed = p.embed(['a'.repeat(30), 'b'.repeat(30)], { tag: 'gone' })
    const kept = p.embed(['c'.repeat(30)], { tag: 'kept' })
    await handed(indexing()[0], 1)
    expect(p.cancel('gone')).toBe(1)
    await expect(doomed).rejects.toBeInstanceOf(EmbeddingCancelledError)
    indexing()[0]?.finish()
    await handed(indexing()[0], 2)
    indexing()[0]?.finish()
    await expect(kept).resolves.toHaveLength(1)
    // Only one of the cancelled job's texts ever reached a worker (the one already running).
    expect(
      indexing()[0]
        ?.calls.flat()
        .filter((t) => t !== 'c'.repeat(30)).length
    ).toBe(1)
  })

  it('indexes on the query worker when no indexing worker can load', async () => {
    const workers: FakeWorker[] = []
    const p = new EmbeddingPool({
      indexingThreads: 1,
      lane: (lane) => {
        const worker = fakeWorker(lane, true)
        if (lane === 'indexing') {
          worker.ready = () => Promise.reject(new Error('no memory'))
          worker.status = () => ({ ...fakeStatus, state: 'unavailable', error: 'no memory' })
        }
        workers.push(worker)
        return worker
      }
    })
    pools.push(p)
    await expect(p.embed(['m', 'n'])).resolves.toHaveLength(2)
    expect(
      workers
        .find((w) => w.lane === 'query')
        ?.calls.flat()
        .sort()
    ).toEqual(['m', 'n'])
  })

  it('starts or retires indexing workers when the setting changes', async () => {
    const { pool: p } = pool(1, { autoFinish: true })
    await p.indexingReady()
    expect(p.indexingLanes()).toBe(1)
    p.setIndexingThreads(3)
    expect(p.indexingLanes()).toBe(3)
    p.setIndexingThreads(2)
    expect(p.indexingLanes()).toBe(2)
  })
})
