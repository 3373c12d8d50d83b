/**
 * The send path and long threads (issue #16) on a real SQLite file: `messages:list` pages from
 * the newest message, the cache's incremental per-thread state matches a fresh read after
 * edits and regenerates, and the build of a sent request is stored even when the provider
 * fails right after receiving it.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Message, MessagePage } from '@shared/domain'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { recallRequest } from '../../src/main/context/recall/recallRequest'
import { resolveContextConfig } from '@shared/contextConfig'
import { MessageOutlines } from '../../src/main/store/messageOutline'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { ThreadMessageCache } from '../../src/main/services/chat/threadMessageCache'
import { closedPort } from '../support/closedPort'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/** Writes `count` messages straight through the repository (the app's insert, FTS included). */
function seed(test: TestServices, threadId: string, count: number, from = 1): Message[] {
  const repository = new MessageRepository(test.db)
  return test.db.transaction(() =>
    Array.from({ length: count }, (_, i) =>
      repository.append({
        threadId,
        role: (from + i) % 2 === 1 ? 'user' : 'assistant',
        content: `message ${from + i}`,
        tokenCount: 3 + ((from + i) % 7),
        createdAt: from + i
      })
    )
  )()
}

function registryOf(test: TestServices) {
  const registry = createRegistry(createHandlers(test.services), () => {})
  return async (input: unknown): Promise<MessagePage> => {
    const result = await registry.invoke('messages:list', input)
    if (!result.ok) throw new Error(result.error.message)
    return result.data as MessagePage
  }
}

describe('messages:list pages', () => {
  for (const cached of [false, true]) {
    it(`walks a thread from the newest message back, without gaps or duplicates while messages are added (${cached ? 'cached' : 'from the index'})`, async () => {
      const test = servicesIn(tempDir())
      const thread = test.services.threads.create()
      seed(test, thread.id, 1_050)
      if (cached) await test.services.context.preview(thread.id, 'warm the cache')
      const list = registryOf(test)

      const first = await list({ threadId: thread.id })
      expect(first.messages.map((m) => m.seq)).toEqual(
        Array.from({ length: 100 }, (_, i) => 951 + i)
      )
      expect(first.hasOlder).toBe(true)

      const seen = [...first.messages]
      let cursor = first.messages[0]!.seq
      let hasOlder = first.hasOlder
      let added = 1_050
      while (hasOlder) {
        // A reply arrives while the reader scrolls up: it must not shift the older pages.
        await test.services.chat.send(thread.id, `new ${++added}`)
        const page = await list({ threadId: thread.id, beforeSeq: cursor, limit: 200 })
        expect(page.messages.at(-1)!.seq).toBe(cursor - 1)
        seen.unshift(...page.messages)
        cursor = page.messages[0]!.seq
        hasOlder = page.hasOlder
      }
      expect(seen.map((m) => m.seq)).toEqual(Array.from({ length: 1_050 }, (_, i) => i + 1))

      // A refresh from the first loaded message brings everything after it, new ones included.
      const refresh = await list({ threadId: thread.id, fromSeq: 1_040 })
      expect(refresh.messages[0]!.seq).toBe(1_040)
      expect(refresh.messages.at(-1)!.content).toBe(`new ${added}`)
      expect(refresh.hasOlder).toBe(true)
      test.db.close()
    })
  }

  it('refuses a bad page request with a typed error and answers not_found for a missing thread', async () => {
    const test = servicesIn(tempDir())
    const thread = test.services.threads.create()
    const registry = createRegistry(createHandlers(test.services), () => {})
    for (const input of [
      { threadId: thread.id, beforeSeq: 5, fromSeq: 2 },
      { threadId: thread.id, limit: 0 },
      { threadId: thread.id, limit: 501 },
      { threadId: thread.id, beforeSeq: -1 },
      { threadId: thread.id, beforeSeq: 1.5 },
      { threadId: thread.id, cursor: 'x' }
    ]) {
      expect(await registry.invoke('messages:list', input)).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' }
      })
    }
    expect(
      await registry.invoke('messages:list', { threadId: '3f1c0a8e-5b1d-4c2e-9f7a-1b2c3d4e5f60' })
    ).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(await registry.invoke('messages:list', { threadId: thread.id })).toEqual({
      ok: true,
      data: { messages: [], hasOlder: false }
    })
    test.db.close()
  })
})

