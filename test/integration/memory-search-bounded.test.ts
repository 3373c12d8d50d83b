import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type Database from 'better-sqlite3'
import { quotedTerms, recallTerms } from '../../src/main/services/memory/memoryRanking'
import { openDatabase } from '../../src/main/store/database'
import { MemoryRepository } from '../../src/main/store/memoryRepository'
import { RecallRepository } from '../../src/main/store/search/recallRepository'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import { randomUnitVector, seededRandom } from '../../scripts/bench/syntheticThread'
import { useTempDir } from '../support/tempDir'

/**
 * Issue #16: full-text search that does not rank every match, and the message code index that
 * loads in the background, on real SQLite files.
 */

const tempDir = useTempDir()

const THREADS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b']

function store(): Database.Database {
  const db = openDatabase(join(tempDir(), 'store.sqlite'))
  const insert = db.prepare(
    'INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, 0, 0)'
  )
  THREADS.forEach((id, i) => insert.run(id, `thread ${i}`))
  return db
}

function addMessages(
  db: Database.Database,
  texts: readonly string[],
  options: { thread?: string; role?: string; excluded?: boolean } = {}
): number[] {
  const thread = options.thread ?? (THREADS[0] as string)
  const next = db.prepare('SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE thread_id = ?')
  const insert = db.prepare(
    `INSERT INTO messages (thread_id, seq, role, content, token_count, created_at, excluded)
     VALUES (?, ?, ?, ?, 10, 0, ?) RETURNING id`
  )
  return db.transaction(() =>
    texts.map(
      (text) =>
        insert
          .pluck()
          .get(
            thread,
            next.pluck().get(thread),
            options.role ?? 'user',
            text,
            options.excluded ? 1 : 0
          ) as number
    )
  )()
}

/** The query before issue #16: FTS5 ranks every match, then the first `limit` are taken. */
function exactMessages(db: Database.Database, query: string, limit: number, thread?: string) {
  return db
    .prepare(
      `SELECT m.id FROM messages_fts f JOIN messages m ON m.id = f.rowid
        WHERE messages_fts MATCH ? AND m.excluded = 0 AND m.role IN ('user', 'assistant')
              ${thread ? 'AND m.thread_id = ?' : ''}
        ORDER BY f.rank LIMIT ?`
    )
    .pluck()
    .all(...[quotedTerms(recallTerms(query)).join(' OR '), ...(thread ? [thread] : []), limit])
}

const SENTENCES = [
  'I started learning to climb at the bouldering wall last month.',
  'My sister runs a breakfast café in Whitby.',
  'The quarterly tax report is due next Friday.',
  'We moved the database migration to the weekend.',
  '我对花生过敏，点菜的时候请注意。',
  '周末我们去杭州看西湖，顺便吃龙井虾仁。',
  'Remind me to call the climbing gym about the membership.',
  '这个接口返回的金额单位是分，不是元。'
]

const QUERIES = [
  'any ideas for the climbing weekend?',
  'when is the tax report due',
  '周末去杭州吃什么',
  '花生过敏的菜',
  'breakfast café sister',
  'database migration weekend membership'
]

