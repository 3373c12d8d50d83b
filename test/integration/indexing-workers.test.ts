import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { realisticMessages } from '../../scripts/bench/embedding'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { EmbeddingPool } from '../../src/main/workers/embedding/embeddingPool'
import { e5Model } from '../support/embeddings'
import { useMemoryServices } from '../support/memoryServices'
import { useTempDir } from '../support/tempDir'

/**
 * Issue #21 on the real multilingual-e5-small: several indexing workers fill a store with the
 * vectors one worker gives, and a query is answered while a batch runs instead of after it.
 * (How much faster: `npm run bench -- --only indexing`; no test here times anything.)
 */

const memory = useMemoryServices(useTempDir())
const model = e5Model()
const THREAD = '00000000-0000-4000-8000-0000000000aa'
const phrases = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/e5-fidelity.json'), 'utf8')) as {
    sentences: string[]
  }
).sentences

/** The app's pool over the test model; `texts` counts the passages each worker embedded. */
function pool(indexingThreads: number, texts: Map<string, number>): EmbeddingPool {
  let lanes = 0
  return new EmbeddingPool({
    indexingThreads,
    lane: (lane) => {
      const name = lane === 'query' ? 'query' : `indexing ${++lanes}`
      const client = new EmbeddingClient({
        workerPath: memory.workerPath(),
        spec: model.spec,
        source: { kind: 'folder', root: model.root, name: model.name },
        threads: 1,
        lowPriority: lane === 'indexing'
      })
      const embed = client.embed.bind(client)
      client.embed = (batch, options) => {
        if (options?.role !== 'query') texts.set(name, (texts.get(name) ?? 0) + batch.length)
        return embed(batch, options)
      }
      return client
    }
  })
}

/** A store whose messages the services index with `embedder`; resolves with each vector. */
async function indexed(embedder: EmbeddingPool, messages: string[]) {
  const { db, services } = memory.withEmbeddings(() => ({ embedder, spec: model.spec }))
  db.prepare(
    "INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, 'chat', 0, 0)"
  ).run(THREAD)
  const insert = db.prepare(
    `INSERT INTO messages (thread_id, seq, role, content, token_count, created_at)
     VALUES (?, ?, 'user', ?, 300, 0)`
  )
  db.transaction(() => messages.forEach((text, i) => insert.run(THREAD, i + 1, text)))()
  await services.memoryIndexer.drained(240_000)
  const space = services.memoryIndexer.active()?.space
  if (!space) throw new Error('no active space')
  const rows = db
    .prepare(
      `SELECT m.content, v.embedding FROM message_vectors_${space.id} v
         JOIN messages m ON m.id = v.message_id`
    )
    .all() as { content: string; embedding: Buffer }[]
  return new Map(
    rows.map((row) => [
      row.content,
      new Float32Array(
        row.embedding.buffer,
        row.embedding.byteOffset,
        row.embedding.byteLength / Float32Array.BYTES_PER_ELEMENT
      )
    ])
  )
}

describe('indexing on several workers (real multilingual-e5-small)', () => {
  it('fills a store with the same vectors on two workers as on one', async () => {
    // Short lines and 200-500-token messages: some passes hold several texts, some one.
    const messages = [
      ...realisticMessages(8, phrases),
      ...phrases.slice(0, 6).map((p, i) => `${p} (${i})`)
    ]
    const onOne = new Map<string, number>()
    const onTwo = new Map<string, number>()
    const one = await indexed(pool(1, onOne), messages)
    const two = await indexed(pool(2, onTwo), messages)

    expect(one.size).toBe(messages.length)
    expect(two.size).toBe(messages.length)
    for (const text of messages) {
      const a = one.get(text) as Float32Array
      const b = two.get(text) as Float32Array
      expect(a.length).toBe(384)
      // Each pass holds the same texts either way (batches are formed from what is queued,
      // not by worker), so only floating-point order could differ.
      const largest = Math.max(...a.map((x, i) => Math.abs(x - (b[i] as number))))
      expect(largest).toBeLessThan(1e-5)
    }
    // Both workers took part; the query worker indexed nothing (it embedded the start-up
    // warm-up's queries only).
    expect(onTwo.get('indexing 1')).toBeGreaterThan(0)
    expect(onTwo.get('indexing 2')).toBeGreaterThan(0)
    expect(onTwo.get('query') ?? 0).toBe(0)
    expect((onTwo.get('indexing 1') ?? 0) + (onTwo.get('indexing 2') ?? 0)).toBe(messages.length)
  }, 300_000)

  it('answers a query while an indexing batch runs, without waiting for it', async () => {
    const embedder = pool(1, new Map())
    try {
      await embedder.indexingReady()
      // Each fills the model's window, so each is a pass of its own and takes a while.
      const long = realisticMessages(3, phrases).map((m) => `${m} ${m} ${m}`)
      let batchesDone = 0
      const background = embedder.embed(long, { tag: 'import' })
      const counted = background.then(() => (batchesDone = long.length))
      void counted
      const vectors = await embedder.embed(['Where did we say we would meet on Friday?'], {
        priority: 'query',
        role: 'query'
      })
      expect(vectors).toHaveLength(1)
      // The query came back while the first of three window-long passes was still running.
      expect(batchesDone).toBe(0)
      await expect(background).resolves.toHaveLength(3)
    } finally {
      await embedder.close()
    }
  }, 300_000)
})
