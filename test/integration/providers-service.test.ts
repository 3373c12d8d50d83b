import { createServer, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '@shared/result'
import { testConnection } from '../../src/main/services/providers/connectionTest'
import { detectOllama } from '../../src/main/services/providers/ollamaDetector'
import { ProviderService } from '../../src/main/services/providers/providerService'
import { ProviderInputSchema } from '../../src/main/services/providers/schema'
import {
  EncryptedSecretStore,
  type KeyValueStore
} from '../../src/main/services/providers/secretStore'
import type { ProviderRecord } from '../../src/main/services/providers/types'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { aesCipher } from '../support/testCipher'

const KEY = 'sk-right-key-1234567890abcd'

let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider({ requiredKey: KEY, models: ['llama3.2:3b', 'qwen3:8b'] })
})
afterAll(() => server.close())

const cipher = aesCipher

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  // JSON round trip, as the SQLite settings table does.
  const data = new Map<string, string>()
  return {
    data,
    get: (key) => (data.has(key) ? JSON.parse(data.get(key)!) : undefined),
    set: (key, value) => void data.set(key, JSON.stringify(value))
  }
}

function service(encryption = true) {
  const settings = memoryStore()
  const secrets = new EncryptedSecretStore(cipher(encryption), settings)
  let n = 0
  const changed: string[] = []
  const providers = new ProviderService({
    settings,
    secrets,
    newId: () => `00000000-0000-4000-8000-00000000000${++n}`,
    changed: (id) => changed.push(id)
  })
  return { providers, settings, changed }
}

const openaiInput = (baseUrl: string, apiKey = KEY) =>
  ProviderInputSchema.parse({
    kind: 'openai-compatible',
    name: 'Scripted',
    baseUrl: `${baseUrl}/`,
    apiKey,
    models: [{ id: 'gpt-4o' }, { id: 'my-local-model', contextWindow: 32_768 }]
  })

describe('ProviderService', () => {
  it('keeps the key out of the record and every view; the view says a key exists', () => {
    const { providers, settings, changed } = service()
    const view = providers.create(openaiInput(server.v1))
    expect(view).toMatchObject({
      kind: 'openai-compatible',
      baseUrl: server.v1,
      hasApiKey: true,
      apiKeyHint: 'sk-…abcd'
    })
    expect(JSON.stringify(view)).not.toContain(KEY)
    expect(JSON.stringify(providers.list())).not.toContain(KEY)
    for (const value of settings.data.values()) expect(value).not.toContain(KEY)
    expect(changed).toEqual([view.id])
  })

  it("fills model defaults from the catalog and keeps the user's overrides", () => {
    const { providers } = service()
    const view = providers.create(openaiInput(server.v1))
    expect(view.models).toEqual([
      {
        id: 'gpt-4o',
        contextWindow: 128_000,
        maxOutput: 16_384,
        inputPrice: 2.5,
        cacheReadPrice: 1.25,
        outputPrice: 10
      },
      { id: 'my-local-model', contextWindow: 32_768, maxOutput: 8_192 }
    ])
    const anthropic = providers.create(
      ProviderInputSchema.parse({ kind: 'anthropic', name: 'Claude', apiKey: KEY })
    )
    // A provider starts with the models its input lists: the settings offer its own list next.
    expect(anthropic.models).toEqual([])
  })

  it('resolves provider, model and the decrypted key for a call', () => {
    const { providers } = service()
    const { id } = providers.create(openaiInput(server.v1))
    const resolved = providers.resolve(id, 'my-local-model')
    expect(resolved.apiKey).toBe(KEY)
    expect(resolved.model).toMatchObject({
      id: 'my-local-model',
      contextWindow: 32_768,
      source: 'provider'
    })
    // Not on the provider: the catalog's window (genai-prices rounds GPT-4.1's to 1,000,000).
    expect(providers.resolve(id, 'gpt-4.1-mini').model).toMatchObject({
      contextWindow: 1_000_000,
      source: 'catalog'
    })
  })

  it('updates and clears the key; removing a provider removes its key', () => {
    const { providers, settings } = service()
    const { id } = providers.create(openaiInput(server.v1))
    expect(providers.update(id, { apiKey: 'sk-replaced-key-99998888' })).toMatchObject({
      apiKeyHint: 'sk-…8888'
    })
    expect(providers.resolve(id, 'gpt-4o').apiKey).toBe('sk-replaced-key-99998888')
    expect(providers.update(id, { apiKey: null })).toMatchObject({
      hasApiKey: false,
      apiKeyHint: null
    })
    expect(providers.resolve(id, 'gpt-4o').apiKey).toBeUndefined()
    providers.update(id, { apiKey: KEY })
    providers.remove(id)
    expect(providers.list()).toEqual([])
    expect(settings.get('secrets.v1')).toEqual({})
    expect(() => providers.resolve(id, 'gpt-4o')).toThrow(AppError)
  })

  it('refuses to save a key without encryption, and saves nothing', () => {
    const { providers, settings } = service(false)
    expect(() => providers.create(openaiInput(server.v1))).toThrow(/encrypted storage/)
    expect(settings.data.size).toBe(0)
    // A keyless local provider is fine.
    const local = providers.create(ProviderInputSchema.parse({ kind: 'ollama', name: 'Ollama' }))
    expect(local.hasApiKey).toBe(false)
  })

  it('validates input: an OpenAI-compatible provider needs a base URL; keys have no spaces', () => {
    expect(ProviderInputSchema.safeParse({ kind: 'openai-compatible', name: 'X' }).success).toBe(
      false
    )
    expect(
      ProviderInputSchema.safeParse({ kind: 'openai', name: 'X', apiKey: 'sk bad' }).success
    ).toBe(false)
    expect(
      ProviderInputSchema.safeParse({
        kind: 'openai',
        name: 'X',
        models: [{ id: 'a', contextWindow: 1000, maxOutput: 1000 }]
      }).success
    ).toBe(false)
    expect(ProviderInputSchema.parse({ kind: 'ollama', name: 'Local' })).toEqual({
      kind: 'ollama',
      name: 'Local',
      models: []
    })
  })
})

