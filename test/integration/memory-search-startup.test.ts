import { describe, expect, it } from 'vitest'
import type { MemorySearchHit } from '@shared/domain'
import { BGE_MODEL_ID } from '@shared/embeddingModelIds'
import { HybridSearch } from '../../src/main/services/memory/hybridSearch'
import {
  inProcessMessageSearch,
  type MessageSearch
} from '../../src/main/services/memory/messageSearch'
import { QueryRanker } from '../../src/main/services/memory/queryRanker'
import type { MemoryIndexer } from '../../src/main/services/memory/memoryIndexer'
import { MemoryRepository } from '../../src/main/store/memoryRepository'
import { RecallRepository } from '../../src/main/store/search/recallRepository'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import type { Embedder } from '../../src/main/workers/embedding/embedder'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { memoryServicesIn, useMemoryServices } from '../support/memoryServices'
import { defaultModel, prepareEmbeddings, testEmbeddings } from '../support/embeddings'
import { pollUntil } from '../support/poll'
import { useTempDir } from '../support/tempDir'

/**
 * Issue #16 on the real model and real SQLite: the full-text list is read while the worker
 * embeds the query, and a reopened store has its vector index and model warmed up before the
 * first search, which then finds what it found before the restart.
 */

const tempDir = useTempDir()
const { withModel } = useMemoryServices(tempDir)

describe('memory search within a time budget', () => {
  it('reads the full-text list while the query is being embedded', async () => {
    const { services, db } = await withModel()
    const thread = services.threads.create('Hobbies')
    await services.chat.send(thread.id, 'I started learning to climb at the bouldering wall.')
    await services.memory.create({ content: 'My sister runs a café in Whitby.', category: 'fact' })
    await services.memoryIndexer.drained()

    const events: string[] = []
    const recall = new RecallRepository(db)
    const ftsMessages = recall.ftsMessages.bind(recall)
    recall.ftsMessages = (...args) => {
      events.push('full text')
      return ftsMessages(...args)
    }
    const real = services.memoryIndexer.active()
    if (!real) throw new Error('no model')
    const embedder: Embedder = {
      ...real.embedder,
      status: () => real.embedder.status(),
      embed: async (texts, options) => {
        events.push('embedding started')
        const vectors = await real.embedder.embed(texts, options)
        events.push('embedding done')
        return vectors
      }
    }
    const indexer = {
      active: () => ({ ...real, embedder }),
      embedder: () => embedder
    } as unknown as MemoryIndexer
    const search = new HybridSearch({
      memories: new MemoryRepository(db),
      recall,
      vectors: new VectorStore(db),
      indexer,
      ranker: new QueryRanker()
    })
    const result = await search.search('Where is the bouldering wall I climb at?')
    expect(events).toEqual(['embedding started', 'full text', 'embedding done'])
    expect(result.mode).toBe('hybrid')
    expect(result.hits[0]?.content).toBe('I started learning to climb at the bouldering wall.')
    expect(result.timings?.textMs).toBeGreaterThan(0)
  })

  it('reads 50 candidates from each list for a build, whatever its limit; the sidebar reads its limit', async () => {
    const { services, db } = await withModel()
    const thread = services.threads.create('Hobbies')
    await services.chat.send(thread.id, 'I started learning to climb at the bouldering wall.')
    await services.memoryIndexer.drained()
    const vectors = new VectorStore(db)
    const inProcess = inProcessMessageSearch(vectors)
    const depths: string[] = []
    const messageSearch: MessageSearch = {
      ...inProcess,
      nearest: (space, queries, threadId) => {
        depths.push(`vector ${queries.map(({ k }) => k).join('+')}`)
        return inProcess.nearest(space, queries, threadId)
      },
      fullText: (query, here) => {
        depths.push(`text ${query.limit}`)
        return inProcess.fullText(query, here)
      }
    }
    const search = new HybridSearch({
      memories: new MemoryRepository(db),
      recall: new RecallRepository(db),
      vectors,
      indexer: services.memoryIndexer,
      messageSearch,
      ranker: new QueryRanker()
    })
    const asked = { limit: 400, context: 'We talked about weekend plans.', timeoutMs: 30_000 }
    const gated = await search.search('Where do I climb?', { ...asked, gate: {} })
    expect(gated.hits.map((h) => h.content)).toContain(
      'I started learning to climb at the bouldering wall.'
    )
    // The conversation was embedded after the input: its list came in a scan of its own.
    expect(depths.sort()).toEqual(['text 50', 'vector 50', 'vector 50'])
    depths.length = 0
    // Both vectors at hand (the query cache): one scan for the input's list and the
    // conversation's.
    await search.search('Where do I climb?', asked)
    expect(depths.sort()).toEqual(['text 400', 'vector 400+100'])
  })

  it('warms up the vector index and the model at start-up, before the first search', async () => {
    const dir = tempDir()
    const first = memoryServicesIn(dir, { embeddings: testEmbeddings(await prepareEmbeddings()) })
    await first.services.memoryIndexer.drained()
    const thread = first.services.threads.create('Garden')
    await first.services.chat.send(thread.id, '我家的花园里种了三棵苹果树。')
    await first.services.chat.send(thread.id, 'We repainted the garden shed green last spring.')
    await first.services.memoryIndexer.drained()
    const before = (await first.services.memory.search('院子里有什么果树？')).hits.map((h) => h.ref)
    await first.close()

    const reopened = memoryServicesIn(dir, {
      embeddings: testEmbeddings(await prepareEmbeddings())
    })
    try {
      await pollUntil(() => reopened.services.memoryIndexer.active() !== null, {
        what: 'the reopened store to have an active embedder',
        timeoutMs: 60_000
      })
      await reopened.services.memory.warmedUp()
      const prepared: string[] = []
      const prepare = reopened.db.prepare.bind(reopened.db)
      reopened.db.prepare = ((sql: string) => {
        prepared.push(sql)
        return prepare(sql)
      }) as typeof reopened.db.prepare
      const after = await reopened.services.memory.search('院子里有什么果树？')
      expect(after.hits.map((h) => h.ref)).toEqual(before)
      expect(after.hits[0]?.content).toBe('我家的花园里种了三棵苹果树。')
      // The index was loaded in the background: the search read no codes.
      expect(prepared.some((sql) => /SELECT message_id, thread_id, code FROM/.test(sql))).toBe(
        false
      )
    } finally {
      await reopened.close()
    }
  })
})

