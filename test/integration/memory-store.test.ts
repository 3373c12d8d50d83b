import { describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { LATEST_VERSION, schemaVersion } from '../../src/main/store/migrations'
import { e5Model } from '../support/embeddings'
import { useMemoryServices } from '../support/memoryServices'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const { withModel, withoutModel } = useMemoryServices(tempDir)

describe('the memory tables (migration 4)', () => {
  it('creates memories, their history, FTS, the queue and the vector spaces', () => {
    const { db } = withoutModel()
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()
    expect(tables).toEqual(
      expect.arrayContaining([
        'memories',
        'memory_history',
        'memories_fts',
        'embedding_queue',
        'vector_spaces'
      ])
    )
  })
})

describe('deduplication and history', () => {
  it('updates instead of inserting when the text is the same (content hash)', async () => {
    const { services } = withoutModel()
    const first = await services.memory.create({
      content: 'I like green tea.',
      category: 'user_preference'
    })
    const again = await services.memory.create({
      content: '  i like   GREEN tea. ',
      category: 'user_preference'
    })
    expect(first.action).toBe('created')
    expect(again).toMatchObject({
      action: 'updated',
      dedup: 'hash',
      memory: { id: first.memory.id }
    })
    const same = await services.memory.create({
      content: 'i like GREEN tea.',
      category: 'user_preference'
    })
    expect(same.action).toBe('unchanged')
    expect(services.memory.list({}).total).toBe(1)
    expect(
      services.memory.origin(first.memory.id).history.map((h) => [h.action, h.reason])
    ).toEqual([
      ['create', 'explicit'],
      ['update', 'dedup_hash']
    ])
  })

  it('updates the existing memory when a new one is a near-duplicate (cosine >= 0.92)', async () => {
    const { services } = await withModel()
    const first = await services.memory.create({
      content: 'I prefer tea over coffee in the morning.'
    })
    const restated = await services.memory.create({
      content: 'In the morning I prefer tea over coffee.'
    })
    expect(restated).toMatchObject({
      action: 'updated',
      dedup: 'similar',
      memory: { id: first.memory.id }
    })
    expect(restated.similarity).toBeGreaterThanOrEqual(0.92)
    const other = await services.memory.create({ content: 'My daughter Lily is seven years old.' })
    expect(other.action).toBe('created')
    const [created, updated] = services.memory.origin(first.memory.id).history
    expect(updated).toMatchObject({
      action: 'update',
      reason: 'dedup_similar',
      previousContent: 'I prefer tea over coffee in the morning.',
      content: 'In the morning I prefer tea over coffee.'
    })
    expect(created?.action).toBe('create')
    expect(services.memory.list({}).total).toBe(2)
  })

  it("keeps e5's same-wording different facts apart and still merges a restatement", async () => {
    const { services } = await withModel(e5Model())
    const peanuts = await services.memory.create({ content: '我对花生过敏。' })
    // e5 scores these two at about 0.94: above bge's bar of 0.92, below e5's own.
    const cats = await services.memory.create({ content: '我对猫毛过敏。' })
    expect(cats.action).toBe('created')
    const daughter = await services.memory.create({ content: '我女儿今年六岁。' })
    expect((await services.memory.create({ content: '我儿子今年八岁。' })).action).toBe('created')
    const restated = await services.memory.create({ content: '我的女儿今年六岁了。' })
    expect(restated).toMatchObject({ action: 'updated', memory: { id: daughter.memory.id } })
    expect(services.memory.list({}).total).toBe(4)
    expect(peanuts.action).toBe('created')
  })

  it('records edits, deletes and the undo that restores a deleted memory', async () => {
    const { services, published } = withoutModel()
    const thread = services.threads.create('Prefs')
    const sent = await services.chat.send(thread.id, '回答请尽量简短。')
    const made = await services.memory.rememberMessage(sent.message.id)
    const id = made.memory.id
    expect(made.memory).toMatchObject({
      sourceThreadId: thread.id,
      sourceMessageId: sent.message.id
    })

    services.memory.update(id, { content: '回答请简短，用要点列出。', category: 'user_preference' })
    expect(services.memory.delete(id)).toEqual({ deleted: true, id })
    expect(services.memory.list({}).total).toBe(0)
    const restored = services.memory.restore(id)
    expect(restored).toMatchObject({
      id,
      content: '回答请简短，用要点列出。',
      sourceMessageId: sent.message.id
    })

    const origin = services.memory.origin(id)
    expect(origin.source).toMatchObject({
      threadId: thread.id,
      threadTitle: 'Prefs',
      messageId: sent.message.id,
      seq: 1
    })
    expect(origin.history.map((h) => h.action)).toEqual(['create', 'update', 'delete', 'restore'])
    expect(published.filter((p) => p.event === 'memory:changed').length).toBeGreaterThanOrEqual(4)

    // The source thread goes; the memory stays, and says its source is gone.
    services.threads.delete(thread.id)
    expect(services.memory.origin(id).source).toBeNull()
    expect(services.memory.list({}).items[0]?.sourceMessageId).toBeNull()
  })

  it('lists by category and by text in either language', async () => {
    const { services } = withoutModel()
    await services.memory.create({ content: '我对花生过敏。', category: 'fact' })
    await services.memory.create({ content: 'Book the dentist before May.', category: 'task' })
    await services.memory.create({ content: 'I like short answers.', category: 'user_preference' })
    expect(services.memory.list({ category: 'task' }).items.map((m) => m.content)).toEqual([
      'Book the dentist before May.'
    ])
    expect(services.memory.list({ query: '花生' }).items.map((m) => m.content)).toEqual([
      '我对花生过敏。'
    ])
    expect(services.memory.list({ query: 'ANSWERS' }).total).toBe(1)
    expect(services.memory.list({ limit: 2 })).toMatchObject({ total: 3, items: [{}, {}] })
  })
})

describe('the memory channels', () => {
  it('validates payloads and routes every memory call through the registry', async () => {
    const { services } = withoutModel()
    const registry = createRegistry(createHandlers(services))
    const thread = services.threads.create('T')
    const sent = await services.chat.send(thread.id, 'I use pnpm for everything.')

    const remembered = await registry.invoke('messages:remember', { id: sent.message.id })
    expect(remembered).toMatchObject({
      ok: true,
      data: { action: 'created', memory: { sourceMessageId: sent.message.id } }
    })
    const created = await registry.invoke('memory:create', {
      content: '我住在上海。',
      category: 'fact'
    })
    expect(created).toMatchObject({ ok: true, data: { action: 'created' } })
    expect(await registry.invoke('memory:create', { content: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
    expect(await registry.invoke('memory:update', { id: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Nothing to change' }
    })
    expect(await registry.invoke('memory:delete', { id: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await registry.invoke('memory:list', { category: 'fact' })).toMatchObject({
      ok: true,
      data: { total: 1 }
    })
    expect(
      await registry.invoke('memory:search', { query: 'pnpm', kinds: ['memory'] })
    ).toMatchObject({
      ok: true,
      data: { mode: 'text_only', hits: [{ kind: 'memory', content: 'I use pnpm for everything.' }] }
    })
    expect(await registry.invoke('memory:status', undefined)).toMatchObject({
      ok: true,
      data: { model: { state: 'idle' }, index: { totalMemories: 2 } }
    })
    expect(await registry.invoke('memory:getSettings', undefined)).toEqual({
      ok: true,
      data: {
        modelFolder: null,
        embeddingModel: 'Xenova/multilingual-e5-small',
        allowDownload: true,
        modelMirror: null,
        autoExtract: true,
        indexingThreads: null
      }
    })
    // A download mirror is an http(s) address, or null for the hub.
    expect(
      await registry.invoke('memory:updateSettings', { modelMirror: 'https://hf-mirror.com' })
    ).toMatchObject({ ok: true, data: { modelMirror: 'https://hf-mirror.com' } })
    expect(
      await registry.invoke('memory:updateSettings', { modelMirror: 'file:///etc/passwd' })
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await registry.invoke('memory:updateSettings', { modelMirror: null })).toMatchObject({
      ok: true,
      data: { modelMirror: null }
    })
    expect(await registry.invoke('memory:updateSettings', { allowDownload: false })).toMatchObject({
      ok: true,
      data: { allowDownload: false, autoExtract: true }
    })
    expect(await registry.invoke('memory:updateSettings', { autoExtract: 'no' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
    // Indexing workers: 1-16 or null (half the cores), nothing else.
    expect(await registry.invoke('memory:updateSettings', { indexingThreads: 2 })).toMatchObject({
      ok: true,
      data: { indexingThreads: 2 }
    })
    for (const indexingThreads of [0, 17, 2.5, '2']) {
      expect(await registry.invoke('memory:updateSettings', { indexingThreads })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' }
      })
    }
    // Only the models the app knows can be chosen; the stored choice is kept on a refusal.
    expect(
      await registry.invoke('memory:updateSettings', { embeddingModel: 'someone/else' })
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(
      await registry.invoke('memory:updateSettings', { embeddingModel: 'Xenova/bge-small-zh-v1.5' })
    ).toMatchObject({ ok: true, data: { embeddingModel: 'Xenova/bge-small-zh-v1.5' } })
  })
})