describe('connection test', () => {
  const record = (apiKeyModels: string[] = ['scripted-model']): ProviderRecord => ({
    id: 'p',
    kind: 'openai-compatible',
    name: 'Scripted',
    baseUrl: server.v1,
    models: apiKeyModels.map((id) => ({ id, contextWindow: 8_192, maxOutput: 512 }))
  })

  it('passes with the right key through a tiny completion', async () => {
    const result = await testConnection({ provider: record(), apiKey: KEY })
    expect(result).toMatchObject({ ok: true, method: 'completion', modelId: 'scripted-model' })
    const body = server.completions().at(-1)!.body as { max_tokens: number }
    expect(body.max_tokens).toBe(16)
  })

  it('fails as "auth" with a wrong key, without echoing it', async () => {
    const result = await testConnection({ provider: record(), apiKey: 'sk-wrong-key-000011112222' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'auth', status: 401 } })
    expect(JSON.stringify(result)).not.toContain('sk-wrong-key-000011112222')
  })

  it('lists models when no model is configured', async () => {
    expect(await testConnection({ provider: record([]), apiKey: KEY })).toMatchObject({
      ok: true,
      method: 'models',
      models: ['llama3.2:3b', 'qwen3:8b']
    })
    expect(
      await testConnection({ provider: record([]), apiKey: 'sk-nope-nope-nope-nope' })
    ).toMatchObject({
      ok: false,
      error: { kind: 'auth', status: 401 }
    })
  })

  it('fails as "network" when nothing listens', async () => {
    const port = await closedPort()
    const result = await testConnection({
      provider: { ...record(), baseUrl: `http://127.0.0.1:${port}/v1` },
      apiKey: KEY
    })
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } })
  })

  it("lists a saved provider's remote models with its stored key", async () => {
    const { providers } = service()
    const { id } = providers.create(openaiInput(server.v1))
    expect(await providers.listRemoteModels(id)).toEqual(['llama3.2:3b', 'qwen3:8b'])
    const wrong = providers.create(openaiInput(server.v1, 'sk-wrong-key-555566667777'))
    await expect(providers.listRemoteModels(wrong.id)).rejects.toMatchObject({
      kind: 'auth',
      status: 401
    })
    expect(providers.encryptionAvailable()).toBe(true)
  })

  it('tests a draft from the settings form before it is saved', async () => {
    const { providers } = service()
    const draft = openaiInput(server.v1)
    expect(await providers.test({ draft }, 'my-local-model')).toMatchObject({ ok: true })
    expect(providers.list()).toEqual([])
  })
})

describe('Ollama detection', () => {
  it('finds a server answering /api/tags and lists its models', async () => {
    const detection = await detectOllama({ baseUrl: server.url })
    expect(detection).toEqual({
      found: true,
      baseUrl: server.url,
      models: [
        {
          name: 'llama3.2:3b',
          sizeBytes: 2_000_000_000,
          family: 'llama',
          parameterSize: '3B',
          quantization: 'Q4_K_M'
        },
        {
          name: 'qwen3:8b',
          sizeBytes: 2_000_000_000,
          family: 'llama',
          parameterSize: '3B',
          quantization: 'Q4_K_M'
        }
      ]
    })
  })

  it('accepts the URL with /api or /v1 as users paste it', async () => {
    expect(await detectOllama({ baseUrl: `${server.url}/api/` })).toMatchObject({ found: true })
    expect(await detectOllama({ baseUrl: server.v1 })).toMatchObject({ found: true })
  })

  it('reports not running when nothing listens, quickly', async () => {
    const port = await closedPort()
    const started = Date.now()
    expect(await detectOllama({ baseUrl: `http://127.0.0.1:${port}` })).toEqual({
      found: false,
      baseUrl: `http://127.0.0.1:${port}`,
      reason: 'not_running'
    })
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('reports a timeout for a server that never answers', async () => {
    const sockets: Socket[] = []
    const silent = createServer((socket) => void sockets.push(socket))
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready))
    const { port } = silent.address() as { port: number }
    try {
      expect(
        await detectOllama({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200 })
      ).toMatchObject({
        found: false,
        reason: 'timeout'
      })
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((done) => silent.close(() => done()))
    }
  })

  it('reports something else on the port as not Ollama', async () => {
    expect(await detectOllama({ baseUrl: `${server.url}/elsewhere` })).toMatchObject({
      found: false,
      reason: 'not_ollama'
    })
  })
})

async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((done) => probe.close(() => done()))
  return port
}