describe('full-text search without ranking every match', () => {
  it('returns exactly what ranking every match returned on a small store', () => {
    const db = store()
    const recall = new RecallRepository(db)
    // 400 messages in two threads, some excluded, some tool output: every term stays under
    // the per-term cap, as in every evaluation store.
    // Numbered, so no two rows tie in BM25 (the order of ties is SQLite's choice).
    for (let i = 0; i < 50; i++) {
      const n = (s: string) => `${s} (${'x'.repeat(i % 7)}${i})`
      addMessages(db, SENTENCES.slice(0, 4).map(n), { thread: THREADS[i % 2] })
      addMessages(db, SENTENCES.slice(4, 6).map(n), { role: 'assistant' })
      addMessages(db, [n(SENTENCES[6] as string)], { excluded: i % 5 === 0 })
      addMessages(db, [n(SENTENCES[7] as string)], { role: i % 3 === 0 ? 'tool' : 'user' })
    }
    for (const query of QUERIES) {
      const terms = quotedTerms(recallTerms(query))
      for (const limit of [5, 50, 400]) {
        expect(recall.ftsMessages(terms, limit)).toEqual(exactMessages(db, query, limit))
        expect(recall.ftsMessages(terms, limit, THREADS[1])).toEqual(
          exactMessages(db, query, limit, THREADS[1])
        )
      }
    }
    db.close()
  })

  it('finds the old message with the rare word when a common word is in every message', () => {
    const db = store()
    const recall = new RecallRepository(db)
    const [old] = addMessages(db, ['We booked the trip to Zanzibar for the project offsite.'])
    addMessages(db, ['The Zanzibar notes are in the excluded draft.'], { excluded: true })
    // 3,000 newer messages that all say "project" (over the 1,000-row cap per term).
    addMessages(
      db,
      Array.from({ length: 3_000 }, (_, i) => `Status of the project, day ${i}: on track.`)
    )
    const found = recall.ftsMessages(quotedTerms(recallTerms('the project in zanzibar?')), 20)
    expect(found[0]).toBe(old)
    expect(found).toHaveLength(20)
    // The rest are the newest "project" messages, never the excluded one.
    const contents = db
      .prepare(`SELECT content FROM messages WHERE id IN (${found.slice(1).join(',')})`)
      .pluck()
      .all() as string[]
    expect(contents.every((c) => c.startsWith('Status of the project'))).toBe(true)
    expect(Math.min(...found.slice(1))).toBeGreaterThan(3_000 - 20)
    db.close()
  })

  it('ranks memories the same way: rare words first, exact on a small store', () => {
    const db = store()
    const memories = new MemoryRepository(db)
    const add = (content: string, i: number) =>
      db
        .prepare(
          `INSERT INTO memories (content, category, content_hash, created_at, updated_at)
           VALUES (?, 'fact', ?, 0, 0)`
        )
        .run(content, `h${i}`)
    SENTENCES.forEach(add)
    for (const query of QUERIES) {
      const terms = quotedTerms(recallTerms(query))
      const exact = db
        .prepare('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 10')
        .pluck()
        .all(terms.join(' OR '))
      expect(memories.ftsSearch(terms, 10)).toEqual(exact)
    }
    for (let i = 0; i < 2_000; i++) add(`Weekly plan number ${i} for the team.`, 100 + i)
    expect(memories.ftsSearch(quotedTerms(recallTerms('weekly plan for Whitby')), 5)[0]).toBe(2)
    db.close()
  })
})

