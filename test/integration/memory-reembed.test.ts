import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { MemoryStatus } from '@shared/domain'
import type { EmbedderFactory } from '../../src/main/services/memory/memoryModels'
import { spaceKey } from '../../src/main/workers/embedding/embeddingModels'
import {
  defaultModel,
  prepareEmbeddings,
  secondModel,
  testEmbeddings,
  type TestModel
} from '../support/embeddings'
import { memoryServicesIn, type MemoryTestServices } from '../support/memoryServices'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
let workerPath: string
const open: MemoryTestServices[] = []

beforeAll(async () => {
  workerPath = await prepareEmbeddings()
}, 300_000)

afterEach(async () => {
  for (const setup of open.splice(0)) await setup.close()
})

const spaces = (setup: MemoryTestServices) =>
  setup.db
    .prepare('SELECT key, model_id, dimension, state FROM vector_spaces ORDER BY id')
    .all() as {
    key: string
    model_id: string
    dimension: number
    state: string
  }[]

describe('a model change', () => {
  it('re-embeds everything into a new space in the background and never mixes spaces', async () => {
    let model: TestModel = defaultModel()
    const factory: EmbedderFactory = (settings) => testEmbeddings(workerPath, model)(settings)
    const setup = memoryServicesIn(tempDir(), { embeddings: factory })
    open.push(setup)
    const { services } = setup
    const thread = services.threads.create('Hobbies')
    await services.chat.send(thread.id, '我正在学弹钢琴。')
    await services.chat.send(thread.id, 'My daughter Lily is seven years old.')
    await services.memory.create({ content: '我对花生过敏。', category: 'fact' })
    await services.memoryIndexer.drained()
    expect(spaces(setup)).toEqual([
      {
        key: spaceKey(model.spec, 512),
        model_id: 'Xenova/bge-small-zh-v1.5',
        dimension: 512,
        state: 'active'
      }
    ])

    const oldId = setup.db.prepare('SELECT id FROM vector_spaces').pluck().get() as number
    model = secondModel(tempDir())
    await services.memoryModel.reload()
    await services.memoryIndexer.embedder()?.ready()
    // Until the new space is complete, the old one is kept (retired) and never searched.
    await expect.poll(() => spaces(setup).map((s) => s.state)).toContain('active')
    const statuses = setup.published
      .filter((p) => p.event === 'memory:status')
      .map((p) => p.payload as MemoryStatus)
    await services.memoryIndexer.drained()

    expect(spaces(setup)).toEqual([
      {
        key: spaceKey(model.spec, 512),
        model_id: 'test/second-model',
        dimension: 512,
        state: 'active'
      }
    ])
    // The old space's tables are gone.
    const old = setup.db
      .prepare('SELECT name FROM sqlite_master WHERE name IN (?, ?)')
      .all(`message_vectors_${oldId}`, `vec_memories_${oldId}`)
    expect(old).toEqual([])
    const status = services.memory.status()
    expect(status.model).toMatchObject({ state: 'ready', id: 'test/second-model', dimension: 512 })
    expect(status.index).toMatchObject({
      indexedMessages: 2,
      indexedMemories: 1,
      pendingMessages: 0,
      pendingMemories: 0,
      reembedding: false
    })
    expect(statuses.length).toBeGreaterThan(0)
    const hits = (await services.memory.search('我最近在练什么乐器？')).hits
    expect(hits[0]?.content).toBe('我正在学弹钢琴。')
  })
})

describe('the indexing queue', () => {
  it('survives a restart: messages stored without a model are embedded at the next start', async () => {
    const dir = tempDir()
    const first = memoryServicesIn(dir)
    const thread = first.services.threads.create('Notes')
    for (const text of [
      '我家的花园里种了三棵苹果树。',
      'The spare key is under the blue flower pot.',
      '周末要去看牙医。'
    ]) {
      await first.services.chat.send(thread.id, text)
    }
    expect(first.services.memory.status().index).toMatchObject({
      pendingMessages: 3,
      indexedMessages: 0
    })
    await first.close()

    const second = memoryServicesIn(dir, { embeddings: testEmbeddings(workerPath) })
    open.push(second)
    await second.services.memoryIndexer.drained()
    expect(second.services.memory.status().index).toMatchObject({
      pendingMessages: 0,
      indexedMessages: 3,
      totalMessages: 3
    })
    const hits = (await second.services.memory.search('院子里有什么果树？')).hits
    expect(hits[0]?.content).toBe('我家的花园里种了三棵苹果树。')
  })
})
