import { describe, expect, it } from 'vitest'
import type { MemorySearchHit } from '@shared/domain'
import { useMemoryServices, type MemoryTestServices } from '../support/memoryServices'
import { useTempDir } from '../support/tempDir'

/**
 * Recall on the real model (bge-small-zh-v1.5 from Maven Central), the real worker and real
 * sqlite-vec over a temporary SQLite file. The queries share no words (no trigram) with what
 * they must find, so only the vectors can find it.
 */

const tempDir = useTempDir()
const { withModel } = useMemoryServices(tempDir)

const MEMORIES = [
  { content: 'I prefer tea over coffee in the morning.', category: 'user_preference' },
  { content: 'My daughter Lily is seven years old.', category: 'fact' },
  { content: 'I use pnpm for every JavaScript project.', category: 'user_preference' },
  { content: 'The quarterly tax report is due next Friday.', category: 'task' },
  { content: '我对花生过敏。', category: 'fact' },
  { content: '我住在上海，在一家银行工作。', category: 'fact' },
  { content: '我正在学弹钢琴。', category: 'fact' },
  { content: '我不吃辣。', category: 'user_preference' }
] as const

async function withMemories(): Promise<MemoryTestServices> {
  const setup = await withModel()
  for (const memory of MEMORIES) await setup.services.memory.create(memory)
  await setup.services.memoryIndexer.drained()
  return setup
}

const top = (hits: MemorySearchHit[]) => hits[0]?.content

describe('recall of memories by meaning', () => {
  it('finds English paraphrases by meaning', async () => {
    const { services } = await withMemories()
    const result = await services.memory.search('How old is my kid?')
    expect(result.mode).toBe('hybrid')
    expect(top(result.hits)).toBe('My daughter Lily is seven years old.')
    expect(result.hits[0]?.matchedBy).toContain('vector')
    const build = await services.memory.search('Which package manager should the build use?')
    expect(top(build.hits)).toBe('I use pnpm for every JavaScript project.')
    expect(build.hits[0]?.matchedBy).toContain('vector')
  })

  it('finds a Chinese paraphrase that shares no three characters with the memory', async () => {
    const { services } = await withMemories()
    expect(top((await services.memory.search('我最近在练什么乐器？')).hits)).toBe(
      '我正在学弹钢琴。'
    )
    expect(top((await services.memory.search('我在哪个城市上班？')).hits)).toBe(
      '我住在上海，在一家银行工作。'
    )
  })

  it('finds the other language’s memory for a cross-lingual query', async () => {
    const { services } = await withMemories()
    expect(top((await services.memory.search('Please avoid spicy dishes for me.')).hits)).toBe(
      '我不吃辣。'
    )
    expect(top((await services.memory.search('我女儿几岁了？')).hits)).toBe(
      'My daughter Lily is seven years old.'
    )
    expect(top((await services.memory.search('构建脚本用哪个包管理器？')).hits)).toBe(
      'I use pnpm for every JavaScript project.'
    )
  })

  it('drops what is not similar enough: minSimilarity filters', async () => {
    const { services } = await withMemories()
    expect((await services.memory.search('Tell me a joke about cats.')).hits).toEqual([])
    expect((await services.memory.search('今天天气怎么样？')).hits).toEqual([])
    const everything = await services.memory.search('Tell me a joke about cats.', {
      minSimilarity: 0
    })
    expect(everything.hits.length).toBe(MEMORIES.length)
    // Above the floor nothing is supported by its vector; what remains is full text alone.
    const strict = await services.memory.search('How old is my kid?', { minSimilarity: 0.99 })
    expect(strict.hits.map((h) => [h.content, h.matchedBy])).toEqual([
      ['My daughter Lily is seven years old.', ['text']]
    ])
    for (const hit of (await services.memory.search('How old is my kid?')).hits) {
      if (hit.matchedBy.includes('vector')) expect(hit.similarity).toBeGreaterThanOrEqual(0.6)
    }
  })

  it('keeps a full-text hit under the similarity floor, ranked by its text rank alone', async () => {
    const { services } = await withMemories()
    // Half the query's words are the memory's own ("seven"); before, the floor vetoed it.
    const hits = (await services.memory.search('seven parrots', { minSimilarity: 0.99 })).hits
    expect(hits.map((h) => h.content)).toEqual(['My daughter Lily is seven years old.'])
    expect(hits[0]).toMatchObject({ matchedBy: ['text'], score: 1 / 2 })
    expect(hits[0]?.similarity).toBeLessThan(0.99)
    // A vector-only item under the floor is still dropped: no word of the query is in it.
    const loose = await services.memory.search('Tell me a joke about cats.', {
      minSimilarity: 0.99
    })
    expect(loose.hits).toEqual([])
  })

  it('filters by category and returns scores and sources', async () => {
    const { services } = await withMemories()
    const facts = await services.memory.search('我对什么食物过敏？', { categories: ['fact'] })
    expect(facts.hits.every((h) => h.category === 'fact')).toBe(true)
    expect(top(facts.hits)).toBe('我对花生过敏。')
    expect(facts.hits[0]).toMatchObject({
      kind: 'memory',
      ref: expect.stringMatching(/^memory:\d+$/)
    })
    expect(facts.hits[0]?.score).toBeGreaterThan(0)
  })
})