describe('the per-model rank floor in builds', () => {
  it('places weak vector-only hits after the supported ones while the budget holds few items', async () => {
    // bge with a rank floor above what a paraphrase reaches: its vector-only hit becomes fill.
    const model = { ...defaultModel(), spec: modelSpec(BGE_MODEL_ID, { rankFloor: 0.95 }) }
    const { services } = await withModel(model)
    const pnpm = await services.memory.create({
      content: 'I use pnpm for every JavaScript project.',
      category: 'user_preference'
    })
    const server = await services.memory.create({
      content: 'The build server manager restarts every night.',
      category: 'fact'
    })
    await services.memoryIndexer.drained()
    const query = 'Which package manager should the build use?'
    const refs = (hits: MemorySearchHit[]) => hits.map((h) => [h.ref, h.matchedBy])

    // A loaded machine must not push the query past its deadline into words only.
    const timeoutMs = 30_000
    const small = await services.memory.search(query, { fillBudget: true, limit: 20, timeoutMs })
    expect(refs(small.hits)).toEqual([
      [`memory:${server.memory.id}`, expect.arrayContaining(['text'])],
      [`memory:${pnpm.memory.id}`, ['nearest']]
    ])
    // Room for hundreds of items, or an interactive search: the vector list's word counts.
    for (const result of [
      await services.memory.search(query, { fillBudget: true, limit: 200, timeoutMs }),
      await services.memory.search(query, { timeoutMs })
    ]) {
      expect(result.hits.find((h) => h.id === pnpm.memory.id)?.matchedBy).toContain('vector')
    }
  })
})
