/**
 * Anthropic end to end: the provider added through the settings dialog with real clicks, the
 * AI SDK's Anthropic client streaming from the scripted server's Messages API, the cache reads
 * and writes it reported shown on the reply and in the inspector, and the prompt-cache markers
 * (system_and_3) on the request the server received.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { lastReply, sendAndWaitForReply, startNewThread } from './harness/chat'
import { eventually } from '../support/poll'
import {
  chooseDefaultModel,
  closeProviderSettings,
  fillProviderForm,
  openProviderSettings,
  saveProvider,
  savedSettings
} from './harness/providerForm'
import { chatRequests, useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-ant-e2e-Anthropic-Key-Not-For-Renderer-31'
const MODEL = 'claude-scripted'

interface AnthropicBlock {
  type: string
  text?: string
  cache_control?: unknown
}
interface AnthropicBody {
  model: string
  system?: AnthropicBlock[]
  messages: { role: string; content: AnthropicBlock[] }[]
}

/** Every cache_control marker in a request body, wherever it sits. */
function markersOf(body: unknown): unknown[] {
  const found: unknown[] = []
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (value === null || typeof value !== 'object') return
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'cache_control') found.push(inner)
      else walk(inner)
    }
  }
  walk(body)
  return found
}

describe('chat with an Anthropic provider', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  it('adds Anthropic in settings, streams a reply, shows cache reads and writes, sends cache markers', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'anthropic.sqlite')
    })
    await startNewThread(page, harness)

    // Settings, as a user fills them in: the Anthropic kind, the server's v1 URL, a key, a model.
    const dialog = await fillProviderForm(page, {
      kind: 'anthropic',
      name: 'Scripted Claude',
      baseUrl: server.v1,
      apiKey: KEY,
      models: [{ id: MODEL, contextWindow: 32_000, maxOutput: 1_000 }]
    })
    server.enqueue({ type: 'reply', chunks: ['pong'], usage: { prompt: 10, completion: 1 } })
    await dialog.getByTestId('provider-test').click()
    await eventually(() => dialog.getByTestId('provider-test-result').getAttribute('data-ok')).toBe(
      'true'
    )
    await saveProvider(dialog)
    expect(await page.content()).not.toContain(KEY)
    await chooseDefaultModel(dialog, MODEL)
    await eventually(async () => (await savedSettings(page))?.defaultModel?.modelId).toBe(MODEL)
    await closeProviderSettings(dialog)
    const before = chatRequests(server).length

    // Turn 1 writes the cache: the reply streams in, and its usage shows the write.
    server.enqueue({
      type: 'reply',
      chunks: ['Claude ', 'streams ', 'this ', 'answer.'],
      usage: { prompt: 1_200, completion: 4, cacheWrite: 1_000 },
      chunkDelayMs: 150
    })
    await page.getByTestId('composer-input').fill('What is prompt caching?')
    await page.getByTestId('send-button').click()
    await page.getByTestId('streaming-reply').waitFor()
    await eventually(() => page.getByTestId('streaming-text').innerText()).toContain('Claude')
    await page.getByTestId('streaming-reply').waitFor({ state: 'detached', timeout: 15_000 })
    let reply = lastReply(page)
    await eventually(() => reply.innerText()).toContain('Claude streams this answer.')
    expect(await reply.getByTestId('message-usage-tokens').innerText()).toContain('1,200 in')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('1,000 written')
    await eventually(() => page.getByTestId('reply-usage-cache-write').innerText()).toBe('1,000')
    expect(await page.getByTestId('reply-usage-cache-read').innerText()).toBe('0')
    expect(await page.getByTestId('reply-usage-actual').innerText()).toContain('1,200')
    await page.getByTestId('send-button').waitFor()

    // Turns 2 and 3 read what turn 1 wrote.
    server.enqueue(
      {
        type: 'reply',
        chunks: ['Second ', 'answer.'],
        usage: { prompt: 1_300, completion: 2, cacheRead: 1_000, cacheWrite: 200 }
      },
      {
        type: 'reply',
        chunks: ['Third ', 'answer.'],
        usage: { prompt: 1_400, completion: 2, cacheRead: 1_200, cacheWrite: 150 }
      }
    )
    await sendAndWaitForReply(page, 'And how long does the cache live?', 'Second answer.')
    reply = await sendAndWaitForReply(page, 'Thanks. One more question, please.', 'Third answer.')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('1,200 read')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('150 written')
    await eventually(() => page.getByTestId('reply-usage-cache-read').innerText()).toBe('1,200')
    expect(await page.getByTestId('reply-usage-cache-write').innerText()).toBe('150')
    expect(await page.getByTestId('reply-usage-actual').innerText()).toContain('1,400')
    window.assertHealthy()
    await window.screenshot(join(SCREENSHOTS, 'chat-anthropic-en.png'))

    // What the server received: the key as x-api-key, and markers on the stable prefix at the
    // default five minutes (Anthropic's default, so no ttl field).
    const sent = chatRequests(server).slice(before)
    expect(sent).toHaveLength(3)
    for (const request of sent) {
      expect(request.path).toBe('/v1/messages')
      expect(request.headers['x-api-key']).toBe(KEY)
    }
    const first = sent[0]!.body as AnthropicBody
    expect(first.model).toBe(MODEL)
    expect(first.system?.[0]?.cache_control).toEqual({ type: 'ephemeral' })
    expect(first.messages.at(-1)?.content.at(-1)).toMatchObject({
      text: 'What is prompt caching?',
      cache_control: { type: 'ephemeral' }
    })
    expect(markersOf(first)).toEqual([{ type: 'ephemeral' }, { type: 'ephemeral' }])

    const third = sent[2]!.body as AnthropicBody
    expect(third.system?.[0]?.cache_control).toEqual({ type: 'ephemeral' })
    // The system prompt, the end of the history that repeats from turn to turn (the stable
    // prefix, docs/CONTEXT.md) and the newest message: three markers.
    expect(markersOf(third)).toEqual(Array.from({ length: 3 }, () => ({ type: 'ephemeral' })))
    const marked = third.messages.map((m) => m.content.some((block) => block.cache_control))
    expect(marked.slice(-2)).toEqual([true, true])
    expect(marked.slice(0, -2).every((flag) => !flag)).toBe(true)
    expect(third.messages.at(-1)?.content.at(-1)?.text).toBe('Thanks. One more question, please.')
    expect(third.messages.at(-2)?.content.at(-1)?.text).toBe('Second answer.')

    // The TTL follows the setting: chosen in the dialog, one hour goes on every marker.
    await openProviderSettings(page)
    expect(await dialog.getByTestId('prompt-cache-ttl').inputValue()).toBe('5m')
    await dialog.getByTestId('prompt-cache-ttl').selectOption('1h')
    await eventually(async () => (await savedSettings(page))?.promptCacheTtl).toBe('1h')
    await closeProviderSettings(dialog)
    server.enqueue({
      type: 'reply',
      chunks: ['Cached ', 'for ', 'an ', 'hour.'],
      usage: { prompt: 1_500, completion: 4, cacheRead: 1_350, cacheWrite: 100 }
    })
    await sendAndWaitForReply(page, 'Keep it for an hour.', 'Cached for an hour.')
    const fourth = chatRequests(server).slice(before)[3]!.body as AnthropicBody
    expect(markersOf(fourth)).toEqual(
      Array.from({ length: 3 }, () => ({ type: 'ephemeral', ttl: '1h' }))
    )
    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
