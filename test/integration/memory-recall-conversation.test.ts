import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmbedOptions } from '../../src/main/workers/embedding/embedder'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { e5Model, testEmbedder } from '../support/embeddings'
import { memoryServicesIn, useMemoryServices } from '../support/memoryServices'
import { pollUntil } from '../support/poll'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { aesCipher } from '../support/testCipher'

/**
 * Recall that reads the conversation, on the real model, the real worker and a real SQLite
 * file: the conversation as a second query, embedded before the user sends, the turns next to
 * a recalled message, and the nearest items under the floor when a build has budget to fill.
 */

const tempDir = useTempDir()
const { withModel, workerPath } = useMemoryServices(tempDir)

const KEY = 'sk-test-Conversation-Key-0a1b2c3d4e5f'
let server: ScriptedProvider
beforeAll(async () => {
  server = await startScriptedProvider({ requiredKey: KEY, models: ['scripted-model'] })
})
afterAll(() => server.close())

/** The real e5 worker, noting every text it embeds as a search query. */
function countingE5(queries: string[]) {
  const model = e5Model()
  return () => {
    const client = testEmbedder(workerPath(), model)
    const embed = client.embed.bind(client)
    client.embed = (texts: readonly string[], options?: EmbedOptions) => {
      if (options?.role === 'query') queries.push(...texts)
      return embed(texts, options)
    }
    return { embedder: client as EmbeddingClient, spec: model.spec }
  }
}

const MEMORIES = [
  '我女儿朵朵最喜欢看《小猪佩奇》。',
  'My dog Biscuit has arthritis in his back legs.',
  'I started learning to climb at the bouldering gym in September.',
  '我每天早上喝一杯绿茶。',
  'I use pnpm for every JavaScript project.',
  'The quarterly tax report is due next Friday.',
  '我住在上海，在一家银行工作。'
]

async function withMemories() {
  const setup = await withModel()
  for (const content of MEMORIES) await setup.services.memory.create({ content, category: 'fact' })
  await setup.services.memoryIndexer.drained()
  return setup
}

