/**
 * Memory search as a build runs it (issue #16), split into query embedding, full-text list and
 * vector lists, on a real SQLite store of 100,000 messages and 10,000 memories
 * (memoryStore.ts), for a question in the long thread and one in a short thread of the same
 * store, warm and as the first search after opening the store. Beside it, in the same run, the
 * old path over the same store: the query embedded first, then both vector lists read at the
 * full limit (4,000 codes re-scored each, 40 per result), then FTS5 ranking every match; and, on first use,
 * the code index and the model's first run paid by the search.
 *
 * The query is embedded by the real multilingual-e5-small in the app's worker (one ONNX thread,
 * the app's setting) unless `--skip-embedding`; stored vectors are synthetic (memoryStore.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { yieldToEventLoop } from '@shared/eventLoop'
import { recallQuery } from '../../src/main/context/recall/recallQuery'
import { HybridSearch } from '../../src/main/services/memory/hybridSearch'
import { QueryRanker } from '../../src/main/services/memory/queryRanker'
import type { ActiveModel, MemoryIndexer } from '../../src/main/services/memory/memoryIndexer'
import { quotedTerms, recallTerms } from '../../src/main/services/memory/memoryRanking'
import { openDatabase } from '../../src/main/store/database'
import { MemoryRepository } from '../../src/main/store/memoryRepository'
import { RecallRepository } from '../../src/main/store/search/recallRepository'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import type { Embedder } from '../../src/main/workers/embedding/embedder'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { buildBenchStore, LONG_THREAD, SHORT_THREAD } from './memoryStore'
import { randomUnitVector, seededRandom } from './syntheticThread'
import { summarize, type Timing } from './timing'

const MODEL = 'Xenova/multilingual-e5-small' as const
const DIMENSION = 384
/** What a long thread asks for with a 128k-token model (recallRequest.ts: the cap). */
const LIMIT = 400
/** The window's newest messages, which a build excludes from recall. */
const WINDOW = 2_000

interface SearchSplit {
  total: Timing
  embed: Timing
  text: Timing
  vector: Timing
}

export interface MemorySearchFigures {
  messages: number
  memories: number
  limit: number
  /** `real` = multilingual-e5-small in the worker; `synthetic` = a seeded vector at once. */
  embedder: 'real' | 'synthetic'
  rows: {
    thread: 'long' | 'short'
    state: 'warm' | 'first after open'
    now: SearchSplit
    old: SearchSplit
  }[]
  /** The background warm-up after opening: code index load and the model's first run. */
  warmUp: { ms: number; longestSliceMs: number }
}

type Open = ReturnType<typeof openStore>

function openStore(path: string) {
  const db = openDatabase(path)
  const vectors = new VectorStore(db)
  return {
    db,
    vectors,
    memories: new MemoryRepository(db),
    recall: new RecallRepository(db),
    space: vectors.active() as NonNullable<ReturnType<VectorStore['active']>>
  }
}

function syntheticEmbedder(): Embedder {
  const random = seededRandom(5)
  const vector = () => randomUnitVector(random, DIMENSION)
  return {
    status: () => ({
      state: 'ready',
      modelId: MODEL,
      dimension: DIMENSION,
      progress: [],
      error: null
    }),
    ready: async () => ({ modelId: MODEL, dimension: DIMENSION }),
    embed: async (texts) => texts.map(vector),
    cancel: () => 0,
    onStatus: () => () => undefined,
    close: async () => undefined
  }
}

function activeModel(store: Open, embedder: Embedder): ActiveModel {
  return { embedder, spec: modelSpec(MODEL), space: store.space }
}

function indexerFor(model: ActiveModel): MemoryIndexer {
  return { active: () => model, embedder: () => model.embedder } as unknown as MemoryIndexer
}

interface Ask {
  query: string
  context: string
  exclude: number[]
}

function asks(store: Open, queries: string[], thread: string): Ask[] {
  const turns = store.db
    .prepare(
      `SELECT id, seq, role, content, excluded FROM messages WHERE thread_id = ?
        ORDER BY seq DESC LIMIT ${WINDOW}`
    )
    .all(thread) as { id: number; role: string; content: string; excluded: number }[]
  const recent = turns.reverse().map((t) => ({
    role: t.role as 'user' | 'assistant',
    content: t.content,
    excluded: t.excluded === 1
  }))
  return queries.map((query) => ({
    query,
    context: recallQuery(query, recent).context ?? '',
    exclude: turns.map((t) => t.id)
  }))
}

/** The app's search now. */
async function searchNow(search: HybridSearch, ask: Ask): Promise<number[]> {
  const started = performance.now()
  const result = await search.search(ask.query, {
    limit: LIMIT,
    context: ask.context,
    fillBudget: true,
    excludeMessageIds: ask.exclude,
    timeoutMs: 10_000
  })
  const t = result.timings ?? { embedMs: 0, textMs: 0, vectorMs: 0 }
  return [performance.now() - started, t.embedMs, t.textMs, t.vectorMs]
}

