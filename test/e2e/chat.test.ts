/**
 * The chat UI against a real scripted provider: configured through the settings dialog with
 * real clicks, a streamed reply in the chat, usage on the reply and in the inspector, and the
 * inline auth error with its action.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { lastReply, startNewThread } from './harness/chat'
import { animationsDone } from './harness/page'
import { pollWithin } from '../support/poll'
import {
  chooseDefaultModel,
  closeProviderSettings,
  fillProviderForm,
  saveProvider,
  savedSettings,
  scriptedProviderForm
} from './harness/providerForm'
import { useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Chat-Key-Not-For-Renderer-77'
const HAN = /\p{Script=Han}/u

/** Auto-waiting assertion: this file's waits give up after 10 s. */
const eventually = pollWithin(10_000)

const MODEL = { id: 'scripted-model', contextWindow: 32_000, maxOutput: 1_000 }

describe('chat UI with a configured provider', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  it('configures the provider in settings, streams a reply and shows its usage', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite')
    })
    await startNewThread(page, harness)

    const dialog = await fillProviderForm(page, scriptedProviderForm(server.v1, KEY, MODEL))
    server.enqueue({ type: 'reply', chunks: ['pong'], usage: { prompt: 10, completion: 1 } })
    await dialog.getByTestId('provider-test').click()
    await eventually(() => dialog.getByTestId('provider-test-result').getAttribute('data-ok')).toBe(
      'true'
    )
    await saveProvider(dialog)
    // The key went to main once; the field is write-only and only the hint comes back.
    expect(await dialog.getByTestId('provider-api-key').inputValue()).toBe('')
    expect(await page.content()).not.toContain(KEY)
    await chooseDefaultModel(dialog, MODEL.id)
    await eventually(async () => (await savedSettings(page))?.defaultModel?.modelId).toBe(
      'scripted-model'
    )
    await closeProviderSettings(dialog)

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

    const reply = lastReply(page)
    await eventually(() => reply.innerText()).toContain('Streamed into the chat window.')
    expect(await reply.getByTestId('message-usage-tokens').innerText()).toContain('321 in')
    expect(await reply.getByTestId('message-usage-cache').innerText()).toContain('100 read')
    await eventually(() => page.getByTestId('reply-usage-actual').innerText()).toContain('321')
    expect(await page.getByTestId('reply-usage-estimated').innerText()).toMatch(/\d/)
    await eventually(() => page.getByTestId('thread-usage').innerText()).toContain('326')
    await page.getByTestId('send-button').waitFor()
    window.assertHealthy()

    // Edit and resend: the edited turn shows once, the turn before it behind ‹ n/m ›.
    server.enqueue({
      type: 'reply',
      chunks: ['Hello again.'],
      usage: { prompt: 30, completion: 3 }
    })
    const question = page.locator('[data-testid="message"][data-role="user"]')
    await question.hover()
    await question.getByTestId('message-edit').click()
    await page.getByTestId('message-edit-input').fill('Hello model, edited')
    await page.getByTestId('message-edit-save').click()
    await eventually(() => lastReply(page).innerText()).toContain('Hello again.')
    await page.getByTestId('send-button').waitFor()
    expect(await page.getByTestId('version-position').innerText()).toBe('2 / 2')
    expect(await page.getByTestId('message').allInnerTexts()).toEqual([
      expect.stringContaining('Hello model, edited'),
      expect.stringContaining('Hello again.')
    ])
    await page.getByTestId('version-previous').click()
    expect(await page.getByTestId('version-position').innerText()).toBe('1 / 2')
    const earlier = await page.getByTestId('message').allInnerTexts()
    expect(earlier).toEqual([
      expect.stringContaining('Hello model'),
      expect.stringContaining('Streamed into the chat window.')
    ])
    expect(earlier.join()).not.toContain('not sent')
    await window.screenshot(join(SCREENSHOTS, 'chat-edit-earlier-version-en.png'))
    await page.getByTestId('version-next').click()

    await window.screenshot(join(SCREENSHOTS, 'chat-en.png'))
    await page.getByTestId('language-select').selectOption('zh-CN')
    await eventually(() => page.getByTestId('composer-input').getAttribute('placeholder')).toMatch(
      HAN
    )
    await window.screenshot(join(SCREENSHOTS, 'chat-zh-CN.png'))
    await page.getByTestId('open-provider-settings').click()
    await page.getByTestId('provider-settings').waitFor()
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'providers-zh-CN.png'))
    await page.getByTestId('provider-settings-close').click()
    await page.getByTestId('language-select').selectOption('en')
    await page.getByTestId('open-provider-settings').click()
    await page.getByTestId('provider-settings').waitFor()
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'providers-en.png'))
    expect(harness.unexpectedErrors).toEqual([])
  })

  it('shows a 401 inline with the check-your-key action', async () => {
    const server = scripted()
    const { harness, page } = await session.start({
      databasePath: join(tempDir(), 'auth.sqlite')
    })
    await startNewThread(page, harness)

    const dialog = await fillProviderForm(
      page,
      scriptedProviderForm(server.v1, 'sk-wrong-key-0000', MODEL)
    )
    await saveProvider(dialog)
    await chooseDefaultModel(dialog, MODEL.id)
    await closeProviderSettings(dialog)

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