describe('recall that reads the conversation', () => {
  it('finds what a follow-up refers to through the turn before it', async () => {
    const { services } = await withMemories()
    const cases = [
      ['送她什么礼物好？', '下周六是我女儿的生日。', MEMORIES[0]],
      ['Is that a good idea?', 'I want to take my dog on a long hike this weekend.', MEMORIES[1]]
    ] as const
    for (const [input, before, memory] of cases) {
      // Alone, the follow-up names nothing: no memory reaches the floor.
      expect((await services.memory.search(input)).hits).toEqual([])
      const withContext = await services.memory.search(input, { context: before })
      expect(withContext.hits.map((h) => h.content)).toEqual([memory])
      expect(withContext.hits[0]?.matchedBy).toContain('vector')
    }

    // The same through a build: the thread's last turn goes along with the input.
    const thread = services.threads.create('Birthday')
    await services.chat.send(thread.id, '下周六是我女儿的生日。')
    const built = await services.context.preview(thread.id, '送她什么礼物好？', {
      totalBudget: 1_500
    })
    const recalled = built.trace.filter((t) => t.section === 'retrieved')
    expect(recalled[0]).toMatchObject({ preview: MEMORIES[0], decision: 'included' })
  })

  it('embeds the conversation when a reply ends and when the thread opens: a send embeds only its input', async () => {
    const queries: string[] = []
    const cipher = aesCipher()
    const dir = tempDir()
    const setup = memoryServicesIn(dir, { embeddings: countingE5(queries), cipher })
    const { services } = setup
    // The model's warm-up embeds queries of its own: done before any is counted.
    await pollUntil(() => services.memoryIndexer.active(), { what: 'the model' })
    await services.memory.warmedUp()
    await services.memory.create({ content: MEMORIES[0] as string, category: 'fact' })
    await services.memoryIndexer.drained()
    const provider = services.providers.create({
      kind: 'openai-compatible',
      name: 'Scripted',
      baseUrl: server.v1,
      apiKey: KEY,
      models: [{ id: 'scripted-model', contextWindow: 32_000, maxOutput: 2_000 }]
    })
    const thread = services.threads.create('Birthday')
    services.threads.setModel(thread.id, { providerId: provider.id, modelId: 'scripted-model' })
    server.enqueue({ type: 'reply', chunks: ['太好了！', '有什么计划吗？'] })
    await services.chat.send(thread.id, '下周六是我女儿的生日。')
    await services.chat.settled(thread.id)

    // The reply has ended: the conversation the next input will be read in is embedded now,
    // while the user reads and types, not when they send.
    const conversation = '下周六是我女儿的生日。\n太好了！有什么计划吗？'
    await pollUntil(() => queries.includes(conversation), { what: 'the conversation embedded' })
    queries.length = 0
    const sent = await services.chat.send(thread.id, '送她什么礼物好？')
    await services.chat.settled(thread.id)
    // The send embedded its input alone; then, its reply ended, the next conversation.
    await pollUntil(() => queries.length >= 2, { what: 'the next conversation embedded' })
    expect(queries).toEqual(['送她什么礼物好？', '送她什么礼物好？\nHello from the script.'])
    // And the follow-up still finds what it refers to through that conversation.
    const recalled = sent.build?.context.trace.filter(
      (t) => t.section === 'retrieved' && t.decision === 'included'
    )
    // Once under Node 22 on a loaded machine this found nothing: the warnings say why next time.
    const warnings = JSON.stringify(sent.build?.context.metadata.warnings)
    expect(
      recalled?.map((t) => t.preview),
      warnings
    ).toEqual([MEMORIES[0]])
    await services.chat.settled()
    await setup.close()

    // Opened at start-up, before the model is ready (the last-open thread), the thread
    // readies its conversation before the first send all the same.
    const opened: string[] = []
    const again = memoryServicesIn(dir, { embeddings: countingE5(opened), cipher })
    try {
      expect(again.services.memoryIndexer.active()).toBeNull()
      again.services.messages.page(thread.id)
      const next = '送她什么礼物好？\nHello from the script.'
      await pollUntil(() => opened.includes(next), { what: 'the opened thread’s conversation' })
      await again.services.memory.warmedUp()
      // The warm-up's short and long query, then the conversation: each embedded once.
      expect(opened).toHaveLength(3)
      expect(opened[0]).toBe('warm-up')
      expect(opened[2]).toBe(next)
      opened.length = 0
      await again.services.chat.send(thread.id, '要不要再买个蛋糕？')
      await again.services.chat.settled(thread.id)
      await pollUntil(() => opened.length >= 2, { what: 'the next conversation embedded' })
      expect(opened).toEqual(['要不要再买个蛋糕？', '要不要再买个蛋糕？\nHello from the script.'])
    } finally {
      await again.close()
    }
  })

  it('embeds a send’s input while the build reads the thread, before its search starts', async () => {
    const events: string[] = []
    const setup = memoryServicesIn(tempDir(), {
      embeddings: countingE5(events),
      turnProbe: (_thread, mark) => events.push(mark)
    })
    const { services } = setup
    try {
      await pollUntil(() => services.memoryIndexer.active(), { what: 'the model' })
      await services.memory.warmedUp()
      await services.memory.create({ content: MEMORIES[2] as string, category: 'fact' })
      await services.memoryIndexer.drained()
      const thread = services.threads.create('Weekends')
      events.length = 0
      // No provider: the send stores the message and builds its request all the same.
      const sent = await services.chat.send(thread.id, 'Where do I go climbing?')
      const input = events.indexOf('Where do I go climbing?')
      expect(input).toBeGreaterThanOrEqual(0)
      expect(input).toBeLessThan(events.indexOf('search_start'))
      // Embedded once: the search waited for that embedding, and found with it.
      expect(events.filter((e) => e === 'Where do I go climbing?')).toHaveLength(1)
      const recalled = sent.build?.context.trace.filter(
        (t) => t.section === 'retrieved' && t.decision === 'included'
      )
      expect(recalled?.map((t) => t.preview)).toEqual([MEMORIES[2]])
    } finally {
      await setup.close()
    }
  })

  it('brings the reply to a recalled question along, after the direct hits', async () => {
    const { services, db } = await withModel()
    const vet = services.threads.create('Biscuit')
    const question = await services.chat.send(
      vet.id,
      'What did the vet say about Biscuit’s weight?'
    )
    const content = 'He should lose two kilos before his next check-up in March.'
    const reply = new MessageRepository(db).append({
      threadId: vet.id,
      role: 'assistant',
      content,
      tokenCount: 14,
      createdAt: Date.now()
    })
    await services.memoryIndexer.drained()

    const query = 'How is Biscuit’s weight?'
    const plain = await services.memory.search(query, { limit: 5 })
    expect(plain.hits.map((h) => h.id)).toEqual([question.message.id])
    const filled = await services.memory.search(query, { limit: 5, fillBudget: true })
    const byId = new Map(filled.hits.map((h) => [h.id, h]))
    expect(byId.get(reply.id)?.matchedBy).toEqual(['neighbour'])
    expect(byId.get(reply.id)!.score).toBeLessThan(byId.get(question.message.id)!.score)
  })

  it('fills a large budget with the nearest items under the floor, after every supported hit', async () => {
    const { services } = await withMemories()
    expect((await services.memory.search('Recommend a science fiction novel.')).hits).toEqual([])
    const filled = await services.memory.search('Recommend a science fiction novel.', {
      fillBudget: true
    })
    expect(filled.hits.length).toBeGreaterThan(0)
    for (const hit of filled.hits) {
      expect(hit.matchedBy).toEqual(['nearest'])
      expect(hit.similarity!).toBeGreaterThanOrEqual(0.5)
      expect(hit.similarity!).toBeLessThan(0.6)
    }
    const sims = filled.hits.map((h) => h.similarity!)
    expect(sims).toEqual([...sims].sort((a, b) => b - a))

    // Supported hits always come first.
    const mixed = await services.memory.search('我女儿最喜欢看什么动画片？', { fillBudget: true })
    expect(mixed.hits[0]).toMatchObject({ content: MEMORIES[0] })
    expect(mixed.hits[0]?.matchedBy).toContain('vector')
    const firstNearest = mixed.hits.findIndex((h) => h.matchedBy.includes('nearest'))
    const lastSupported = mixed.hits.findLastIndex((h) => !h.matchedBy.includes('nearest'))
    if (firstNearest !== -1) expect(firstNearest).toBeGreaterThan(lastSupported)
  })
})
