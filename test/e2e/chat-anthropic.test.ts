/**
 * Anthropic end to end: the provider added through the settings dialog with real clicks, the
 * AI SDK's Anthropic client streaming from the scripted server's Messages API, the cache reads
 * and writes it reported shown on the reply and in the inspector, and the prompt-cache markers
 * (system_and_3) on the request the server received.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startScriptedProvider,
  type RecordedRequest,
  type ScriptedProvider
} from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { openApp, type PageGlobals } from './harness/browser'
import { startHarness } from './harness/server'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-ant-e2e-Anthropic-Key-Not-For-Renderer-31'
const MODEL = 'claude-scripted'
/** Recognises the summary prompt (src/main/context/summary/summaryPrompt.ts). */
const SUMMARY_MARKER = 'You write the checkpoint summary of a conversation'

/** Auto-waiting assertion: retries until it holds, never sleeps a fixed time. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 })

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

/** What the conversation sent: the Messages API requests that are not the summary's. */
const chatRequests = (server: ScriptedProvider, after: number): RecordedRequest[] =>
  server
    .completions()
    .slice(after)
    .filter((r) => !JSON.stringify(r.body).includes(SUMMARY_MARKER))

async function sendAndWait(page: Page, text: string, expected: string) {
  await page.getByTestId('composer-input').fill(text)
  await page.getByTestId('send-button').click()
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last()
  await eventually(() => reply.innerText()).toContain(expected)
  await page.getByTestId('send-button').waitFor()
  return reply
}

describe('chat with an Anthropic provider', () => {
  const tempDir = useTempDir()
  const { browser, open } = useChromiumSession()
  let server: ScriptedProvider

  beforeAll(async () => {
    server = await startScriptedProvider({ requiredKey: KEY })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('adds Anthropic in settings, streams a reply, shows cache reads and writes, sends cache markers', async () => {
    const harness = (open.harness = await startHarness({
      databasePath: join(tempDir(), 'anthropic.sqlite')
    }))
    const app = (open.window = await openApp(browser(), harness))
    const { page } = app
    await page.getByTestId('new-thread').first().click()
    await page.getByTestId('composer-input').waitFor()
    await expect.poll(() => harness.eventClientCount()).toBeGreaterThan(0)

    // Settings, as a user fills them in: the Anthropic kind, the server's v1 URL, a key, a model.
    await page.getByTestId('open-provider-settings').click()
    const dialog = page.getByTestId('provider-settings')
    await dialog.waitFor()
    await dialog.getByTestId('provider-kind').selectOption('anthropic')
    await dialog.getByTestId('provider-name').fill('Scripted Claude')
    await dialog.getByTestId('provider-base-url').fill(server.v1)
    await dialog.getByTestId('provider-api-key').fill(KEY)
    await dialog.getByTestId('provider-model-add').click()
    await dialog.getByTestId('provider-model-id').fill(MODEL)
    await dialog.getByTestId('provider-model-window').fill('32000')
    await dialog.getByTestId('provider-model-max-output').fill('1000')
    server.enqueue({ type: 'reply', chunks: ['pong'], usage: { prompt: 10, completion: 1 } })
    await dialog.getByTestId('provider-test').click()
    await eventually(() => dialog.getByTestId('provider-test-result').getAttribute('data-ok')).toBe(
      'true'
    )
    await dialog.getByTestId('provider-save').click()
    await dialog.getByTestId('provider-saved').waitFor()
    expect(await page.content()).not.toContain(KEY)
    const option = dialog.getByTestId('default-model-select').locator('option', { hasText: MODEL })
    await dialog
      .getByTestId('default-model-select')
      .selectOption((await option.getAttribute('value'))!)
    await eventually(async () => {
      const settings = await page.evaluate(() => (globalThis as PageGlobals).api.settings.get())
      return settings.ok ? settings.data.defaultModel?.modelId : null
    }).toBe(MODEL)
    await dialog.getByTestId('provider-settings-close').click()
    await dialog.waitFor({ state: 'detached' })
    const before = server.completions().length

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
    let reply = page.locator('[data-testid="message"][data-role="assistant"]').last()
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
    await sendAndWait(page, 'And how long does the cache live?', 'Second answer.')
    reply = await sendAndWait(page, 'Thanks. One more question, please.', 'Third answer.')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('1,200 read')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('150 written')
    await eventually(() => page.getByTestId('reply-usage-cache-read').innerText()).toBe('1,200')
    expect(await page.getByTestId('reply-usage-cache-write').innerText()).toBe('150')
    expect(await page.getByTestId('reply-usage-actual').innerText()).toContain('1,400')
    app.assertHealthy()
    await app.screenshot(join(SCREENSHOTS, 'chat-anthropic-en.png'))

    // What the server received: the key as x-api-key, and system_and_3 markers at the default
    // five minutes (Anthropic's default, so no ttl field).
    const sent = chatRequests(server, before)
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
    // The system prompt plus the last three turns: four markers, Anthropic's limit.
    expect(markersOf(third)).toEqual(Array.from({ length: 4 }, () => ({ type: 'ephemeral' })))
    const marked = third.messages.map((m) => m.content.some((block) => block.cache_control))
    expect(marked.slice(-3)).toEqual([true, true, true])
    expect(marked.slice(0, -3).every((flag) => !flag)).toBe(true)
    expect(third.messages.at(-1)?.content.at(-1)?.text).toBe('Thanks. One more question, please.')
    expect(third.messages.at(-2)?.content.at(-1)?.text).toBe('Second answer.')

    // The TTL follows the setting: chosen in the dialog, one hour goes on every marker.
    await page.getByTestId('open-provider-settings').click()
    await dialog.waitFor()
    expect(await dialog.getByTestId('prompt-cache-ttl').inputValue()).toBe('5m')
    await dialog.getByTestId('prompt-cache-ttl').selectOption('1h')
    await eventually(async () => {
      const settings = await page.evaluate(() => (globalThis as PageGlobals).api.settings.get())
      return settings.ok ? settings.data.promptCacheTtl : null
    }).toBe('1h')
    await dialog.getByTestId('provider-settings-close').click()
    await dialog.waitFor({ state: 'detached' })
    server.enqueue({
      type: 'reply',
      chunks: ['Cached ', 'for ', 'an ', 'hour.'],
      usage: { prompt: 1_500, completion: 4, cacheRead: 1_350, cacheWrite: 100 }
    })
    await sendAndWait(page, 'Keep it for an hour.', 'Cached for an hour.')
    const fourth = chatRequests(server, before)[3]!.body as AnthropicBody
    expect(markersOf(fourth)).toEqual(
      Array.from({ length: 4 }, () => ({ type: 'ephemeral', ttl: '1h' }))
    )
    app.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
