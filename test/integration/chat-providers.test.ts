/**
 * The chat path end to end: real services over a real SQLite file, the real handler registry,
 * and the real AI SDK clients streaming from the scripted server on 127.0.0.1.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  ChatDelta,
  ChatDone,
  ChatErrorEvent,
  ChatRetry,
  Message,
  SendOutcome
} from '@shared/domain'
import type { ProviderInput, ProviderView } from '@shared/providers'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { pollUntil } from '../support/poll'
import { useTempDir } from '../support/tempDir'

const KEY = 'sk-test-Chat-Key-Never-Shown-9f8e7d6c'
const tempDir = useTempDir()
let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider({ requiredKey: KEY, models: ['gpt-4o-mini'] })
})
afterAll(() => server.close())

interface Setup extends TestServices {
  provider: ProviderView
  threadId: string
  invoke: (channel: string, input: unknown) => Promise<unknown>
  events<T>(name: string): T[]
}

function setup(
  input: Partial<ProviderInput> = {},
  modelId = 'gpt-4o-mini',
  firstChunkMs = 5_000
): Setup {
  const dir = tempDir()
  const test = servicesIn(dir, Date.now, undefined, {
    streamTimeouts: { firstChunkMs, idleMs: 5_000 }
  })
  const provider = test.services.providers.create({
    kind: 'openai',
    name: 'Scripted OpenAI',
    baseUrl: server.v1,
    apiKey: KEY,
    models: [
      { id: modelId, contextWindow: 16_000, maxOutput: 1_000, inputPrice: 1, outputPrice: 2 }
    ],
    ...input
  })
  const thread = test.services.threads.create()
  test.services.threads.setModel(thread.id, { providerId: provider.id, modelId })
  const registry = createRegistry(createHandlers(test.services), () => {})
  return {
    ...test,
    provider,
    threadId: thread.id,
    invoke: (channel, payload) => registry.invoke(channel, payload),
    events: <T>(name: string) =>
      test.published.filter((e) => e.event === name).map((e) => e.payload as T)
  }
}

async function sendAndSettle(s: Setup, content: string): Promise<SendOutcome> {
  const outcome = await s.services.chat.send(s.threadId, content)
  await s.services.chat.settled(s.threadId)
  return outcome
}

const lastBody = () =>
  server.completions().at(-1)?.body as {
    messages: { role: string; content: unknown }[]
    max_tokens?: number
    max_completion_tokens?: number
  }

describe('sending with a configured provider', () => {
  it('streams deltas as events and stores the reply with usage and cost', async () => {
    const s = setup()
    server.enqueue({
      type: 'reply',
      chunks: ['Hel', 'lo ', 'there'],
      usage: { prompt: 1_000, completion: 3, cacheRead: 200 }
    })
    const outcome = await sendAndSettle(s, 'Say hello')

    expect(outcome.status).toBe('streaming')
    if (outcome.status !== 'streaming') return
    expect(outcome.message.content).toBe('Say hello')
    const deltas = s.events<ChatDelta>('chat:delta')
    expect(deltas.map((d) => d.delta)).toEqual(['Hel', 'lo ', 'there'])
    expect(deltas.every((d) => d.messageId === outcome.streamId && d.threadId === s.threadId)).toBe(
      true
    )

    const [done] = s.events<ChatDone>('chat:done')
    expect(done?.message.content).toBe('Hello there')
    expect(done?.message.role).toBe('assistant')
    expect(done?.message.reply).toMatchObject({
      providerId: s.provider.id,
      modelId: 'gpt-4o-mini',
      status: 'complete',
      finishReason: 'stop',
      usage: {
        promptTokens: 1_000,
        completionTokens: 3,
        cacheReadTokens: 200,
        cacheWriteTokens: 0
      },
      estimatedPromptTokens: outcome.build.context.tokenStats.total,
      supersededBy: null
    })
    // 800 uncached at $1/M, 200 cache reads at the catalog's $0.075/M, 3 output at $2/M.
    expect(done?.message.reply?.cost).toBeCloseTo((800 * 1 + 200 * 0.075 + 3 * 2) / 1e6, 12)

    // Stored: a fresh read from SQLite has the same reply and its usage.
    const stored = s.services.messages.list(s.threadId)
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(await s.invoke('chat:usage', { threadId: s.threadId })).toEqual({
      ok: true,
      data: {
        promptTokens: 1_000,
        completionTokens: 3,
        cacheReadTokens: 200,
        cacheWriteTokens: 0,
        replies: 1,
        cost: done?.message.reply?.cost,
        unpricedReplies: 0
      }
    })
    const fresh = servicesIn(join(s.services.info.databasePath, '..'))
    expect(fresh.services.messages.list(s.threadId)[1]).toEqual(done?.message)
    fresh.db.close()
    s.db.close()
  })

  it('sends exactly the build: system first, the user input last, the output reserve as limit', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['one'] })
    await sendAndSettle(s, 'First question')
    server.enqueue({ type: 'reply', chunks: ['two'] })
    const outcome = await sendAndSettle(s, 'Second question')
    if (outcome.status !== 'streaming') throw new Error(outcome.status)

    const body = lastBody()
    const built = outcome.build.context.messages
    expect(body.messages.map((m) => m.role)).toEqual(built.map((m) => m.role))
    expect(body.messages.map((m) => m.content)).toEqual(built.map((m) => m.content))
    expect(body.messages[0]?.role).toBe('system')
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Second question' })
    expect(body.messages.some((m) => m.content === 'one')).toBe(true)
    // The window comes from the provider's model record, the reserve from its max output.
    expect(outcome.build.context.tokenStats.contextWindow).toBe(16_000)
    expect(outcome.build.context.tokenStats.outputReserve).toBe(1_000)
    expect(body.max_completion_tokens ?? body.max_tokens).toBe(1_000)
    s.db.close()
  })

  it('uses the default model from settings when the thread has none', async () => {
    const s = setup()
    const other = s.services.threads.create()
    // The first model added became the default: a new thread answers without choosing one.
    expect(s.services.settings.get().defaultModel).toEqual({
      providerId: s.provider.id,
      modelId: 'gpt-4o-mini'
    })
    server.enqueue({ type: 'reply', chunks: ['default'] })
    expect((await s.services.chat.send(other.id, 'hi')).status).toBe('streaming')
    await s.services.chat.settled()
    expect(s.services.messages.list(other.id).at(-1)?.content).toBe('default')
    // Set to none, nothing answers a thread without its own model.
    s.services.settings.update({ defaultModel: null })
    expect((await s.services.chat.send(other.id, 'again')).status).toBe('no_model_configured')
    s.db.close()
  })

  it('keeps the default on a listed model as providers come and go', () => {
    const s = setup()
    const first = { providerId: s.provider.id, modelId: 'gpt-4o-mini' }
    const second = s.services.providers.create({
      kind: 'openai-compatible',
      name: 'Second',
      baseUrl: server.v1,
      models: [{ id: 'other-model' }]
    })
    // A second provider does not take the default from the first.
    expect(s.services.settings.get().defaultModel).toEqual(first)
    s.services.providers.remove(s.provider.id)
    expect(s.services.settings.get().defaultModel).toEqual({
      providerId: second.id,
      modelId: 'other-model'
    })
    s.services.providers.update(second.id, { models: [] })
    expect(s.services.settings.get().defaultModel).toBeNull()
    s.db.close()
  })

  it('calibrates the model correction factor from the provider prompt tokens', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['x'], usage: { prompt: 10_000, completion: 1 } })
    const outcome = await sendAndSettle(s, 'Calibrate me')
    if (outcome.status !== 'streaming') throw new Error(outcome.status)
    const ours = outcome.build.context.tokenStats.total
    const expected = Math.min(2, 0.5 + 0.5 * (10_000 / ours))
    const config = s.services.contextConfig.get()
    expect(config.global.tokenCorrections?.['gpt-4o-mini']).toBeCloseTo(expected, 3)
    expect(s.services.contextConfig.get(s.threadId).effective.tokenCorrections['gpt-4o-mini']).toBe(
      config.global.tokenCorrections?.['gpt-4o-mini']
    )

    // Provider tokens equal to our corrected count keep the factor where it is.
    server.enqueue({ type: 'reply', chunks: ['y'], usage: { prompt: 1, completion: 1 } })
    await sendAndSettle(s, 'and again')
    const after = s.services.contextConfig.get().global.tokenCorrections?.['gpt-4o-mini']
    expect(after).toBeGreaterThanOrEqual(0.5)
    expect(after).toBeLessThan(config.global.tokenCorrections!['gpt-4o-mini']!)
    s.db.close()
  })
})

describe('failures', () => {
  it('401: a typed auth error event, and the user message is still stored', async () => {
    const s = setup()
    server.enqueue({ type: 'error', status: 401, kind: 'auth' })
    await sendAndSettle(s, 'Who am I?')
    const [error] = s.events<ChatErrorEvent>('chat:error')
    expect(error?.error.kind).toBe('auth')
    expect(error?.message).toBeNull()
    expect(JSON.stringify(error)).not.toContain(KEY)
    expect(s.services.messages.list(s.threadId).map((m) => m.content)).toEqual(['Who am I?'])
    s.db.close()
  })

  it('429: retryAfterMs from the retry-after header', async () => {
    const s = setup()
    server.enqueue({ type: 'error', status: 429, kind: 'rate_limit', retryAfter: '7' })
    await sendAndSettle(s, 'Busy?')
    const [error] = s.events<ChatErrorEvent>('chat:error')
    expect(error?.error).toMatchObject({ kind: 'rate_limit', retryAfterMs: 7_000 })
    s.db.close()
  })

  it('context length: rebuilds with a smaller budget and retries once, visibly', async () => {
    const s = setup()
    server.enqueue(
      { type: 'error', status: 400, kind: 'context_length' },
      { type: 'reply', chunks: ['fits now'] }
    )
    const before = server.completions().length
    const outcome = await sendAndSettle(s, 'A long question')
    if (outcome.status !== 'streaming') throw new Error(outcome.status)
    expect(server.completions().length - before).toBe(2)
    const [retry] = s.events<ChatRetry>('chat:retry')
    expect(retry?.reason).toBe('context_length')
    expect(retry?.budget).toBe(Math.floor(outcome.build.context.tokenStats.budget * 0.8))
    expect(retry?.build.context.tokenStats.budget).toBe(retry?.budget)
    expect(s.events<ChatDone>('chat:done')[0]?.message.content).toBe('fits now')
    expect(s.services.context.builds(s.threadId)).toHaveLength(2)
    s.db.close()
  })

  it('context length twice: one retry only, then the error is reported', async () => {
    const s = setup()
    server.enqueue(
      { type: 'error', status: 400, kind: 'context_length' },
      { type: 'error', status: 400, kind: 'context_length' }
    )
    const before = server.completions().length
    await sendAndSettle(s, 'Way too long')
    expect(server.completions().length - before).toBe(2)
    expect(s.events<ChatErrorEvent>('chat:error')[0]?.error.kind).toBe('context_length')
    s.db.close()
  })

  it('stop aborts the stream and keeps the partial reply, marked stopped', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['part ', 'one ', 'two ', 'three'], chunkDelayMs: 150 })
    await s.services.chat.send(s.threadId, 'Long answer please')
    await pollUntil(() => s.events<ChatDelta>('chat:delta').length >= 1, {
      what: 'the first delta'
    })
    expect(await s.invoke('chat:stop', { threadId: s.threadId })).toEqual({
      ok: true,
      data: { stopped: true }
    })
    await s.services.chat.settled(s.threadId)
    const [done] = s.events<ChatDone>('chat:done')
    expect(done?.message.reply?.status).toBe('stopped')
    expect(done?.message.content.startsWith('part ')).toBe(true)
    expect(done?.message.content).not.toContain('three')
    expect(s.services.messages.list(s.threadId).at(-1)).toEqual(done?.message)
    await pollUntil(() => server.disconnects > 0, {
      what: 'the provider to see the request disconnected'
    })
    s.db.close()
  })

  it('answers the send with the stored build while the provider has not answered yet', async () => {
    // No stream timeout within the test's own: only the store's delay can answer the send.
    const s = setup({}, 'gpt-4o-mini', 60_000)
    server.enqueue({ type: 'hang' })
    // The build is stored once the response starts, or shortly after the request left: a
    // provider that never answers must not hold the send (nor the inspector) until a timeout.
    const outcome = await s.services.chat.send(s.threadId, 'Anyone there?')
    expect(outcome.status).toBe('streaming')
    expect(outcome.build?.context.messages.at(-1)?.content).toContain('Anyone there?')
    expect(s.events('context:built')).toHaveLength(1)
    expect(s.events('chat:done')).toEqual([])
    await s.invoke('chat:stop', { threadId: s.threadId })
    await s.services.chat.settled(s.threadId)
    s.db.close()
  })

  it('deleting the thread stops its reply quietly', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['a', 'b', 'c'], chunkDelayMs: 150 })
    await s.services.chat.send(s.threadId, 'going away')
    await pollUntil(() => s.events<ChatDelta>('chat:delta').length >= 1, {
      what: 'the first delta'
    })
    expect(await s.invoke('threads:delete', { id: s.threadId })).toEqual({
      ok: true,
      data: { deleted: true }
    })
    await s.services.chat.settled()
    expect(s.logged).toEqual([])
    expect(s.events('chat:done')).toEqual([])
    s.db.close()
  })

  it('refuses a second send while a reply streams, storing nothing', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['a', 'b'], chunkDelayMs: 100 })
    await s.services.chat.send(s.threadId, 'first')
    await expect(s.services.chat.send(s.threadId, 'second')).rejects.toThrow(/still streaming/)
    await s.services.chat.settled(s.threadId)
    expect(s.services.messages.list(s.threadId).map((m) => m.content)).toEqual(['first', 'ab'])
    s.db.close()
  })
})

describe('Anthropic', () => {
  it('carries cache_control markers (system_and_3) with the TTL from settings', async () => {
    const s = setup({ kind: 'anthropic', name: 'Scripted Anthropic' }, 'claude-sonnet-4-5')
    s.services.settings.update({ promptCacheTtl: '1h' })
    server.enqueue({
      type: 'reply',
      chunks: ['cached'],
      usage: { prompt: 3_000, completion: 2, cacheRead: 1_000, cacheWrite: 1_500 }
    })
    await sendAndSettle(s, 'Hello Claude')
    const body = server.completions().at(-1)?.body as {
      system: { cache_control?: unknown }[]
      messages: { content: { cache_control?: unknown }[] }[]
    }
    expect(body.system[0]?.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' })
    const marked = body.messages.flatMap((m) => m.content).filter((c) => c.cache_control)
    expect(marked.length).toBeGreaterThan(0)
    expect(marked.length + 1).toBeLessThanOrEqual(4)
    const [done] = s.events<ChatDone>('chat:done')
    expect(done?.message.reply?.usage).toEqual({
      promptTokens: 3_000,
      completionTokens: 2,
      cacheReadTokens: 1_000,
      cacheWriteTokens: 1_500
    })
    s.db.close()
  })
})

describe('regenerate and edit-and-resend', () => {
  it('regenerate adds a new reply and keeps the old one, superseded and excluded', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['first answer'] })
    await sendAndSettle(s, 'Question')
    server.enqueue({ type: 'reply', chunks: ['second answer'] })
    const result = (await s.invoke('chat:regenerate', { threadId: s.threadId })) as {
      ok: boolean
      data: { streamId: string }
    }
    expect(result.ok).toBe(true)
    await s.services.chat.settled(s.threadId)
    // The regenerated request ends with the same user message and not the old reply.
    expect(lastBody().messages.at(-1)).toEqual({ role: 'user', content: 'Question' })
    expect(lastBody().messages.some((m) => m.content === 'first answer')).toBe(false)
    const [user, old, fresh] = s.services.messages.list(s.threadId) as [Message, Message, Message]
    expect(user.content).toBe('Question')
    expect(old.content).toBe('first answer')
    expect(old.excluded).toBe(true)
    expect(old.reply?.supersededBy).toBe(fresh.id)
    expect(fresh.content).toBe('second answer')
    s.db.close()
  })

  it('edit-and-resend stores the edit as a new message and never overwrites the original', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['answer to typo'] })
    const first = await sendAndSettle(s, 'Waht is 2+2?')
    server.enqueue({ type: 'reply', chunks: ['4'] })
    const outcome = (await s.invoke('messages:editResend', {
      id: first.message.id,
      content: 'What is 2+2?'
    })) as { ok: true; data: SendOutcome }
    await s.services.chat.settled(s.threadId)
    expect(outcome.data.message.id).not.toBe(first.message.id)
    const all = s.services.messages.list(s.threadId)
    expect(all.map((m) => [m.content, m.excluded])).toEqual([
      ['Waht is 2+2?', true],
      ['answer to typo', true],
      ['What is 2+2?', false],
      ['4', false]
    ])
    // The old answer points at the edit: the chat shows the two turns as versions of one.
    expect(all[1]!.reply?.supersededBy).toBe(outcome.data.message.id)
    expect(lastBody().messages.some((m) => m.content === 'Waht is 2+2?')).toBe(false)
    s.db.close()
  })
})

describe('keys', () => {
  it('are encrypted at rest and absent from every IPC result', async () => {
    const s = setup()
    server.enqueue({ type: 'reply', chunks: ['ok'] })
    const results = [
      await s.invoke('providers:list', undefined),
      await s.invoke('providers:update', { id: s.provider.id, patch: { name: 'Renamed' } }),
      await s.invoke('providers:test', { id: s.provider.id }),
      await s.invoke('messages:send', { threadId: s.threadId, content: 'hi' }),
      await s.invoke('providers:encryptionStatus', undefined)
    ]
    await s.services.chat.settled()
    for (const result of results) {
      expect(result).toMatchObject({ ok: true })
      expect(JSON.stringify(result)).not.toContain(KEY)
    }
    expect(results[0]).toMatchObject({ data: [{ hasApiKey: true, apiKeyHint: 'sk-…7d6c' }] })
    expect(results[4]).toEqual({ ok: true, data: { available: true } })
    for (const { payload } of s.published) expect(JSON.stringify(payload)).not.toContain(KEY)

    const path = s.services.info.databasePath
    s.db.pragma('wal_checkpoint(TRUNCATE)')
    for (const file of [path, `${path}-wal`].filter((f) => existsSync(f))) {
      expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false)
    }
    expect(s.events<{ providerId: string }>('providers:changed').length).toBeGreaterThan(0)
    s.db.close()
  })

  it('a thread model and providers channels round-trip through IPC', async () => {
    const s = setup()
    const other = s.services.threads.create()
    const set = (await s.invoke('threads:setModel', {
      threadId: other.id,
      providerId: s.provider.id,
      modelId: 'gpt-4o-mini'
    })) as { ok: true; data: { settings: Record<string, unknown> } }
    expect(set.data.settings.model).toEqual({ providerId: s.provider.id, modelId: 'gpt-4o-mini' })
    await s.invoke('threads:setModel', { threadId: other.id, providerId: null, modelId: null })
    // Without its own model the thread uses the default: the provider's first model.
    expect(s.services.models.targetFor(other.id)?.ref).toEqual({
      providerId: s.provider.id,
      modelId: 'gpt-4o-mini'
    })
    expect(await s.invoke('providers:remove', { id: s.provider.id })).toEqual({
      ok: true,
      data: { removed: true }
    })
    // A removed provider means no model: the message is stored, nothing is sent.
    expect((await s.services.chat.send(s.threadId, 'still here')).status).toBe(
      'no_model_configured'
    )
    s.db.close()
  })
})

describe('provider errors over IPC', () => {
  it("reach the renderer typed (code, kind, status) and in the provider's own words", async () => {
    const s = setup()
    const wrongKey = 'sk-wrong-key-0000-1111'
    const wrong = s.services.providers.create({
      kind: 'openai',
      name: 'Wrong key',
      baseUrl: server.v1,
      apiKey: wrongKey,
      models: []
    })
    const refused = await s.invoke('providers:listRemoteModels', { id: wrong.id })
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'provider_error',
        message: expect.stringContaining('Incorrect API key provided'),
        provider: {
          kind: 'auth',
          status: 401,
          message: expect.stringContaining('Incorrect API key provided')
        }
      }
    })
    expect(JSON.stringify(refused)).not.toContain(wrongKey)

    const probe = createServer()
    await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready))
    const { port } = probe.address() as AddressInfo
    await new Promise<void>((done) => probe.close(() => done()))
    const gone = s.services.providers.create({
      kind: 'openai-compatible',
      name: 'Nothing there',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      models: []
    })
    expect(await s.invoke('providers:listRemoteModels', { id: gone.id })).toMatchObject({
      ok: false,
      error: {
        code: 'provider_error',
        provider: { kind: 'network', message: expect.stringContaining(`127.0.0.1:${port}`) }
      }
    })

    expect(await s.invoke('providers:listRemoteModels', { id: s.provider.id })).toEqual({
      ok: true,
      data: ['gpt-4o-mini']
    })
    s.db.close()
  })
})
