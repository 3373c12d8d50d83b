/**
 * Message vector search at 10k and 100k vectors, through the app's own VectorStore (binary
 * codes in memory, exact re-scoring in SQLite) beside sqlite-vec's exact brute-force KNN over
 * the same vectors, with recall@10 of the former against the latter. Vectors are seeded,
 * clustered unit vectors of the embedding model's dimension: search cost does not depend on
 * what they mean, and clusters make recall a real test (uniform random vectors are easy).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/main/store/database'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import { clusteredVectors } from './memoryStore'

const DIMENSION = 512
const K = 10
/** What a build's search reads from each list (CANDIDATES_PER_LIST). */
const BUILD_LIST = 50
/** Messages in the short thread a scoped search looks in. */
const SHORT_THREAD = 20

const blob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

export interface VectorSearchFigures {
  vectors: number
  dimension: number
  queries: number
  twoStage: { p50: number; p95: number }
  exact: { p50: number; p95: number }
  recallAt10: number
  /**
   * The message lists as a build reads them (searchCandidates.ts): the input's and the
   * conversation's, 50 each, searched apart (before issue #21's one scan) and in one scan; and
   * one list of 50 scoped to a 20-message thread in the same store, beside the same list over
   * the whole store (what a scoped search cost when it scanned every code).
   */
  recallLists: {
    twoApart: { p50: number; p95: number }
    twoInOneScan: { p50: number; p95: number }
    wholeStore: { p50: number; p95: number }
    oneThread: { p50: number; p95: number }
  }
}

export function vectorSearchFigures(count: number, queryCount = 60): VectorSearchFigures {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-knn-'))
  try {
    const db = openDatabase(join(dir, 'bench.sqlite'))
    const sample = clusteredVectors(count, DIMENSION)
    db.prepare(
      "INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t', 'bench', 0, 0), ('s', 'short', 0, 0)"
    ).run()
    const insertMessage = db.prepare(
      "INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES (?, ?, 'user', 'x', 1, 0)"
    )
    // The store's messages, then a short thread's 20 (ids count + 1 … count + 20).
    db.transaction(() => {
      for (let i = 1; i <= count; i++) insertMessage.run('t', i)
      for (let i = 1; i <= SHORT_THREAD; i++) insertMessage.run('s', i)
    })()
    const store = new VectorStore(db)
    const { space } = store.activate(`bench|${DIMENSION}`, 'bench', DIMENSION, 0)
    db.exec(
      `CREATE VIRTUAL TABLE exact_knn USING vec0 (id INTEGER PRIMARY KEY, embedding float[${DIMENSION}] distance_metric=cosine)`
    )
    const insertExact = db.prepare('INSERT INTO exact_knn (id, embedding) VALUES (?, ?)')
    const batch: { id: number; vector: Float32Array }[] = []
    const flush = () => {
      store.putMessages(space, batch)
      db.transaction(() =>
        batch.forEach((row) => insertExact.run(BigInt(row.id), blob(row.vector)))
      )()
      batch.length = 0
    }
    for (let id = 1; id <= count + SHORT_THREAD; id++) {
      batch.push({ id, vector: sample() })
      if (batch.length === 1000) flush()
    }
    flush()

    const exactQuery = db.prepare(
      'SELECT id, distance FROM exact_knn WHERE embedding MATCH ? AND k = ? ORDER BY distance'
    )
    const queries = Array.from({ length: queryCount }, sample)
    store.nearestMessages(space, queries[0] as Float32Array, K) // loads the code index once
    const twoStage: number[] = []
    const exact: number[] = []
    let found = 0
    const lists = { twoApart: [], twoInOneScan: [], wholeStore: [], oneThread: [] } as Record<
      keyof VectorSearchFigures['recallLists'],
      number[]
    >
    const timed = (into: number[], run: () => unknown) => {
      const start = performance.now()
      run()
      into.push(performance.now() - start)
    }
    queries.forEach((query, i) => {
      const conversation = queries[(i + 1) % queries.length] as Float32Array
      timed(lists.twoApart, () => {
        store.nearestMessages(space, query, BUILD_LIST)
        store.nearestMessages(space, conversation, BUILD_LIST)
      })
      timed(lists.twoInOneScan, () =>
        store.nearestMessagesEach(space, [
          { vector: query, k: BUILD_LIST },
          { vector: conversation, k: BUILD_LIST }
        ])
      )
      timed(lists.wholeStore, () => store.nearestMessages(space, query, BUILD_LIST))
      timed(lists.oneThread, () => store.nearestMessages(space, query, BUILD_LIST, 's'))
    })
    for (const query of queries) {
      let start = performance.now()
      const approximate = store.nearestMessages(space, query, K)
      twoStage.push(performance.now() - start)
      start = performance.now()
      const truth = exactQuery.all(blob(query), K) as { id: number }[]
      exact.push(performance.now() - start)
      const truthIds = new Set(truth.map((row) => row.id))
      found += approximate.filter((hit) => truthIds.has(hit.id)).length
    }
    db.close()
    const spread = (list: number[]) => {
      list.sort((a, b) => a - b)
      return { p50: percentile(list, 50), p95: percentile(list, 95) }
    }
    return {
      vectors: count,
      dimension: DIMENSION,
      queries: queryCount,
      twoStage: spread(twoStage),
      exact: spread(exact),
      recallAt10: found / (queryCount * K),
      recallLists: {
        twoApart: spread(lists.twoApart),
        twoInOneScan: spread(lists.twoInOneScan),
        wholeStore: spread(lists.wholeStore),
        oneThread: spread(lists.oneThread)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
