import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { randomUnitVector, seededRandom } from '../../scripts/bench/syntheticThread'
import {
  inProcessMessageSearch,
  workerMessageSearch
} from '../../src/main/services/memory/messageSearch'
import { quotedTerms, recallTerms } from '../../src/main/services/memory/memoryRanking'
import { openDatabase } from '../../src/main/store/database'
import { MemoryRepository } from '../../src/main/store/memoryRepository'
import { fullTextIds, type FullTextQuery } from '../../src/main/store/search/fullTextIds'
import { RecallRepository } from '../../src/main/store/search/recallRepository'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import {
  closeSearchWorkers,
  SearchWorkerClient,
  startSearchWorkers
} from '../../src/main/workers/search/searchWorkerClient'
import { prepareSearchWorker } from '../support/embeddings'
import { pollUntil } from '../support/poll'
import { useTempDir } from '../support/tempDir'

/**
 * Issue #16: the nearest messages searched in a worker on its own connection, with the index
 * the main connection's writes keep in step, against the same search on the main thread.
 */

const tempDir = useTempDir()
const THREADS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b']
const DIMENSION = 64
let workerPath: string
const clients: SearchWorkerClient[] = []

beforeAll(async () => {
  workerPath = await prepareSearchWorker()
}, 120_000)
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

const unit = (seed: number) => randomUnitVector(seededRandom(seed), DIMENSION)

function store(messages: number) {
  const path = join(tempDir(), 'store.sqlite')
  const db = openDatabase(path)
  const thread = db.prepare(
    'INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, 0, 0)'
  )
  THREADS.forEach((id, i) => thread.run(id, `thread ${i}`))
  const insert = db.prepare(
    `INSERT INTO messages (thread_id, seq, role, content, token_count, created_at)
     VALUES (?, ?, 'user', ?, 10, 0) RETURNING id`
  )
  const add = (count: number, from: number) =>
    db.transaction(() =>
      Array.from(
        { length: count },
        (_, i) =>
          insert.pluck().get(THREADS[(from + i) % 2], from + i + 1, `message ${from + i}`) as number
      )
    )()
  const vectors = new VectorStore(db)
  const { space } = vectors.activate('test|64', 'test', DIMENSION, 0)
  const ids = add(messages, 0)
  vectors.putMessages(
    space,
    ids.map((id) => ({ id, vector: unit(id) }))
  )
  return { path, db, vectors, space, add }
}

describe('the search worker', () => {
  it('finds what the main thread finds, and the vectors written after its index loaded', async () => {
    const { path, db, vectors, space, add } = store(3_000)
    const client = new SearchWorkerClient(workerPath, { databasePath: path })
    clients.push(client)
    const logged: string[] = []
    const search = workerMessageSearch(vectors, { vectors: client, fullText: client }, (message) =>
      logged.push(message)
    )
    await search.preload(space)
    // Written on the main connection after the worker's load: the worker hears of them.
    const late = add(20, 3_000)
    vectors.putMessages(
      space,
      late.map((id) => ({ id, vector: unit(id) }))
    )

    const local = inProcessMessageSearch(new VectorStore(openDatabase(path)))
    for (const [seed, k, thread] of [
      [1, 10, undefined],
      [2, 100, undefined],
      [3, 50, THREADS[1]]
    ] as const) {
      const query = unit(seed)
      expect(await search.nearest(space, [{ vector: query, k }], thread)).toEqual(
        await local.nearest(space, [{ vector: query, k }], thread)
      )
    }
    const newest = late.at(-1) as number
    expect((await search.nearest(space, [{ vector: unit(newest), k: 1 }]))[0]?.[0]?.id).toBe(newest)
    expect(logged).toEqual([])
    db.close()
  })

  it('reads the full-text lists on its own connection, as the main thread reads them', async () => {
    const { path, db, vectors, add } = store(2_000)
    const memories = new MemoryRepository(db)
    for (const [i, content] of [
      'message about tea',
      'a memory of message 17',
      'coffee'
    ].entries()) {
      memories.insert({
        content,
        category: 'fact',
        sourceThreadId: null,
        sourceMessageId: null,
        now: i,
        reason: 'test'
      })
    }
    // The full-text lists have their own instance: the vectors' can be gone.
    const vectorClient = new SearchWorkerClient(workerPath, { databasePath: path })
    const textClient = new SearchWorkerClient(workerPath, { databasePath: path })
    clients.push(vectorClient, textClient)
    const logged: string[] = []
    const search = workerMessageSearch(
      vectors,
      { vectors: vectorClient, fullText: textClient },
      (message) => logged.push(message)
    )
    await vectorClient.close()
    const recall = new RecallRepository(db)
    const here = (query: FullTextQuery) => () => fullTextIds(memories, recall, query)
    const notHere = () => {
      throw new Error('read on the main thread')
    }
    add(5, 2_000) // written after the worker opened: its connection reads them too
    for (const [text, threadId] of [
      ['message 17', undefined],
      ['message 2003', undefined],
      ['message 1', THREADS[1]]
    ] as const) {
      const query: FullTextQuery = {
        terms: quotedTerms(recallTerms(text)),
        limit: 50,
        kinds: ['memory', 'message'],
        ...(threadId && { threadId })
      }
      const expected = here(query)()
      expect(expected.message.length).toBeGreaterThan(0)
      expect(await search.fullText(query, notHere)).toEqual(expected)
    }
    expect(
      (await search.fullText({ terms: ['"message"'], limit: 5, kinds: ['memory'] }, notHere)).memory
    ).toHaveLength(2)
    expect(logged).toEqual([])
    db.close()
  })

  it("copies the store's write-ahead log itself, so a long paste's commit on the main thread does not", async () => {
    const { path, db } = store(10)
    const workers = startSearchWorkers(workerPath, { databasePath: path })
    try {
      const before = statSync(path).size
      // 2 M characters, 6 MB of UTF-8: SQLite's own checkpoint (at 1,000 pages, 4 MB) ran
      // inside this commit, on the main thread, for 50-80 ms.
      db.prepare(
        `INSERT INTO messages (thread_id, seq, role, content, token_count, created_at)
         VALUES (?, 1000, 'user', ?, 1, 0)`
      ).run(THREADS[0], '一'.repeat(2_000_000))
      expect(statSync(path).size).toBeLessThan(before + 1_000_000)
      await pollUntil(() => statSync(path).size > before + 6_000_000 || undefined, {
        what: 'the paste copied from the log into the store file',
        timeoutMs: 10_000
      })
    } finally {
      await closeSearchWorkers(workers)
    }
    db.close()
  })

  it('searches on the main thread once the worker is gone, and says so once', async () => {
    const { path, db, vectors, space } = store(500)
    const client = new SearchWorkerClient(workerPath, { databasePath: path })
    const logged: string[] = []
    const search = workerMessageSearch(vectors, { vectors: client, fullText: client }, (message) =>
      logged.push(message)
    )
    await search.preload(space)
    await client.close()
    const query = unit(42)
    const expected = vectors.nearestMessages(space, query, 20)
    expect(await search.nearest(space, [{ vector: query, k: 20 }])).toEqual([expected])
    expect(await search.nearest(space, [{ vector: query, k: 5 }])).toEqual([expected.slice(0, 5)])
    expect(logged).toEqual(['the search worker failed; searching on the main thread'])
    db.close()
  })
})