/** The old path's lists over the same store: embedding first, full depth, FTS5 ranks all. */
async function searchOld(store: Open, embedder: Embedder, ask: Ask): Promise<number[]> {
  const started = performance.now()
  const vectors = await embedder.embed([ask.query, ask.context], {
    priority: 'query',
    role: 'query'
  })
  const embedMs = performance.now() - started
  const vectorStarted = performance.now()
  for (const vector of vectors) {
    store.vectors.nearestMemories(store.space, vector, LIMIT)
    store.vectors.nearestMessages(store.space, vector, LIMIT, undefined, 40)
  }
  const vectorMs = performance.now() - vectorStarted
  const textStarted = performance.now()
  const match = quotedTerms(recallTerms(ask.query)).join(' OR ')
  store.db
    .prepare('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?')
    .all(match, LIMIT)
  store.db
    .prepare(
      `SELECT m.id FROM messages_fts f JOIN messages m ON m.id = f.rowid
        WHERE messages_fts MATCH ? AND m.excluded = 0 AND m.role IN ('user', 'assistant')
        ORDER BY f.rank LIMIT ?`
    )
    .all(match, LIMIT)
  const textMs = performance.now() - textStarted
  return [performance.now() - started, embedMs, textMs, vectorMs]
}

function split(samples: number[][]): SearchSplit {
  const column = (i: number) => summarize(samples.map((s) => s[i] as number))
  return { total: column(0), embed: column(1), text: column(2), vector: column(3) }
}

export async function memorySearchFigures(
  quick: boolean,
  worker: { workerPath: string; modelsRoot: string } | null
): Promise<MemorySearchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-memsearch-'))
  const newEmbedder = async (): Promise<Embedder> => {
    if (!worker) return syntheticEmbedder()
    const client = new EmbeddingClient({
      workerPath: worker.workerPath,
      spec: modelSpec(MODEL),
      source: { kind: 'folder', root: worker.modelsRoot, name: MODEL },
      threads: 1
    })
    await client.ready()
    return client
  }
  try {
    const messages = quick ? 20_000 : 100_000
    const memories = quick ? 2_000 : 10_000
    const path = join(dir, 'store.sqlite')
    const { queries } = buildBenchStore(path, { messages, memories, dimension: DIMENSION })
    const runs = quick ? 6 : 20
    const rows: MemorySearchFigures['rows'] = []

    // First search after opening: a fresh connection, a fresh model, one question each.
    const firstOld = openStore(path)
    const oldEmbedder = await newEmbedder()
    const oldFirst = await searchOld(
      firstOld,
      oldEmbedder,
      asks(firstOld, [queries[0] as string], LONG_THREAD)[0] as Ask
    )
    firstOld.db.close()
    await oldEmbedder.close()

    const first = openStore(path)
    const embedder = await newEmbedder()
    const model = activeModel(first, embedder)
    const search = new HybridSearch({
      ...first,
      indexer: indexerFor(model),
      ranker: new QueryRanker()
    })
    // What createServices does when the model's space becomes active (MemoryService.warmUp).
    const warmStarted = performance.now()
    let longestSliceMs = 0
    let sliceStarted = performance.now()
    await first.vectors.preload(first.space, async () => {
      longestSliceMs = Math.max(longestSliceMs, performance.now() - sliceStarted)
      await yieldToEventLoop()
      sliceStarted = performance.now()
    })
    longestSliceMs = Math.max(longestSliceMs, performance.now() - sliceStarted)
    await embedder.embed(['warm-up'], { priority: 'background', role: 'query' })
    const warmUp = { ms: performance.now() - warmStarted, longestSliceMs }
    const nowFirst = await searchNow(search, asks(first, [queries[0] as string], LONG_THREAD)[0]!)
    rows.push({
      thread: 'long',
      state: 'first after open',
      now: split([nowFirst]),
      old: split([oldFirst])
    })

    for (const [thread, id] of [
      ['long', LONG_THREAD],
      ['short', SHORT_THREAD]
    ] as const) {
      const questions = asks(first, queries.slice(1, 1 + runs), id)
      const now: number[][] = []
      const old: number[][] = []
      for (const ask of questions) {
        // Alternate, so both paths see the same machine load; distinct questions defeat the
        // query cache as a new message does.
        now.push(await searchNow(search, ask))
        old.push(await searchOld(first, embedder, { ...ask, query: `${ask.query} ` }))
      }
      rows.push({ thread, state: 'warm', now: split(now), old: split(old) })
    }
    first.db.close()
    await embedder.close()
    return {
      messages,
      memories,
      limit: LIMIT,
      embedder: worker ? 'real' : 'synthetic',
      rows,
      warmUp
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
