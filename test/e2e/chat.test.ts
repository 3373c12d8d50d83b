/**
 * The chat UI against a real scripted provider: configured through the settings dialog with
 * real clicks, a streamed reply in the chat, usage on the reply and in the inspector, and the
 * inline auth error with its action.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { launchChromium, openApp, type AppWindow } from './harness/browser'
import { startHarness, type Harness } from './harness/server'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Chat-Key-Not-For-Renderer-77'
const HAN = /\p{Script=Han}/u

/** Auto-waiting assertion: retries until it holds, never sleeps a fixed time. */
/** Waits for the dialog's entrance animation, so a screenshot shows the resting state. */
const settle = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      (
        globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }
      ).document
        .getAnimations()
        .map((animation) => animation.finished)
    )
  )

const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 })

async function configureProvider(page: Page, baseUrl: string, key: string) {
  await page.getByTestId('open-provider-settings').click()
  const dialog = page.getByTestId('provider-settings')
  await dialog.waitFor()
  await dialog.getByTestId('provider-kind').selectOption('openai-compatible')
  await dialog.getByTestId('provider-name').fill('Scripted')
  await dialog.getByTestId('provider-base-url').fill(baseUrl)
  await dialog.getByTestId('provider-api-key').fill(key)
  await dialog.getByTestId('provider-model-add').click()
  await dialog.getByTestId('provider-model-id').fill('scripted-model')
  await dialog.getByTestId('provider-model-window').fill('32000')
  await dialog.getByTestId('provider-model-max-output').fill('1000')
  return dialog
}

describe('chat UI with a configured provider', () => {
  const tempDir = useTempDir()
  let browser: Browser
  let server: ScriptedProvider
  let harness: Harness | undefined
  let app: AppWindow | undefined

  beforeAll(async () => {
    browser = await launchChromium()
    server = await startScriptedProvider({ requiredKey: KEY })
  })
  afterEach(async () => {
    await app?.close()
    await harness?.close()
    app = harness = undefined
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('configures the provider in settings, streams a reply and shows its usage', async () => {
    harness = await startHarness({ databasePath: join(tempDir(), 'store.sqlite') })
    app = await openApp(browser, harness)
    const { page } = app
    await page.getByTestId('new-thread').first().click()
    await page.getByTestId('composer-input').waitFor()
    await expect.poll(() => harness!.eventClientCount()).toBeGreaterThan(0)

    const dialog = await configureProvider(page, server.v1, KEY)
    server.enqueue({ type: 'reply', chunks: ['pong'], usage: { prompt: 10, completion: 1 } })
    await dialog.getByTestId('provider-test').click()
    await eventually(() => dialog.getByTestId('provider-test-result').getAttribute('data-ok')).toBe(
      'true'
    )
    await dialog.getByTestId('provider-save').click()
    await dialog.getByTestId('provider-saved').waitFor()
    // The key went to main once; the field is write-only and only the hint comes back.
    expect(await dialog.getByTestId('provider-api-key').inputValue()).toBe('')
    expect(await page.content()).not.toContain(KEY)
    const option = dialog.getByTestId('default-model-select').locator('option').nth(1)
    await dialog
      .getByTestId('default-model-select')
      .selectOption((await option.getAttribute('value'))!)
    await eventually(async () => {
      const settings = await page.evaluate(() =>
        (
          globalThis as unknown as { api: { settings: { get(): Promise<unknown> } } }
        ).api.settings.get()
      )
      return (settings as { data: { defaultModel: { modelId: string } | null } }).data.defaultModel
        ?.modelId
    }).toBe('scripted-model')
    await dialog.getByTestId('provider-settings-close').click()
    await dialog.waitFor({ state: 'detached' })

    server.enqueue({
      type: 'reply',
      chunks: ['Streamed ', 'into ', 'the ', 'chat ', 'window.'],
      usage: { prompt: 321, completion: 5, cacheRead: 100 },
      chunkDelayMs: 150
    })
    await page.getByTestId('composer-input').fill('Hello model')
    await page.getByTestId('send-button').click()
    await page.getByTestId('streaming-reply').waitFor()
    await page.getByTestId('stop-button').waitFor()
    await eventually(() => page.getByTestId('streaming-text').innerText()).toContain('Streamed')
    await page.getByTestId('streaming-reply').waitFor({ state: 'detached', timeout: 10_000 })

    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last()
    await eventually(() => reply.innerText()).toContain('Streamed into the chat window.')
    expect(await reply.getByTestId('message-usage-tokens').innerText()).toContain('321 in')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('100 read')
    await eventually(() => page.getByTestId('reply-usage-actual').innerText()).toContain('321')
    expect(await page.getByTestId('reply-usage-estimated').innerText()).toMatch(/\d/)
    await eventually(() => page.getByTestId('thread-usage').innerText()).toContain('326')
    await page.getByTestId('send-button').waitFor()
    app.assertHealthy()

    await app.screenshot(join(SCREENSHOTS, 'chat-en.png'))
    await page.getByTestId('language-select').selectOption('zh-CN')
    await eventually(() => page.getByTestId('composer-input').getAttribute('placeholder')).toMatch(
      HAN
    )
    await app.screenshot(join(SCREENSHOTS, 'chat-zh-CN.png'))
    await page.getByTestId('open-provider-settings').click()
    await page.getByTestId('provider-settings').waitFor()
    await settle(page)
    await app.screenshot(join(SCREENSHOTS, 'providers-zh-CN.png'))
    await page.getByTestId('provider-settings-close').click()
    await page.getByTestId('language-select').selectOption('en')
    await page.getByTestId('open-provider-settings').click()
    await page.getByTestId('provider-settings').waitFor()
    await settle(page)
    await app.screenshot(join(SCREENSHOTS, 'providers-en.png'))
    expect(harness.unexpectedErrors).toEqual([])
  })

  it('shows a 401 inline with the check-your-key action', async () => {
    harness = await startHarness({ databasePath: join(tempDir(), 'auth.sqlite') })
    app = await openApp(browser, harness)
    const { page } = app
    await page.getByTestId('new-thread').first().click()
    await page.getByTestId('composer-input').waitFor()
    await expect.poll(() => harness!.eventClientCount()).toBeGreaterThan(0)

    const dialog = await configureProvider(page, server.v1, 'sk-wrong-key-0000')
    await dialog.getByTestId('provider-save').click()
    await dialog.getByTestId('provider-saved').waitFor()
    const option = dialog.getByTestId('default-model-select').locator('option').nth(1)
    await dialog
      .getByTestId('default-model-select')
      .selectOption((await option.getAttribute('value'))!)
    await dialog.getByTestId('provider-settings-close').click()
    await dialog.waitFor({ state: 'detached' })

    server.enqueue({ type: 'error', status: 401, kind: 'auth' })
    await page.getByTestId('composer-input').fill('Hello?')
    await page.getByTestId('send-button').click()
    const error = page.getByTestId('reply-error')
    await error.waitFor({ timeout: 10_000 })
    expect(await error.getAttribute('data-kind')).toBe('auth')
    await error.getByTestId('reply-error-action').click()
    await page.getByTestId('provider-settings').waitFor()
  })
})
