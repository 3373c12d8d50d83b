/**
 * Embedding latency, indexing throughput and memory for each model the app can use
 * (multilingual-e5-small and bge-small-zh-v1.5, both int8), in the app's real worker through
 * the app's EmbeddingClient with its default batching:
 *
 * - per query: one short text at a time with the query role, as a memory search embeds its query;
 * - indexing: realistic chat messages of 200-500 tokens (o200k, the same texts for both models),
 *   Chinese, English and mixed, queued as the indexer queues a thread; texts/s and tokens/s;
 * - worker memory: each model runs in a fresh child process (`--embedding-child`), whose RSS
 *   with the model loaded and after indexing is reported beside the bare process's.
 */
import { fork } from 'node:child_process'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import type { EmbeddingModelId } from '../../src/shared/embeddingModelIds'
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

/** Seeded, so both models and every run embed the same messages. */
function seeded(seed: number): () => number {
  let state = seed
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
}

/**
 * Chat messages of 200-500 o200k tokens: paragraphs of the phrases a user writes (plans,
 * preferences, code questions), one language or both, numbered so none repeats.
 */
export function realisticMessages(count: number, phrases: readonly string[]): string[] {
  const random = seeded(11)
  return Array.from({ length: count }, (_, i) => {
    const target = 200 + Math.floor(random() * 300)
    const parts = [`(${i})`]
    let tokens = 0
    while (tokens < target) {
      const phrase = phrases[Math.floor(random() * phrases.length)] as string
      parts.push(phrase)
      tokens += o200kCounter.count(phrase) + 1
    }
    return parts.join(' ')
  })
}

export interface EmbeddingFigures {
  model: EmbeddingModelId
  threads: number
  dimension: number
  loadMs: number
  /** One query-role text per call. */
  query: Timing
  indexing: {
    texts: number
    tokens: number
    ms: number
    textsPerSecond: number
    tokensPerSecond: number
  }
  /** Process RSS in MB: bare (before the worker starts), loaded (after the first query), after indexing. */
  rss: { bareMb: number; loadedMb: number; peakMb: number }
}

const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20)

async function measure(
  workerPath: string,
  modelsRoot: string,
  model: EmbeddingModelId,
  threads: number,
  quick: boolean,
  phrases: readonly string[]
): Promise<EmbeddingFigures> {
  const bareMb = mb()
  const started = performance.now()
  const client = new EmbeddingClient({
    workerPath,
    spec: modelSpec(model),
    source: { kind: 'folder', root: modelsRoot, name: model },
    threads
  })
  try {
    const { dimension } = await client.ready()
    const loadMs = performance.now() - started
    let n = 0
    const ask = () => client.embed([text(n++)], { priority: 'query', role: 'query' })
    for (let i = 0; i < 10; i++) await ask()
    const loadedMb = mb()
    const query = await timeAsync(quick ? 40 : 100, ask)
    const messages = realisticMessages(quick ? 24 : 64, phrases)
    const tokens = messages.reduce((sum, m) => sum + o200kCounter.count(m), 0)
    const indexStarted = performance.now()
    await client.embed(messages, { priority: 'background', tag: 'bench' })
    const ms = performance.now() - indexStarted
    return {
      model,
      threads,
      dimension,
      loadMs,
      query,
      indexing: {
        texts: messages.length,
        tokens,
        ms,
        textsPerSecond: messages.length / (ms / 1000),
        tokensPerSecond: tokens / (ms / 1000)
      },
      rss: { bareMb, loadedMb, peakMb: mb() }
    }
  } finally {
    await client.close()
  }
}

/** Runs `measure` in a fresh child process of this bench, so each model's RSS is its own. */
export function embeddingFigures(
  benchPath: string,
  model: EmbeddingModelId,
  threads: number,
  quick: boolean
): Promise<EmbeddingFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(
      benchPath,
      ['--embedding-child', JSON.stringify({ model, threads, quick })],
      { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }
    )
    child.on('message', (message) => resolve(message as EmbeddingFigures))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the embedding bench for ${model} exited with ${code}`))
    })
  })
}

/** The child side: measures, sends the figures to the parent, exits. */
export async function embeddingChild(
  argument: string,
  workerPath: string,
  modelsRoot: string,
  phrases: readonly string[]
): Promise<void> {
  const { model, threads, quick } = JSON.parse(argument) as {
    model: EmbeddingModelId
    threads: number
    quick: boolean
  }
  const figures = await measure(workerPath, modelsRoot, model, threads, quick, phrases)
  await new Promise<void>((resolve) => process.send?.(figures, () => resolve()))
}

/** One ONNX thread (the app's setting on 2 cores, and the query target's); all cores unless quick. */
export function embeddingThreadCounts(quick: boolean): number[] {
  const app = Math.max(1, Math.floor(cpus().length / 2))
  const counts = [...new Set([1, app])]
  return quick || cpus().length <= Math.max(...counts) ? counts : [...counts, cpus().length]
}

export const modelsRootOf = (modelFolder: string) => join(modelFolder, '../..')