describe('recall of messages from every thread', () => {
  it('recalls a message stated in another thread, never an excluded one', async () => {
    const { services } = await withModel()
    const trip = services.threads.create('Trip')
    const stated = await services.chat.send(trip.id, '我是素食者，从来不吃肉。')
    const secret = await services.chat.send(
      trip.id,
      '我的银行卡密码是 4921，我也是素食者，从来不吃肉。'
    )
    services.messages.setFlags(secret.message.id, { excluded: true })
    await services.memoryIndexer.drained()

    const result = await services.memory.search('我能吃红烧肉吗？')
    const ids = result.hits.map((h) => h.id)
    expect(result.hits[0]).toMatchObject({
      kind: 'message',
      id: stated.message.id,
      threadId: trip.id
    })
    expect(ids).not.toContain(secret.message.id)
    const scoped = await services.memory.search('我能吃红烧肉吗？', {
      scope: 'thread',
      threadId: services.threads.create('Other').id
    })
    expect(scoped.hits.filter((h) => h.kind === 'message')).toEqual([])
  })

  it('stops recalling a deleted thread’s messages and removes their vectors', async () => {
    const { services, db } = await withModel()
    const thread = services.threads.create('Garden')
    await services.chat.send(thread.id, '我家的花园里种了三棵苹果树。')
    await services.memoryIndexer.drained()
    // A loaded machine must not push the query past its deadline into words only.
    const search = (query: string) => services.memory.search(query, { timeoutMs: 30_000 })
    expect((await search('院子里有什么果树？')).hits[0]?.threadId).toBe(thread.id)

    services.threads.delete(thread.id)
    expect((await search('院子里有什么果树？')).hits).toEqual([])
    const space = db.prepare("SELECT id FROM vector_spaces WHERE state = 'active'").pluck().get()
    expect(db.prepare(`SELECT count(*) FROM message_vectors_${space}`).pluck().get()).toBe(0)
    expect(db.prepare('SELECT count(*) FROM embedding_queue').pluck().get()).toBe(0)
  })

  it('keeps the memory made from a message and drops the message itself from the results', async () => {
    const { services } = await withModel()
    const thread = services.threads.create('Prefs')
    const sent = await services.chat.send(thread.id, 'I always want answers in British English.')
    const made = await services.memory.createFromMessage(sent.message.id, {
      content: 'Answers should be in British English.',
      category: 'user_preference'
    })
    await services.memoryIndexer.drained()
    const hits = (await services.memory.search('Do you remember my British English preference?'))
      .hits
    expect(hits.map((h) => h.ref)).toContain(`memory:${made.memory.id}`)
    expect(hits.map((h) => h.ref)).not.toContain(`message:${sent.message.id}`)
  })
})
