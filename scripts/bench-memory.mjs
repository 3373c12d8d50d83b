// `npm run bench:memory`: embedding latency per query and throughput per batch on the real
// model in the real worker (out/main/embeddingWorker.js), and exact sqlite-vec KNN latency at
// 10k and 100k vectors of the model's dimension. Writes bench-results/memory.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { getLoadablePath } from 'sqlite-vec'

const ROOT = resolve(import.meta.dirname, '..')
const MODEL_ID = 'Xenova/bge-small-zh-v1.5'
const spec = {
  id: MODEL_ID,
  pooling: 'mean',
  lowercase: true,
  dtype: 'q8',
  relatedCosine: 0.2,
  maxChars: 2000,
  centering: 'lang-v1'
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

function startWorker(threads) {
  const worker = new Worker(join(ROOT, 'out/main/embeddingWorker.js'), {
    workerData: {
      spec,
      source: { kind: 'folder', root: join(ROOT, '.cache/models'), name: MODEL_ID },
      threads
    }
  })
  let next = 1
  const pending = new Map()
  const ready = new Promise((resolveReady, reject) => {
    worker.on('message', (message) => {
      if (message.type === 'ready') resolveReady(message.dimension)
      else if (message.type === 'failed') reject(new Error(message.message))
      else if (message.type === 'result' || message.type === 'error') {
        pending.get(message.id)?.(message)
        pending.delete(message.id)
      }
    })
  })
  const embed = (texts) =>
    new Promise((done) => {
      const id = next++
      pending.set(id, done)
      worker.postMessage({ type: 'embed', id, texts })
    })
  return { worker, ready, embed }
}

const SENTENCES = [
  'I prefer tea over coffee in the morning.',
  '我对花生过敏，点菜的时候请注意。',
  'The quarterly tax report is due next Friday, remind me on Wednesday.',
  '我们下周三要去杭州出差，帮我看看高铁的时间。',
  'Can you refactor this function so it does not allocate in the loop?',
  '这个接口返回的金额单位是分，不是元。'
]
const text = (i) => `${SENTENCES[i % SENTENCES.length]} (${i})`

async function embeddingFigures(threads) {
  const { worker, ready, embed } = startWorker(threads)
  const started = performance.now()
  const dimension = await ready
  const loadMs = performance.now() - started
  for (let i = 0; i < 10; i++) await embed([text(i)])
  const single = []
  for (let i = 0; i < 100; i++) {
    const t = performance.now()
    await embed([text(i)])
    single.push(performance.now() - t)
  }
  single.sort((a, b) => a - b)
  const batches = []
  for (const size of [8, 16, 32]) {
    const runs = []
    for (let r = 0; r < 8; r++) {
      const t = performance.now()
      await embed(Array.from({ length: size }, (_, i) => text(r * size + i)))
      runs.push(performance.now() - t)
    }
    runs.sort((a, b) => a - b)
    const ms = percentile(runs, 50)
    batches.push({ size, ms, textsPerSecond: Math.round(size / (ms / 1000)) })
  }
  await worker.terminate()
  return {
    threads,
    dimension,
    loadMs,
    query: { p50: percentile(single, 50), p95: percentile(single, 95) },
    batches
  }
}

/** Seeded unit vectors: KNN cost does not depend on what the vectors mean. */
function randomVectors(count, dimension, seed = 42) {
  let state = seed
  const random = () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  }
  const data = new Float32Array(count * dimension)
  for (let i = 0; i < count; i++) {
    let norm = 0
    for (let d = 0; d < dimension; d++) {
      const v = random()
      data[i * dimension + d] = v
      norm += v * v
    }
    norm = Math.sqrt(norm)
    for (let d = 0; d < dimension; d++) data[i * dimension + d] /= norm
  }
  return data
}

function knnFigures(count, dimension) {
  const dir = mkdtempSync(join(tmpdir(), 'memory-bench-'))
  const db = new Database(join(dir, 'bench.sqlite'))
  db.loadExtension(getLoadablePath())
  db.exec(
    `CREATE VIRTUAL TABLE v USING vec0 (message_id INTEGER PRIMARY KEY, embedding float[${dimension}] distance_metric=cosine, thread_id text)`
  )
  const vectors = randomVectors(count, dimension)
  const insert = db.prepare('INSERT INTO v (message_id, embedding, thread_id) VALUES (?, ?, ?)')
  const t0 = performance.now()
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const row = vectors.subarray(i * dimension, (i + 1) * dimension)
      insert.run(
        BigInt(i + 1),
        Buffer.from(row.buffer, row.byteOffset, row.byteLength),
        `t${i % 100}`
      )
    }
  })()
  const insertMs = performance.now() - t0
  const queries = randomVectors(30, dimension, 7)
  const knn = db.prepare('SELECT message_id, distance FROM v WHERE embedding MATCH ? AND k = 10')
  const samples = []
  for (let q = 0; q < 30; q++) {
    const row = queries.subarray(q * dimension, (q + 1) * dimension)
    const t = performance.now()
    knn.all(Buffer.from(row.buffer, row.byteOffset, row.byteLength))
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  db.close()
  rmSync(dir, { recursive: true, force: true })
  return {
    vectors: count,
    dimension,
    insertMs,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95)
  }
}

const embedding = []
for (const threads of [1, 2]) embedding.push(await embeddingFigures(threads))
const dimension = embedding[0].dimension
const knn = [10_000, 100_000].map((count) => knnFigures(count, dimension))

const f = (n) => n.toFixed(1).padStart(7)
console.log(
  `Memory benchmark (${cpus().length} cores, Node ${process.version}, ${MODEL_ID}, ${dimension}-d)\n`
)
console.log('threads | load ms | query p50 | query p95 | batch 8 | batch 16 | batch 32 (texts/s)')
for (const e of embedding) {
  console.log(
    `${String(e.threads).padStart(7)} |${f(e.loadMs)} |${f(e.query.p50)} ms |${f(e.query.p95)} ms |` +
      e.batches.map((b) => `${String(b.textsPerSecond).padStart(8)}`).join(' |')
  )
}
console.log('\nexact KNN (sqlite-vec, cosine, k = 10)')
console.log('vectors | insert s | p50 ms | p95 ms')
for (const k of knn) {
  console.log(
    `${String(k.vectors).padStart(7)} | ${(k.insertMs / 1000).toFixed(1).padStart(8)} |${f(k.p50)} |${f(k.p95)}`
  )
}
const out = resolve(process.cwd(), 'bench-results')
mkdirSync(out, { recursive: true })
writeFileSync(
  resolve(out, 'memory.json'),
  `${JSON.stringify({ node: process.version, cores: cpus().length, model: MODEL_ID, embedding, knn }, null, 2)}\n`
)
console.log(`\nwritten to ${resolve(out, 'memory.json')}`)