describe('the message code index loads in the background', () => {
  const dimension = 64
  const unit = (seed: number) => randomUnitVector(seededRandom(seed), dimension)

  it('in slices, keeping vectors written meanwhile, so the first search reads no codes', async () => {
    const db = store()
    const vectors = new VectorStore(db)
    const { space } = vectors.activate('test|64', 'test', dimension, 0)
    const ids = addMessages(
      db,
      Array.from({ length: 12_000 }, (_, i) => `message ${i}`)
    )
    vectors.putMessages(
      space,
      ids.map((id) => ({ id, vector: unit(id) }))
    )

    // A second connection, as after a restart; a message is indexed while the load runs.
    const reopened = openDatabase(db.name)
    const store2 = new VectorStore(reopened)
    const [late] = addMessages(reopened, ['written during the load'])
    let slices = 0
    await store2.preload(space, async () => {
      slices++
      if (slices === 1) store2.putMessages(space, [{ id: late as number, vector: unit(999_999) }])
      await new Promise((resolve) => setImmediate(resolve))
    })
    expect(slices).toBeGreaterThanOrEqual(2)

    const prepared: string[] = []
    const prepare = reopened.prepare.bind(reopened)
    reopened.prepare = ((sql: string) => {
      prepared.push(sql)
      return prepare(sql)
    }) as typeof reopened.prepare
    expect(store2.nearestMessages(space, unit(999_999), 1)[0]?.id).toBe(late)
    expect(store2.nearestMessages(space, unit(ids[7_000] as number), 1)[0]?.id).toBe(ids[7_000])
    expect(prepared.some((sql) => /SELECT message_id, thread_id, code/.test(sql))).toBe(false)
    reopened.close()
    db.close()
  })

  it('ranks like exact cosine over every row once the 8-bit stage has picked what to re-score', () => {
    const db = store()
    const vectors = new VectorStore(db)
    const { space } = vectors.activate('test|64', 'test', dimension, 0)
    const ids = addMessages(
      db,
      Array.from({ length: 300 }, (_, i) => `message ${i}`)
    )
    vectors.putMessages(
      space,
      ids.map((id) => ({ id, vector: unit(id) }))
    )
    for (const seed of [1, 2, 3]) {
      const query = unit(50_000 + seed)
      // 300 candidates (all of them), of which only the 8-bit stage's best 100 are read.
      const got = vectors.nearestMessages(space, query, 50)
      const exact = db
        .prepare(
          `SELECT message_id AS id, vec_distance_cosine(embedding, ?) AS distance
             FROM message_vectors_${space.id} ORDER BY distance LIMIT 50`
        )
        .all(Buffer.from(query.buffer)) as { id: number; distance: number }[]
      expect(got.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id))
      expect(got[0]?.distance).toBeCloseTo(exact[0]?.distance as number, 6)
    }
    db.close()
  })
})

describe('memory vectors searched in memory', () => {
  const dimension = 64
  const unit = (seed: number) => randomUnitVector(seededRandom(seed), dimension)

  it('load in slices at start-up, keeping memories written meanwhile, so no search reads them', async () => {
    const db = store()
    const vectors = new VectorStore(db)
    const { space } = vectors.activate('test|64', 'test', dimension, 0)
    const insert = db.prepare(
      `INSERT INTO memories (content, category, content_hash, created_at, updated_at)
       VALUES (?, 'fact', ?, 0, 0) RETURNING id`
    )
    const add = (i: number) => insert.pluck().get(`memory ${i}`, `h${i}`) as number
    const ids = db.transaction(() => Array.from({ length: 2_500 }, (_, i) => add(i)))()
    vectors.putMemories(
      space,
      ids.map((id) => ({ id, vector: unit(id) }))
    )

    const restarted = new VectorStore(db) // as after a restart: nothing loaded
    let slices = 0
    let late = 0
    await restarted.loadMemories(space, async () => {
      if (++slices === 1) {
        late = add(9_999)
        restarted.putMemories(space, [{ id: late, vector: unit(424_242) }])
      }
      await new Promise((resolve) => setImmediate(resolve))
    })
    expect(slices).toBeGreaterThanOrEqual(2)

    const prepared: string[] = []
    const prepare = db.prepare.bind(db)
    db.prepare = ((sql: string) => {
      prepared.push(sql)
      return prepare(sql)
    }) as typeof db.prepare
    expect(restarted.nearestMemories(space, unit(424_242), 1)[0]?.id).toBe(late)
    expect(restarted.nearestMemories(space, unit(ids[2_000] as number), 1)[0]?.id).toBe(ids[2_000])
    db.prepare = prepare
    expect(prepared.some((sql) => /SELECT memory_id, embedding, category FROM/.test(sql))).toBe(
      false
    )
    db.close()
  })

  it("return exactly vec0's KNN, keep categories in step, and drop deleted memories", () => {
    const db = store()
    const vectors = new VectorStore(db)
    const memories = new MemoryRepository(db)
    const { space } = vectors.activate('test|64', 'test', dimension, 0)
    const categories = ['fact', 'task', 'user_preference', 'other']
    const insert = db.prepare(
      `INSERT INTO memories (content, category, content_hash, created_at, updated_at)
       VALUES (?, ?, ?, 0, 0) RETURNING id`
    )
    const ids = Array.from(
      { length: 600 },
      (_, i) => insert.pluck().get(`memory ${i}`, categories[i % 4], `h${i}`) as number
    )
    vectors.putMemories(
      space,
      ids.map((id) => ({ id, vector: unit(id) }))
    )
    const knn = (query: Float32Array, k: number, category?: string) =>
      db
        .prepare(
          `SELECT memory_id AS id FROM vec_memories_${space.id}
            WHERE embedding MATCH ? AND k = ? ${category ? 'AND category = ?' : ''}
            ORDER BY distance`
        )
        .pluck()
        .all(Buffer.from(query.buffer), k, ...(category ? [category] : []))
    const query = unit(123_456)
    expect(vectors.nearestMemories(space, query, 50).map((h) => h.id)).toEqual(knn(query, 50))
    expect(vectors.nearestMemories(space, query, 20, ['task']).map((h) => h.id)).toEqual(
      knn(query, 20, 'task')
    )

    const [nearest] = vectors.nearestMemories(space, query, 1)
    vectors.setMemoryCategory(nearest?.id as number, 'other')
    expect(vectors.nearestMemories(space, query, 1, ['other'])[0]?.id).toBe(nearest?.id)
    memories.delete(nearest?.id as number, 1, 'user_delete')
    const after = vectors.nearestMemories(space, query, 50).map((h) => h.id)
    expect(after).not.toContain(nearest?.id)
    expect(after).toEqual(knn(query, 50))
    db.close()
  })
})

