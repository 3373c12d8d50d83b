/**
 * MCP tools in the real app, in Chromium: add the real `server-everything` in Settings (it
 * starts, its tools are listed), expose `echo` in a thread, let the scripted model ask for it,
 * approve the call with its arguments shown, and see the result in the chat and its cost (the
 * schema and the stored result) in the inspector.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { lastReply, startNewThread } from './harness/chat'
import { eventually } from '../support/poll'
import {
  closeProviderSettings,
  configureProvider,
  openProviderSettings,
  scriptedProviderForm
} from './harness/providerForm'
import { chatRequests, useScriptedProvider } from './harness/scripted'
import { useChromiumSession } from './harness/session'
import { chooseTheme, lightControls, textColor } from './harness/theme'

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js'
)
const KEY = 'sk-e2e-tools'
const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
/** A reply with a highlighted code block, to see it follow the theme. */
const CODE_REPLY = '```ts\nconst echo = (message: string): string => message\n```\n'

describe('MCP tools', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  it('adds a server in Settings, approves a call, shows its result and its cost in the inspector', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite')
    })
    await configureProvider(
      page,
      scriptedProviderForm(server.v1, KEY, {
        id: 'scripted-model',
        contextWindow: 32_000,
        maxOutput: 1_000
      })
    )

    const dialog = await openProviderSettings(page)
    await dialog.getByTestId('mcp-settings-toggle').click()
    const form = dialog.getByTestId('mcp-add-form')
    await form.getByTestId('mcp-name').fill('Everything')
    await form.getByTestId('mcp-command').fill('node')
    await form.getByTestId('mcp-args').fill(`${EVERYTHING}\nstdio`)
    await form.getByTestId('mcp-env').fill('GREETING=hello')
    await form.getByTestId('mcp-add').click()
    const row = dialog.getByTestId('mcp-server')
    await eventually(() => row.getAttribute('data-status'), 30_000).toBe('running')
    await expect.poll(() => row.getByTestId('mcp-status').innerText()).toBe('Running')
    await expect.poll(() => row.getByTestId('mcp-tool-count').innerText()).toMatch(/^\d+ tools$/)
    await closeProviderSettings(dialog)

    await startNewThread(page, harness)
    await page.getByTestId('thread-tools-toggle').click()
    await page
      .locator('[data-testid="thread-tool"][data-tool="echo"] input[type="checkbox"]')
      .check()
    await eventually(() => page.getByTestId('thread-tools-toggle').innerText()).toBe('Tools (1)')
    await page.getByTestId('thread-tools-toggle').click()

    server.enqueue(
      {
        type: 'tool_calls',
        calls: [{ id: 'call_e2e', name: 'echo', arguments: { message: 'from the browser' } }]
      },
      { type: 'reply', chunks: ['The tool answered.\n\n', CODE_REPLY] }
    )
    await page.getByTestId('composer-input').fill('Please echo "from the browser"')
    await page.getByTestId('send-button').click()

    const approval = page.getByTestId('tool-approval')
    await approval.waitFor()
    // The call waiting for consent follows the message it answers, not the other way round
    // (the tool step is announced before the send answers).
    const roles = () =>
      page
        .getByTestId('message')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-role')))
    await eventually(roles).toEqual(['user', 'assistant'])
    expect(await page.getByTestId('message').first().innerText()).toContain('Please echo')
    expect(await approval.getAttribute('data-tool')).toBe('echo')
    expect(JSON.parse(await approval.getByTestId('tool-approval-args').innerText())).toEqual({
      message: 'from the browser'
    })
    // Nothing ran yet: one request so far, no result in the chat.
    expect(chatRequests(server)).toHaveLength(1)
    expect(await page.getByTestId('tool-result').count()).toBe(0)
    await approval.getByTestId('tool-allow-once').click()

    await eventually(() => lastReply(page).innerText()).toContain('The tool answered.')
    await approval.waitFor({ state: 'detached' })
    const result = page.getByTestId('tool-result')
    await expect.poll(() => result.innerText()).toContain('Echo: from the browser')
    await expect.poll(() => page.getByTestId('tool-call').getAttribute('data-tool')).toBe('echo')
    // The schema went with both requests.
    const bodies = chatRequests(server).map(
      (r) => r.body as { tools?: { function: { name: string } }[] }
    )
    expect(bodies.map((b) => b.tools?.map((t) => t.function.name))).toEqual([['echo'], ['echo']])

    // The inspector: the schema's cost in the tools section, the stored result as a message
    // in the next request (the live preview of a draft).
    const toggle = page.getByTestId('inspector-toggle')
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click()
    const panel = page.getByTestId('inspector-panel')
    await page.getByTestId('composer-input').fill('Thanks. And again?')
    await eventually(() => panel.getByTestId('inspector-source').getAttribute('data-source')).toBe(
      'preview'
    )
    const schema = panel.locator('[data-testid="trace-item"][data-id="tool:echo"]')
    await schema.first().waitFor()
    expect(await schema.first().getAttribute('data-section')).toBe('tools')
    expect(Number(await schema.first().getAttribute('data-tokens'))).toBeGreaterThan(10)
    const toolMessageId = await result
      .locator('xpath=ancestor::*[@data-testid="message"]')
      .getAttribute('data-message-id')
    const stored = panel.locator(`[data-testid="trace-item"][data-id="${toolMessageId}"]`)
    await stored.first().waitFor()
    expect(Number(await stored.first().getAttribute('data-tokens'))).toBeGreaterThan(0)

    // Light and dark, both languages: every control follows the theme, code blocks too.
    const keyword = lastReply(page).locator('pre .hljs-keyword').first()
    const lightKeyword = await textColor(keyword)
    await window.screenshot(join(SCREENSHOTS, 'tools-en.png'))
    await chooseTheme(page, 'dark')
    expect(await lightControls(page)).toEqual([])
    expect(await textColor(keyword)).not.toBe(lightKeyword)
    expect(await textColor(lastReply(page).locator('pre code'))).toBe('rgb(201, 209, 217)')
    await window.screenshot(join(SCREENSHOTS, 'tools-dark-en.png'))
    await page.getByTestId('thread-tools-toggle').click()
    expect(await lightControls(page)).toEqual([])
    await page.getByTestId('thread-tools-toggle').click()
    await page.getByTestId('language-select').selectOption('zh-CN')
    await eventually(() => page.getByTestId('thread-tools-toggle').innerText()).toMatch(/工具/)
    await window.screenshot(join(SCREENSHOTS, 'tools-dark-zh-CN.png'))
    await chooseTheme(page, 'light')
    expect(await textColor(keyword)).toBe(lightKeyword)
    await window.screenshot(join(SCREENSHOTS, 'tools-zh-CN.png'))
  })
})
