import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import type { Embedder } from '../../src/main/workers/embedding/embedder'
import { openDatabase } from '../../src/main/store/database'
import {
  closeSearchWorkers,
  startSearchWorkers
} from '../../src/main/workers/search/searchWorkerClient'
import {
  prepareEmbeddings,
  prepareSearchWorker,
  testEmbedder,
  defaultModel
} from '../support/embeddings'
import { memoryServicesIn, type MemoryTestServices } from '../support/memoryServices'
import { pollUntil } from '../support/poll'
import { useTempDir } from '../support/tempDir'

/**
 * The user-visible behaviour: something said in one thread comes back in the build of a new,
 * empty thread (through ContextBuildService, exactly as the inspector shows it), on the real model.
 */

const tempDir = useTempDir()
let workerPath: string
const open: MemoryTestServices[] = []

beforeAll(async () => {
  workerPath = await prepareEmbeddings()
}, 300_000)

afterEach(async () => {
  for (const setup of open.splice(0)) await setup.close()
})

function setupWith(embedder: () => Embedder | null): MemoryTestServices {
  const setup = memoryServicesIn(tempDir(), {
    embeddings: () => {
      const made = embedder()
      return made ? { embedder: made, spec: defaultModel().spec } : null
    }
  })
  open.push(setup)
  return setup
}

const retrieved = (built: BuiltContext) =>
  built.trace.filter((t) => t.section === 'retrieved' && t.kind === 'memory')

describe('recall in the build of a new thread', () => {
  it('brings back a preference stated in another thread, in Chinese and in English', async () => {
    const { services } = setupWith(() => testEmbedder(workerPath))
    const earlier = services.threads.create('Dinner plans')
    const zh = await services.chat.send(earlier.id, '我是素食者，从来不吃肉。')
    const en = await services.chat.send(
      earlier.id,
      'For the record: my daughter Lily is seven years old.'
    )
    await services.memoryIndexer.drained()

    const fresh = services.threads.create()
    // Typed first, as the inspector previews a draft: its vector is then ready, so a loaded
    // machine cannot push the query past the build's 500 ms into a full-text-only search.
    for (const draft of ['我能吃红烧肉吗？', 'How old is my kid?']) {
      await services.memory.search(draft, { timeoutMs: 30_000 })
    }
    const chinese = await services.context.preview(fresh.id, '我能吃红烧肉吗？')
    const zhItem = retrieved(chinese).find((t) => t.id === `message:${zh.message.id}`)
    expect(zhItem).toMatchObject({
      decision: 'included',
      source: expect.stringContaining('Dinner plans')
    })
    expect(zhItem?.score).toBeGreaterThan(0)
    expect(chinese.messages.some((m) => m.content.includes('我是素食者'))).toBe(true)

    const english = await services.context.preview(fresh.id, 'How old is my kid?')
    expect(retrieved(english).find((t) => t.id === `message:${en.message.id}`)?.decision).toBe(
      'included'
    )
    expect(english.metadata.warnings).toEqual([])
  })

  it('includes a remembered memory, with its score and source, in the new thread’s request', async () => {
    const { services } = setupWith(() => testEmbedder(workerPath))
    const earlier = services.threads.create('Tooling')
    const sent = await services.chat.send(earlier.id, 'I use pnpm for every JavaScript project.')
    const change = await services.memory.rememberMessage(sent.message.id)
    expect(change).toMatchObject({ action: 'created', memory: { category: 'user_preference' } })
    await services.memoryIndexer.drained()

    const fresh = services.threads.create()
    const outcome = await services.chat.send(
      fresh.id,
      'Which package manager should the build script use?'
    )
    const items = retrieved(outcome.build!.context)
    expect(items[0]).toMatchObject({
      id: `memory:${change.memory.id}`,
      decision: 'included',
      source: 'memory · user_preference',
      origin: { kind: 'memory', category: 'user_preference' }
    })
    // The message it was made from is not sent a second time.
    expect(items.some((t) => t.id === `message:${sent.message.id}`)).toBe(false)
    expect(outcome.build!.context.metadata.retrievedMemoryCount).toBeGreaterThanOrEqual(1)
  })
})

