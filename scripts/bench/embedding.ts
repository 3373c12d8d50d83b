/**
 * Embedding latency and throughput on the real model (bge-small-zh-v1.5, int8) in the app's
 * real worker through the app's EmbeddingClient. Per query: one short text at a time, as a
 * memory search embeds its query. Throughput: batches of 8, 16 and 32 texts, beside the
 * baseline of embedding the same texts one call at a time, measured in the same run. ONNX
 * threads: the app's setting (half the cores), and all cores unless quick.
 */
import { cpus } from 'node:os'
import { join } from 'node:path'
import { EmbeddingClient } from '../../src/main/workers/embeddingClient'
import { DEFAULT_MODEL_ID, modelSpec } from '../../src/main/workers/embeddingModels'
import { timeAsync, type Timing } from './timing'

const SENTENCES = [
  'I prefer tea over coffee in the morning.',
  '我对花生过敏，点菜的时候请注意。',
  'The quarterly tax report is due next Friday, remind me on Wednesday.',
  '我们下周三要去杭州出差，帮我看看高铁的时间。',
  'Can you refactor this function so it does not allocate in the loop?',
  '这个接口返回的金额单位是分，不是元。'
]
/** Numbered so that no two texts are the same (the worker has no cache, but be explicit). */
const text = (i: number): string => `${SENTENCES[i % SENTENCES.length]} (${i})`

export interface EmbeddingFigures {
  threads: number
  dimension: number
  loadMs: number
  /** One text per call. */
  query: Timing
  /** Texts per second when every text is its own call (the baseline for batching). */
  unbatchedTextsPerSecond: number
  batches: { size: number; ms: number; textsPerSecond: number }[]
}

export async function embeddingFigures(
  workerPath: string,
  modelFolder: string,
  threads: number,
  quick: boolean
): Promise<EmbeddingFigures> {
  const started = performance.now()
  const client = new EmbeddingClient({
    workerPath,
    spec: modelSpec(DEFAULT_MODEL_ID),
    source: { kind: 'folder', root: join(modelFolder, '../..'), name: DEFAULT_MODEL_ID },
    threads,
    maxBatch: 32
  })
  try {
    const { dimension } = await client.ready()
    const loadMs = performance.now() - started
    let n = 0
    for (let i = 0; i < 10; i++) await client.embed([text(n++)], { priority: 'query' })
    const query = await timeAsync(quick ? 40 : 100, () =>
      client.embed([text(n++)], { priority: 'query' })
    )
    const runs = quick ? 3 : 8
    const batches = []
    for (const size of [8, 16, 32]) {
      const { p50 } = await timeAsync(runs, () =>
        client.embed(
          Array.from({ length: size }, () => text(n++)),
          { priority: 'background' }
        )
      )
      batches.push({ size, ms: p50, textsPerSecond: Math.round(size / (p50 / 1000)) })
    }
    return {
      threads,
      dimension,
      loadMs,
      query,
      unbatchedTextsPerSecond: Math.round(1000 / query.p50),
      batches
    }
  } finally {
    await client.close()
  }
}

/** The app gives ONNX half the cores (EmbeddingClient's default); all cores is the comparison. */
export function embeddingThreadCounts(quick: boolean): number[] {
  const app = Math.max(1, Math.floor(cpus().length / 2))
  return quick || cpus().length === app ? [app] : [app, cpus().length]
}
