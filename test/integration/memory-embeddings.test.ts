import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EmbeddingCancelledError,
  EmbeddingQueueFullError
} from '../../src/main/workers/embedding/embedder'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { prepareEmbeddings, testEmbedder } from '../support/embeddings'
import { pollUntil } from '../support/poll'

let workerPath: string
let embedder: EmbeddingClient

beforeAll(async () => {
  workerPath = await prepareEmbeddings()
  embedder = testEmbedder(workerPath)
  await embedder.ready()
}, 300_000)
afterAll(() => embedder?.close())

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, x, i) => sum + x * (b[i] as number), 0)

async function similarity(a: string, b: string): Promise<number> {
  const [va, vb] = await embedder.embed([a, b])
  return cosine(va as Float32Array, vb as Float32Array)
}

describe('the embedding worker (real bge-small-zh-v1.5, offline)', () => {
  it('loads from the cached folder and returns unit-length 512-d vectors', async () => {
    expect(embedder.status()).toMatchObject({
      state: 'ready',
      dimension: 512,
      modelId: 'Xenova/bge-small-zh-v1.5'
    })
    const [vector] = await embedder.embed(['I prefer tea over coffee in the morning.'])
    expect(vector).toHaveLength(512)
    expect(Math.sqrt(cosine(vector as Float32Array, vector as Float32Array))).toBeCloseTo(1, 4)
  })

  it('puts paraphrases closer than unrelated text, in English, Chinese and across them', async () => {
    const pairs = {
      english: await similarity(
        'I am allergic to peanuts.',
        'Peanuts make me sick, I cannot eat them.'
      ),
      chinese: await similarity(
        '我不吃辣，也不喜欢太甜的东西。',
        '我吃不了辣的食物，甜食也不太喜欢。'
      ),
      crossLingual: await similarity('I do not eat spicy food.', '我不吃辣。'),
      unrelatedEnglish: await similarity(
        'I am allergic to peanuts.',
        'The quarterly tax report is due next Friday.'
      ),
      unrelatedChinese: await similarity(
        '我不吃辣，也不喜欢太甜的东西。',
        '这个函数的时间复杂度是多少？'
      ),
      unrelatedCross: await similarity('I do not eat spicy food.', '服务器的磁盘空间快满了。')
    }
    console.info('[memory-embeddings] cosine similarities', pairs)
    expect(pairs.english).toBeGreaterThan(pairs.unrelatedEnglish)
    expect(pairs.chinese).toBeGreaterThan(pairs.unrelatedChinese + 0.3)
    expect(pairs.english).toBeGreaterThan(pairs.unrelatedEnglish + 0.2)
    expect(pairs.crossLingual).toBeGreaterThan(pairs.unrelatedCross)
  })

  it('answers a batch with one vector per text, in order, the same as one by one', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Sentence number ${i}: 第${i}句话。`)
    const batch = await embedder.embed(texts)
    const single = await embedder.embed([texts[17] as string])
    expect(batch).toHaveLength(40)
    // Dynamic int8 quantisation makes a vector depend slightly on its batch (about 1 %).
    expect(cosine(batch[17] as Float32Array, single[0] as Float32Array)).toBeGreaterThan(0.98)
  })

  it('lets a query overtake queued background work, and cancels work by tag', async () => {
    const order: string[] = []
    const background = Array.from({ length: 6 }, (_, i) =>
      embedder
        .embed(
          Array.from({ length: 16 }, (_, j) => `background ${i}-${j} `.repeat(20)),
          { tag: `t${i % 2}` }
        )
        .then(
          () => order.push(`bg${i}`),
          (error: unknown) =>
            order.push(error instanceof EmbeddingCancelledError ? `cancelled${i}` : 'error')
        )
    )
    const query = embedder
      .embed(['what do I drink?'], { priority: 'query' })
      .then(() => order.push('query'))
    expect(embedder.cancel('t1')).toBeGreaterThan(0)
    await Promise.all([...background, query])
    expect(order.indexOf('query')).toBeLessThan(order.indexOf('bg2'))
    expect(order.filter((o) => o.startsWith('cancelled')).length).toBeGreaterThanOrEqual(2)
  })

  it('sends each query job on its own, so a short query is not padded to a long one', async () => {
    const host = (embedder as unknown as { host: { post(message: unknown): void } }).host
    const sent: string[][] = []
    const post = host.post.bind(host)
    host.post = (message: unknown) => {
      const { type, texts } = message as { type: string; texts?: string[] }
      if (type === 'embed' && texts) sent.push(texts)
      post(message)
    }
    try {
      // Queued behind a background batch, the two queries wait together, as in a memory search.
      const busy = embedder.embed(['background '.repeat(200)])
      const question = embedder.embed(['what do I drink?'], { priority: 'query' })
      const conversation = embedder.embed(['we talked about tea '.repeat(30)], {
        priority: 'query'
      })
      const more = embedder.embed(['a', 'b'])
      await Promise.all([busy, question, conversation, more])
      expect(sent).toEqual([
        ['background '.repeat(200)],
        ['what do I drink?'],
        ['we talked about tea '.repeat(30)],
        ['a', 'b']
      ])
    } finally {
      host.post = post
    }
  })

  it('closes while a batch runs without taking the process down, cancelling its work', async () => {
    const other = testEmbedder(workerPath)
    await other.ready()
    const long = Array.from({ length: 16 }, (_, i) => `a long message ${i} `.repeat(60))
    const cpuBefore = process.cpuUsage()
    const running = other.embed(long).then(
      () => 'done',
      (error: unknown) => (error instanceof EmbeddingCancelledError ? 'cancelled' : 'error')
    )
    // The close must land while ONNX Runtime runs the batch, which the worker does not report;
    // its CPU time does (the process's usage counts every thread, and this one only waits).
    // 100 ms of it is well past the tokenizer and well inside this batch's run of seconds.
    await pollUntil(
      () => {
        const { user, system } = process.cpuUsage(cpuBefore)
        return user + system >= 100_000
      },
      { what: 'the worker to spend 100 ms of CPU on the batch' }
    )
    // Terminated mid-batch, ONNX Runtime's callback threw into a torn-down worker and aborted
    // the whole process (the model switch of memory-reembed.test.ts did, at start-up).
    await other.close()
    expect(await running).toBe('cancelled')
  })

  it('refuses work beyond its queue bound instead of growing without limit', async () => {
    const small = new EmbeddingClient({
      workerPath,
      spec: modelSpec('Xenova/bge-small-zh-v1.5'),
      source: {
        kind: 'folder',
        root: join(import.meta.dirname, '../../.cache/models'),
        name: 'Xenova/bge-small-zh-v1.5'
      },
      maxQueued: 10,
      threads: 1
    })
    try {
      const first = small.embed(Array.from({ length: 8 }, (_, i) => `text ${i}`))
      await expect(
        small.embed(Array.from({ length: 8 }, (_, i) => `more ${i}`))
      ).rejects.toBeInstanceOf(EmbeddingQueueFullError)
      expect(await first).toHaveLength(8)
    } finally {
      await small.close()
    }
  })

  it('reports a missing model as unavailable without throwing anywhere', async () => {
    const missing = new EmbeddingClient({
      workerPath,
      spec: modelSpec('nowhere/none'),
      source: { kind: 'folder', root: mkdtempSync(join(tmpdir(), 'no-model-')), name: 'none' },
      threads: 1
    })
    await expect(missing.ready()).rejects.toThrow(/No embedding model is available/)
    expect(missing.status().state).toBe('unavailable')
    await expect(missing.embed(['x'])).rejects.toThrow(/No embedding model/)
    await missing.close()
  })
})
