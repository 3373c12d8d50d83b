/**
 * The newcomer's path, in Chromium, in English and Chinese, with no step a newcomer would have
 * to guess: an empty store opens on the welcome; "Add a model provider" opens the settings;
 * the scripted server is added as an OpenAI-compatible provider; its own model list appears and
 * one model is added with one click (it becomes the default on its own); a new thread sends and
 * the reply streams in. The banner that said no provider is set up is gone from then on.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { lastReply } from './harness/chat'
import { eventually } from '../support/poll'
import { useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'
import { chooseTheme, lightControls } from './harness/theme'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Newcomer-Key-12345'
/** The welcome's heading as a reader sees it (the renderer's strings are not importable here). */
const WELCOME_TITLE = { 'en-US': 'Welcome to Context Lens', 'zh-CN': '欢迎使用 Context Lens' }

describe('the first ten minutes', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  for (const locale of ['en-US', 'zh-CN'] as const) {
    it(`gets a newcomer from an empty store to a streamed reply (${locale})`, async () => {
      const server = scripted()
      // One server for both languages: count this test's requests only.
      const earlier = server.completions().length
      server.enqueue({ type: 'reply', chunks: ['Welcome ', 'aboard, ', 'newcomer.'] })
      const { window, page } = await session.start(
        { databasePath: join(tempDir(), 'store.sqlite'), detectOllama: notRunning },
        { locale }
      )

      // An empty store says what the app does and what it needs.
      const welcome = page.getByTestId('welcome')
      await welcome.waitFor()
      await expect(welcome.getByRole('heading').innerText()).resolves.toBe(WELCOME_TITLE[locale])
      await window.screenshot(join(SCREENSHOTS, `first-run-welcome-${locale}.png`))
      await welcome.getByTestId('welcome-add-provider').click()

      // The settings open on the provider form; the kind a local server speaks is one choice away.
      const settings = page.getByTestId('provider-settings')
      await settings.waitFor()
      await settings.getByTestId('provider-kind').selectOption('openai-compatible')
      await settings.getByTestId('provider-base-url').fill(server.v1)
      await settings.getByTestId('provider-api-key').fill(KEY)
      await settings.getByTestId('provider-save').click()

      // Saving asks the server for its models; each is one click from being added.
      const offered = settings.getByTestId('remote-model')
      await eventually(() => offered.allInnerTexts()).toEqual(
        expect.arrayContaining([
          expect.stringContaining('scripted-model'),
          expect.stringContaining('scripted-small')
        ])
      )
      await window.screenshot(join(SCREENSHOTS, `first-run-models-${locale}.png`))
      await settings
        .locator('[data-testid="remote-model-add"][data-model-id="scripted-model"]')
        .click()

      // A model the catalog does not know says its numbers are guesses.
      await eventually(() =>
        settings.getByTestId('provider-model-note').getAttribute('data-state')
      ).toBe('guess')
      // The first model added is the default: nothing else to choose.
      await eventually(() => settings.getByTestId('default-model-select').inputValue()).toContain(
        'scripted-model'
      )
      await settings.getByTestId('provider-settings-close').click()
      await settings.waitFor({ state: 'detached' })

      // A new thread inherits the default and the reply streams in.
      await page.getByTestId('new-thread').first().click()
      await eventually(() =>
        page.getByTestId('thread-model-select').locator('option').first().innerText()
      ).toContain('scripted-model')
      await page.getByTestId('composer-input').fill('Hello, is anyone there?')
      await page.getByTestId('send-button').click()
      await eventually(() => lastReply(page).innerText()).toContain('Welcome aboard, newcomer.')
      await expect(page.getByTestId('notice-no-model').count()).resolves.toBe(0)
      expect(server.completions()).toHaveLength(earlier + 1)
      await window.screenshot(join(SCREENSHOTS, `first-run-reply-${locale}.png`))
      window.assertHealthy()
    })

    it(`shows the welcome and the settings in the dark theme (${locale})`, async () => {
      const { window, page } = await session.start(
        { databasePath: join(tempDir(), 'store.sqlite'), detectOllama: notRunning },
        { locale }
      )
      await page.getByTestId('welcome').waitFor()
      await chooseTheme(page, 'dark')
      expect(await lightControls(page)).toEqual([])
      await window.screenshot(join(SCREENSHOTS, `first-run-welcome-dark-${locale}.png`))
      await page.getByTestId('welcome-add-provider').click()
      await page.getByTestId('provider-settings').waitFor()
      expect(await lightControls(page)).toEqual([])
      await window.screenshot(join(SCREENSHOTS, `settings-dark-${locale}.png`))
      window.assertHealthy()
    })
  }
})

/** No Ollama on this machine: the welcome must not depend on one. */
const notRunning = async () =>
  ({ found: false, baseUrl: 'http://127.0.0.1:11434', reason: 'not_running' }) as const