describe('per-thread state kept as messages arrive', () => {
  let provider: ScriptedProvider
  beforeAll(async () => {
    provider = await startScriptedProvider({ models: ['m'] })
  })
  afterAll(() => provider.close())

  it('equals a fresh read after sends, edits, regenerates and flag changes', async () => {
    const test = servicesIn(tempDir(), Date.now, undefined, {
      streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 }
    })
    const created = test.services.providers.create({
      kind: 'openai-compatible',
      name: 'Scripted',
      baseUrl: provider.v1,
      models: [{ id: 'm', contextWindow: 16_000, maxOutput: 1_000 }]
    })
    const thread = test.services.threads.create()
    test.services.threads.setModel(thread.id, { providerId: created.id, modelId: 'm' })
    seed(test, thread.id, 6_000)
    // The thread loads in slices (5,000 rows each) while a flag changes and a message arrives.
    const repository = new MessageRepository(test.db)
    const cache = new ThreadMessageCache(repository, new MessageOutlines(test.db), 2)
    const loading = cache.load(thread.id)
    const pinned = repository.setFlags(10, { pinned: true })!
    cache.updated(pinned)
    const late = repository.append({
      threadId: thread.id,
      role: 'user',
      content: 'written while loading',
      tokenCount: 4,
      createdAt: 9
    })
    cache.appended(late)
    expect(await loading).toEqual(repository.listByThread(thread.id))

    const settle = () => test.services.chat.settled(thread.id)
    provider.enqueue({ type: 'reply', chunks: ['first answer'] })
    await test.services.chat.send(thread.id, 'a question')
    await settle()
    provider.enqueue({ type: 'reply', chunks: ['second answer'] })
    const { message: asked } = await test.services.chat.send(thread.id, 'another question')
    await settle()
    provider.enqueue({ type: 'reply', chunks: ['regenerated'] })
    await test.services.chat.regenerate(thread.id)
    await settle()
    provider.enqueue({ type: 'reply', chunks: ['after the edit'] })
    await test.services.chat.editResend(asked.id, 'the question, edited')
    await settle()
    // A paste four times the window nobody previewed: stored with its estimate, counted once
    // its request has left, by when its reply may follow it.
    provider.enqueue({ type: 'reply', chunks: ['about the paste'] })
    await test.services.chat.send(thread.id, randomBytes(90_000).toString('base64'))
    await settle()
    await test.services.chat.recounted()
    test.services.messages.setFlags(asked.id, { pinned: true })

    const kept = test.services.messages.list(thread.id)
    const fresh = new MessageRepository(test.db).listByThread(thread.id)
    expect(kept).toEqual(fresh)
    const sums = new ThreadMessageCache(repository, new MessageOutlines(test.db), 1)
    sums.get(thread.id)
    // The running sums the turn reads instead of a pass over the thread.
    const { services } = test
    const cacheOf = (services.context as unknown as { deps: { cache: ThreadMessageCache } }).deps
      .cache
    const cached = await cacheOf.forBuild(thread.id, Infinity)
    const read = await sums.forBuild(thread.id, Infinity)
    for (const index of [0, 1, 4_999, 5_000, fresh.length - 1, fresh.length]) {
      const expected = fresh.slice(0, index).reduce((sum, m) => sum + m.tokenCount, 0)
      expect(cached.tokens[index]).toBe(expected)
      expect(read.tokens[index]).toBe(expected)
    }
    // And the recall request they feed is the one a full pass computes.
    const config = resolveContextConfig({ contextWindow: 16_000, outputReserve: 1_000 })
    if (!config.ok) throw new Error('config')
    const history = fresh.slice(0, -1)
    expect(
      recallRequest(config.config, history, undefined, {
        tokens: cached.tokens[history.length],
        pinned: repository.listPinned(thread.id)
      })
    ).toEqual(recallRequest(config.config, history))
    test.db.close()
  })
})

describe('the build of a sent request', () => {
  let provider: ScriptedProvider
  beforeAll(async () => {
    provider = await startScriptedProvider({ models: ['m'] })
  })
  afterAll(() => provider.close())

  const setup = (baseUrl: string) => {
    const test = servicesIn(tempDir(), Date.now, undefined, {
      streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 }
    })
    const created = test.services.providers.create({
      kind: 'openai-compatible',
      name: 'Scripted',
      baseUrl,
      models: [{ id: 'm', contextWindow: 16_000, maxOutput: 1_000 }]
    })
    const thread = test.services.threads.create()
    test.services.threads.setModel(thread.id, { providerId: created.id, modelId: 'm' })
    return { test, threadId: thread.id }
  }

  it('is stored when the provider fails right after receiving it, and matches what was sent', async () => {
    const { test, threadId } = setup(provider.v1)
    const before = provider.completions().length
    provider.enqueue({ type: 'error', status: 500, kind: 'server' })
    const outcome = await test.services.chat.send(threadId, 'this request fails')
    await test.services.chat.settled(threadId)
    expect(outcome.status).toBe('streaming')
    const [stored] = test.services.context.builds(threadId)
    expect(stored).toMatchObject({ id: outcome.build!.id, messageId: outcome.message.id })
    const sent = provider.completions()[before]!.body as { messages: { content: string }[] }
    expect(sent.messages.at(-1)!.content).toContain('this request fails')
    expect(stored!.context.messages.at(-1)!.content).toBe(sent.messages.at(-1)!.content)
    expect(test.published.some((e) => e.event === 'chat:error')).toBe(true)
    test.db.close()
  })

  it('is stored when the request never leaves (connection refused)', async () => {
    const { test, threadId } = setup(`http://127.0.0.1:${await closedPort()}/v1`)
    const outcome = await test.services.chat.send(threadId, 'nobody is listening')
    await test.services.chat.settled(threadId)
    expect(test.services.context.builds(threadId)).toMatchObject([
      { id: outcome.build!.id, messageId: outcome.message.id }
    ])
    expect(test.services.messages.list(threadId).map((m) => m.content)).toEqual([
      'nobody is listening'
    ])
    test.db.close()
  })
})
