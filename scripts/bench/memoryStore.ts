/**
 * A large store for the memory-search benchmark: one long thread of `messages` turns (the
 * builder bench's synthetic thread: English and Chinese prose over a small vocabulary, tool
 * calls), a short thread of 20, and `memories` curated memories, written through the app's
 * migrations and triggers (FTS, embedding queue) into a real SQLite file. A third of the
 * messages and memories also carry a made-up rare word (a name, a place), so the full-text
 * index holds very common terms (the worst case for ranking every match) and rare ones. Vectors are seeded clustered unit
 * vectors of the model's dimension (embedding 100,000 messages would take hours here): search
 * cost does not depend on what they mean.
 */
import { tokenCounterFor } from '../../src/main/context/tokens/tokenCounter'
import { openDatabase } from '../../src/main/store/database'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import { type VectorSpace } from '../../src/main/store/vectors/vectorSpaces'
import { seededRandom, syntheticMemories, syntheticThread } from './syntheticThread'

export const LONG_THREAD = '00000000-0000-4000-8000-000000000001'
export const SHORT_THREAD = '00000000-0000-4000-8000-000000000002'

export interface BenchStore {
  path: string
  space: VectorSpace
  /** Questions a user might ask of this history (sentences' words plus a rare word). */
  queries: string[]
}

/** Seeded unit vectors around 200 centres: clusters make approximate search a real test. */
export function clusteredVectors(seed: number, dimension: number): () => Float32Array {
  const random = seededRandom(seed)
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random())
  const centers = Array.from({ length: 200 }, () => Float32Array.from({ length: dimension }, gauss))
  return () => {
    const center = centers[Math.floor(random() * centers.length)] as Float32Array
    const v = Float32Array.from(
      { length: dimension },
      (_, i) => (center[i] as number) + 1.2 * gauss()
    )
    let norm = 0
    for (const x of v) norm += x * x
    norm = Math.sqrt(norm)
    return v.map((x) => x / norm)
  }
}

/** Pronounceable made-up words: rare terms (names, places) that occur in a few messages. */
function rareWords(random: () => number, count: number): string[] {
  const syllables = 'ka lo mi ren ta vu shi por den ag ul bre nox fi zel tam qui or'.split(' ')
  return Array.from({ length: count }, () => {
    let word = ''
    const n = 2 + Math.floor(random() * 2)
    for (let i = 0; i < n; i++) word += syllables[Math.floor(random() * syllables.length)]
    return word
  })
}

export function buildBenchStore(
  path: string,
  options: { messages: number; memories: number; dimension: number }
): BenchStore {
  const random = seededRandom(7)
  const db = openDatabase(path)
  const rare = rareWords(random, 20_000)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const withRare = (text: string): string => (random() < 0.3 ? `${text} (${pick(rare)})` : text)
  const thread = syntheticThread(options.messages, tokenCounterFor('gpt-4o'))
  const memories = syntheticMemories(options.memories)
  const now = Date.UTC(2026, 0, 1)
  db.prepare(
    'INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)'
  ).run(LONG_THREAD, 'long thread', now, now, SHORT_THREAD, 'short thread', now, now)
  const insertMessage = db.prepare(
    'INSERT INTO messages (thread_id, seq, role, content, token_count, created_at) VALUES (?, ?, ?, ?, ?, ?)'
  )
  const insertMemory = db.prepare(
    `INSERT INTO memories (content, category, content_hash, created_at, updated_at)
     VALUES (?, 'fact', ?, ?, ?)`
  )
  db.transaction(() => {
    for (const m of thread.messages) {
      const content = m.role === 'tool' ? m.content : withRare(m.content)
      insertMessage.run(LONG_THREAD, m.seq, m.role, content, m.tokenCount, now + m.seq * 1000)
    }
    for (let i = 1; i <= 20; i++) {
      const m = thread.messages[i - 1] as (typeof thread.messages)[number]
      insertMessage.run(SHORT_THREAD, i, m.role, m.content, m.tokenCount, now + i)
    }
    memories.forEach((m, i) => {
      insertMemory.run(withRare(m.content), `bench-${i}`, now, now)
    })
  })()
  db.exec('DELETE FROM embedding_queue')

  const store = new VectorStore(db)
  const { space } = store.activate(`bench|${options.dimension}`, 'bench', options.dimension, now)
  db.exec('DELETE FROM embedding_queue')
  const sample = clusteredVectors(11, options.dimension)
  const ids = db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[]
  for (let i = 0; i < ids.length; i += 2_000) {
    store.putMessages(
      space,
      ids.slice(i, i + 2_000).map((id) => ({ id, vector: sample() }))
    )
  }
  const memoryIds = db.prepare('SELECT id FROM memories ORDER BY id').pluck().all() as number[]
  for (let i = 0; i < memoryIds.length; i += 2_000) {
    store.putMemories(
      space,
      memoryIds.slice(i, i + 2_000).map((id) => ({ id, vector: sample() }))
    )
  }
  db.close()
  // Questions in the thread's own words (every term common) with, half the time, a rare word.
  const queries = syntheticMemories(40, 99).map((m) =>
    random() < 0.5 ? `${m.content} ${pick(rare)}?` : `${m.content}?`
  )
  return { path, space, queries }
}