describe('degraded recall', () => {
  it('still builds when the search is too slow, with the upstream warning', async () => {
    const real = testEmbedder(workerPath)
    // An artificially slow model: every query takes two seconds.
    const slow: Embedder = new Proxy(real, {
      get(target, key, receiver) {
        if (key === 'embed') {
          return (texts: readonly string[], options?: { priority?: string }) =>
            options?.priority === 'query'
              ? new Promise((resolve) =>
                  setTimeout(() => resolve(target.embed(texts, options as never)), 2_000)
                )
              : target.embed(texts, options as never)
        }
        const value = Reflect.get(target, key, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      }
    })
    const { services } = setupWith(() => slow)
    const earlier = services.threads.create('Food')
    await services.chat.send(earlier.id, '我是素食者，从来不吃肉。')
    await services.memoryIndexer.drained()

    const fresh = services.threads.create()
    const started = performance.now()
    const built = await services.context.preview(fresh.id, '素食者可以吃什么？')
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(built.metadata.warnings).toContainEqual({
      code: 'upstream',
      message: expect.stringMatching(/could not be embedded within \d+ ms; full-text results only/),
      memory: expect.objectContaining({ code: 'embed_slow', ms: expect.any(Number) })
    })
    // Full text still found the earlier message ("素食者").
    expect(retrieved(built).map((t) => t.preview)).toContain('我是素食者，从来不吃肉。')
  })

  it('builds by meaning when the word search overruns its share, and says so', async () => {
    // The app's search worker, whose full-text answers take three seconds (a query
    // SQLite cannot interrupt): the build must not wait for them, and the main thread is free.
    const dir = tempDir()
    openDatabase(join(dir, 'store.sqlite')).close() // made before the worker opens it, as in the app
    const workers = startSearchWorkers(await prepareSearchWorker(), {
      databasePath: join(dir, 'store.sqlite')
    })
    const client = workers.fullText
    const fullText = client.fullText.bind(client)
    client.fullText = (query) =>
      new Promise((resolve) => setTimeout(() => resolve(fullText(query)), 3_000))
    const setup = memoryServicesIn(dir, {
      embeddings: () => ({ embedder: testEmbedder(workerPath), spec: defaultModel().spec }),
      searchWorkers: workers
    })
    open.push(setup)
    try {
      const { services } = setup
      const earlier = services.threads.create('Food')
      const stated = await services.chat.send(earlier.id, '我是素食者，从来不吃肉。')
      await services.memoryIndexer.drained()
      await services.memory.search('我能吃红烧肉吗？', { timeoutMs: 30_000 }) // the draft's preview

      const fresh = services.threads.create()
      const started = performance.now()
      const built = await services.context.preview(fresh.id, '我能吃红烧肉吗？')
      expect(performance.now() - started).toBeLessThan(1_500)
      expect(built.metadata.warnings).toContainEqual({
        code: 'upstream',
        message: expect.stringMatching(/Full-text search did not finish within \d+ ms/),
        memory: expect.objectContaining({ code: 'text_slow', ms: expect.any(Number) })
      })
      expect(retrieved(built).map((t) => t.id)).toContain(`message:${stated.message.id}`)
    } finally {
      await closeSearchWorkers(workers)
    }
  })

  it('builds without memories and says why when the whole search overruns its deadline', async () => {
    const setup = memoryServicesIn(tempDir(), {
      memory: { search: () => new Promise((resolve) => setTimeout(() => resolve([]), 2_000)) }
    })
    open.push(setup)
    const thread = setup.services.threads.create()
    const outcome = await setup.services.chat.send(thread.id, 'Hello again')
    expect(outcome.build?.context.metadata.warnings).toContainEqual({
      code: 'upstream',
      message: 'Memory search took over 500 ms; sent without memories.',
      memory: { code: 'search_timeout', message: 'Memory search took over 500 ms.', ms: 500 }
    })
  })

  it('starts without a model and recalls by full text, saying so in the build', async () => {
    const { services } = setupWith(() => null)
    const earlier = services.threads.create('Food')
    await services.chat.send(earlier.id, '我是素食者，从来不吃肉。')
    const status = services.memory.status()
    expect(status.model.state).toBe('idle')
    expect(status.index.pendingMessages).toBe(1)
    expect(status.warning).toEqual({
      code: 'no_model',
      message: 'No embedding model is configured; memory search uses full text only.'
    })

    const fresh = services.threads.create()
    const built = await services.context.preview(fresh.id, '素食者可以吃什么？')
    expect(retrieved(built).map((t) => t.preview)).toContain('我是素食者，从来不吃肉。')
    expect(built.metadata.warnings).toContainEqual({
      code: 'upstream',
      message: 'No embedding model is configured; memory search uses full text only.',
      memory: {
        code: 'no_model',
        message: 'No embedding model is configured; memory search uses full text only.'
      }
    })
  })

  it('without a model, sends at most ten messages of another thread that share its words', async () => {
    const { services } = setupWith(() => null)
    const garden = services.threads.create('Garden notes')
    for (let day = 1; day <= 14; day++) {
      await services.chat.send(garden.id, `Day ${day}: I watered the tomatoes before breakfast.`)
    }
    const fresh = services.threads.create()
    const built = await services.context.preview(fresh.id, 'When did I water the tomatoes?')
    const recalled = built.trace.filter(
      (t) => t.section === 'retrieved' && t.decision === 'included'
    )
    expect(recalled).toHaveLength(10)
    expect(recalled.every((t) => t.source?.includes('Garden notes'))).toBe(true)
  })

  it('reports a model that cannot load and keeps working on full text', async () => {
    const { services, logged } = setupWith(() =>
      testEmbedder(workerPath, { ...defaultModel(), root: tempDir() })
    )
    await expect(services.memoryIndexer.embedder()?.ready()).rejects.toThrow()
    const status = await pollUntil(
      () => {
        const now = services.memory.status()
        return now.model.state === 'unavailable' && now
      },
      { what: 'the memory status to say the model is unavailable' }
    )
    expect(status.model.state).toBe('unavailable')
    expect(status.warning).toMatchObject({ code: 'unavailable', reason: expect.any(String) })
    expect(status.warning?.message).toMatch(/could not be loaded/)
    expect(logged.some((l) => l.includes('could not be loaded'))).toBe(true)
    const thread = services.threads.create()
    const outcome = await services.chat.send(thread.id, 'Still works')
    expect(outcome.build).not.toBeNull()
  })
})
