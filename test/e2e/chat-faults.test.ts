/**
 * Honest replies in real Chromium, against the scripted provider: an empty reply shows as
 * such with Retry (and is not sent back on the retry), and a provider that refuses the model
 * list says why in the settings dialog, in its own words, instead of a generic app error.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { lastReply, startNewThread } from './harness/chat'
import { pollWithin } from '../support/poll'
import {
  chooseDefaultModel,
  closeProviderSettings,
  fillProviderForm,
  saveProvider,
  scriptedProviderForm
} from './harness/providerForm'
import { isSummaryRequest, useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'

const KEY = 'sk-e2e-Faults-Key-Not-For-Renderer-31'
const MODEL = { id: 'scripted-model', contextWindow: 32_000, maxOutput: 1_000 }
const eventually = pollWithin(10_000)

describe('honest replies', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  it("shows the provider's refusal of its model list, then an empty reply with Retry", async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite')
    })
    await startNewThread(page, harness)

    const dialog = await fillProviderForm(page, scriptedProviderForm(server.v1, KEY, MODEL))
    await saveProvider(dialog)
    // The provider now refuses the stored key: its own sentence and status reach the dialog.
    server.requiredKey = 'sk-some-other-key'
    await dialog.getByTestId('provider-fetch-models').click()
    const status = dialog.getByTestId('provider-remote-models')
    await eventually(() => status.getAttribute('data-ok')).toBe('false')
    expect(await status.getAttribute('data-kind')).toBe('auth')
    const refusal = await status.innerText()
    expect(refusal).toContain('Incorrect API key provided')
    expect(refusal).toContain('HTTP 401')
    expect(refusal).not.toContain('Something went wrong in the app')
    server.requiredKey = KEY
    await dialog.getByTestId('provider-fetch-models').click()
    await eventually(() => status.getAttribute('data-ok')).toBe('true')
    expect(await status.innerText()).toContain('scripted-model')
    await chooseDefaultModel(dialog, MODEL.id)
    await closeProviderSettings(dialog)

    server.enqueue({ type: 'reply', chunks: [], usage: { prompt: 50, completion: 0 } })
    await page.getByTestId('composer-input').fill('Say something')
    await page.getByTestId('send-button').click()
    const empty = lastReply(page)
    await eventually(() => empty.getAttribute('data-reply-status')).toBe('empty')
    expect(await empty.getByTestId('empty-reply').innerText()).toContain(
      'The model finished without sending any text.'
    )
    expect(await empty.getByTestId('reply-status').innerText()).toBe('empty reply')

    server.enqueue({ type: 'reply', chunks: ['Now ', 'with words.'] })
    await empty.getByTestId('empty-reply-retry').click()
    await eventually(() => lastReply(page).innerText()).toContain('Now with words.')
    // The retry asked the same question, and the empty reply was not sent back with it.
    const retried = server
      .completions()
      .filter((r) => !isSummaryRequest(r.body))
      .at(-1)?.body as {
      messages: { role: string; content: unknown }[]
    }
    expect(retried.messages.at(-1)).toEqual({ role: 'user', content: 'Say something' })
    expect(retried.messages.filter((m) => m.role === 'assistant')).toEqual([])
    expect(harness.unexpectedErrors).toEqual([])
    window.assertHealthy()
  })
})
