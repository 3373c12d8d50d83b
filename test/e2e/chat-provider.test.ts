/**
 * A configured provider through the whole stack: window.api in a real page, the real registry
 * and services, the AI SDK client streaming from the scripted server, events back over SSE.
 * (The chat UI for streaming is the renderer's part; this drives the API the UI will use.)
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import type { PageGlobals } from './harness/browser'
import { useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'

const KEY = 'sk-e2e-Secret-Key-Not-For-Renderer-42'

describe('chat with a configured provider', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  it('adds a provider, streams a reply as events, stores usage, never returns the key', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite')
    })
    server.enqueue({
      type: 'reply',
      chunks: ['Streamed ', 'from ', 'the ', 'script.'],
      usage: { prompt: 321, completion: 4 }
    })
    await page.evaluate(() => {
      const globals = globalThis as PageGlobals & {
        received?: { event: string; payload: unknown }[]
      }
      globals.received = []
      for (const event of ['chat:delta', 'chat:done', 'chat:error'] as const) {
        globals.api.on(event, (payload) => globals.received?.push({ event, payload }))
      }
    })
    await expect.poll(() => harness.eventClientCount()).toBeGreaterThan(0)

    const result = await page.evaluate(
      async ({ baseUrl, key }) => {
        const api = (globalThis as PageGlobals).api
        const provider = await api.providers.create({
          kind: 'openai-compatible',
          name: 'Scripted',
          baseUrl,
          apiKey: key,
          models: [{ id: 'scripted-model', contextWindow: 32_000, maxOutput: 1_000 }]
        })
        if (!provider.ok) throw new Error(provider.error.message)
        const thread = await api.threads.create()
        if (!thread.ok) throw new Error(thread.error.message)
        await api.threads.setModel({
          threadId: thread.data.id,
          providerId: provider.data.id,
          modelId: 'scripted-model'
        })
        const sent = await api.messages.send({ threadId: thread.data.id, content: 'Hello model' })
        return { provider, sent, list: await api.providers.list() }
      },
      { baseUrl: server.v1, key: KEY }
    )
    expect(JSON.stringify(result)).not.toContain(KEY)
    expect(result.provider).toMatchObject({ ok: true, data: { hasApiKey: true } })
    expect(result.sent).toMatchObject({ ok: true, data: { status: 'streaming' } })

    const received = () =>
      page.evaluate(
        () => (globalThis as { received?: { event: string; payload: unknown }[] }).received ?? []
      )
    await expect.poll(async () => (await received()).map((r) => r.event)).toContain('chat:done')
    const events = await received()
    const deltas = events
      .filter((e) => e.event === 'chat:delta')
      .map((e) => (e.payload as { delta: string }).delta)
    expect(deltas.join('')).toBe('Streamed from the script.')
    const done = events.find((e) => e.event === 'chat:done')?.payload as {
      message: { content: string; reply: { usage: { promptTokens: number } } }
    }
    expect(done.message.content).toBe('Streamed from the script.')
    expect(done.message.reply.usage.promptTokens).toBe(321)
    expect(harness.unexpectedErrors).toEqual([])
    window.assertHealthy()
  })
})
