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
   * The message list as a build's recall reads it (memory search, hybridSearch.ts): before
   * issue #10 one query at k = 100; now the input and the conversation, two lists at k = 400
   * (the limit counts items; Hamming re-scoring stays capped at 4,000 codes).
   */
  recallLists: { oneAt100: { p50: number; p95: number }; twoAt400: { p50: number; p95: number } }
}

export function vectorSearchFigures(count: number, queryCount = 60): VectorSearchFigures {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-knn-'))
  try {
    const db = openDatabase(join(dir, 'bench.sqlite'))
    const sample = clusteredVectors(count, DIMENSION)
    db.prepare(
      "INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t', 'bench', 0, 0)"
    ).run()
    const insertMessage = db.prepare(
      "INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES ('t', ?, 'user', 'x', 1, 0)"
    )
    db.transaction(() => {
      for (let i = 1; i <= count; i++) insertMessage.run(i)
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
    for (let id = 1; id <= count; id++) {
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
    const oneAt100: number[] = []
    const twoAt400: number[] = []
    let found = 0
    queries.forEach((query, i) => {
      let start = performance.now()
      store.nearestMessages(space, query, 100)
      oneAt100.push(performance.now() - start)
      start = performance.now()
      store.nearestMessages(space, query, 400)
      store.nearestMessages(space, queries[(i + 1) % queries.length] as Float32Array, 400)
      twoAt400.push(performance.now() - start)
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
    for (const list of [twoStage, exact, oneAt100, twoAt400]) list.sort((a, b) => a - b)
    return {
      vectors: count,
      dimension: DIMENSION,
      queries: queryCount,
      twoStage: { p50: percentile(twoStage, 50), p95: percentile(twoStage, 95) },
      exact: { p50: percentile(exact, 50), p95: percentile(exact, 95) },
      recallAt10: found / (queryCount * K),
      recallLists: {
        oneAt100: { p50: percentile(oneAt100, 50), p95: percentile(oneAt100, 95) },
        twoAt400: { p50: percentile(twoAt400, 50), p95: percentile(twoAt400, 95) }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
