/**
 * Ollama end to end: the app's own detector finds the scripted server's /api/tags, the chat
 * offers it after a send with no model, the user adds it from the settings dialog in one click,
 * and the reply streams from the scripted server's native /api/chat (NDJSON).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectOllama } from '../../src/main/services/providers/ollamaDetector'
import { useTempDir } from '../support/tempDir'
import { lastReply, startNewThread } from './harness/chat'
import { eventually } from '../support/poll'
import {
  chooseDefaultModel,
  closeProviderSettings,
  saveProvider,
  savedSettings
} from './harness/providerForm'
import { useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')

interface OllamaBody {
  model: string
  stream: boolean
  messages: { role: string; content: string }[]
  options?: { num_ctx?: number; num_predict?: number }
}

describe('chat with a detected Ollama', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ models: ['llama3.2:3b', 'qwen2.5:7b'] })

  it('offers the running Ollama, adds it in one click and streams its reply', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'ollama.sqlite'),
      // The app's real detector, aimed at the scripted server instead of 127.0.0.1:11434.
      detectOllama: () => detectOllama({ baseUrl: server.url })
    })
    await startNewThread(page, harness)

    // No model yet: the message is kept, and the notice mentions the Ollama it found.
    await page.getByTestId('composer-input').fill('Is anybody there?')
    await page.getByTestId('send-button').click()
    const notice = page.getByTestId('notice-no-model')
    await notice.waitFor()
    await eventually(() => notice.getByTestId('notice-ollama').innerText()).toContain('2 models')
    expect(server.completions()).toHaveLength(0)

    // The offer, accepted in the settings dialog.
    await notice.getByTestId('notice-no-model-action').click()
    const dialog = page.getByTestId('provider-settings')
    await dialog.waitFor()
    await eventually(() => dialog.getByTestId('ollama-detection').innerText()).toContain(
      'Ollama is running with 2 models.'
    )
    await dialog.getByTestId('ollama-add').click()
    expect(await dialog.getByTestId('provider-kind').inputValue()).toBe('ollama')
    // The provider talks to the Ollama that answered the detection.
    expect(await dialog.getByTestId('provider-base-url').inputValue()).toBe(server.url)
    expect(await dialog.getByTestId('provider-model-id').first().inputValue()).toBe('llama3.2:3b')
    // Ollama needs no key, so the dialog does not ask for one.
    expect(await dialog.getByTestId('provider-api-key').count()).toBe(0)
    await saveProvider(dialog)
    await chooseDefaultModel(dialog, 'llama3.2:3b')
    await eventually(async () => (await savedSettings(page))?.defaultModel?.modelId).toBe(
      'llama3.2:3b'
    )
    await closeProviderSettings(dialog)

    server.enqueue({
      type: 'reply',
      chunks: ['Ollama ', 'answers ', 'from ', 'this ', 'machine.'],
      usage: { prompt: 87, completion: 5 },
      chunkDelayMs: 150
    })
    await page.getByTestId('composer-input').fill('Hello, local model')
    await page.getByTestId('send-button').click()
    await page.getByTestId('streaming-reply').waitFor()
    await eventually(() => page.getByTestId('streaming-text').innerText()).toContain('Ollama')
    await page.getByTestId('streaming-reply').waitFor({ state: 'detached', timeout: 15_000 })
    const reply = lastReply(page)
    await eventually(() => reply.innerText()).toContain('Ollama answers from this machine.')
    expect(await reply.getByTestId('message-usage-tokens').innerText()).toContain('87 in · 5 out')
    await eventually(() => page.getByTestId('reply-usage-actual').innerText()).toContain('87')
    await page.getByTestId('send-button').waitFor()
    expect(await page.getByTestId('notice-no-model').count()).toBe(0)
    window.assertHealthy()
    await window.screenshot(join(SCREENSHOTS, 'chat-ollama-en.png'))

    // What the server received: Ollama's native API, with the window and output limit.
    const [request, ...rest] = server.completions()
    expect(rest).toHaveLength(0)
    expect(request!.path).toBe('/api/chat')
    expect(request!.headers.authorization).toBeUndefined()
    const body = request!.body as OllamaBody
    expect(body.model).toBe('llama3.2:3b')
    expect(body.stream).toBe(true)
    expect(body.options?.num_ctx).toBe(8192)
    expect(body.options?.num_predict).toBe(2048)
    // Both user messages are in the conversation: the first was kept while no model was set.
    const userTurns = body.messages.filter((m) => m.role === 'user').map((m) => m.content)
    expect(userTurns).toEqual(['Is anybody there?', 'Hello, local model'])
    expect(harness.unexpectedErrors).toEqual([])
  })
})