describe('vector counts for the memory status', () => {
  const unit = (seed: number) => randomUnitVector(seededRandom(seed), 16)
  const exact = (db: Database.Database, spaceId: number) =>
    db.prepare(`SELECT count(*) FROM message_vectors_${spaceId}`).pluck().get()

  it('are kept by triggers through writes, re-writes and deleted threads, without counting', () => {
    const db = store()
    const vectors = new VectorStore(db)
    const { space } = vectors.activate('test|16', 'test', 16, 0)
    const inA = addMessages(db, ['a1', 'a2', 'a3'])
    const inB = addMessages(db, ['b1', 'b2'], { thread: THREADS[1] })
    vectors.putMessages(
      space,
      [...inA, ...inB].map((id) => ({ id, vector: unit(id) }))
    )
    vectors.putMessages(space, [{ id: inA[0] as number, vector: unit(99) }]) // re-written
    expect(vectors.counts(space).messages).toBe(5)
    db.prepare('DELETE FROM threads WHERE id = ?').run(THREADS[0])
    const prepared: string[] = []
    const prepare = db.prepare.bind(db)
    db.prepare = ((sql: string) => {
      prepared.push(sql)
      return prepare(sql)
    }) as typeof db.prepare
    expect(vectors.counts(space).messages).toBe(2)
    expect(prepared.some((sql) => /count\(\*\) FROM message_vectors/.test(sql))).toBe(false)
    db.prepare = prepare
    expect(exact(db, space.id)).toBe(2)
    db.close()
  })

  it('count a space made before they were kept once, then keep it', () => {
    const db = store()
    const vectors = new VectorStore(db)
    const { space } = vectors.activate('test|16', 'test', 16, 0)
    const ids = addMessages(db, ['x', 'y', 'z'])
    vectors.putMessages(
      space,
      ids.map((id) => ({ id, vector: unit(id) }))
    )
    // As an older version left it: no count row, no counting triggers.
    db.exec(`
      DELETE FROM vector_counts;
      DROP TRIGGER message_vectors_${space.id}_count_insert;
      DROP TRIGGER message_vectors_${space.id}_count_delete;
    `)
    expect(vectors.counts(space).messages).toBe(3)
    const [more] = addMessages(db, ['w'])
    vectors.putMessages(space, [{ id: more as number, vector: unit(7) }])
    expect(vectors.counts(space).messages).toBe(4)
    expect(exact(db, space.id)).toBe(4)
    db.close()
  })
})
