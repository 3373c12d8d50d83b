/**
 * "/compress <focus>" end to end: a provider with a small window configured in the settings
 * dialog, a few long turns, then the command typed in the composer. It is not sent as a
 * message; the thread's model writes the summary with the focus (the scripted server answers
 * the summary prompt), the chat says what happened, the inspector shows the new summary and
 * the older messages as covered by it, and the next request carries summary + tail.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startScriptedProvider,
  type RecordedRequest,
  type Script,
  type ScriptedProvider
} from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { openApp } from './harness/browser'
import { startHarness } from './harness/server'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Compress-Key-Not-For-Renderer-31'
/** The summary prompt's first words (src/main/context/summary/summaryPrompt.ts). */
const SUMMARY_MARKER = 'You write the checkpoint summary of a conversation'
const SUMMARY_TEXT =
  'Checkpoint E2E-4410: the database migration adds a currency column, then backfills it.'
const TURNS = 6

const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 })

/** About 150 tokens, different every turn. */
const longMessage = (turn: number) =>
  `Turn ${turn}. ` +
  Array.from(
    { length: 5 },
    (_, i) =>
      `Step ${turn}.${i + 1}: plan the database migration for table ${turn * 10 + i}, ` +
      `with a backup first and a rollback script.`
  ).join(' ')

const isSummaryRequest = (body: unknown) => JSON.stringify(body).includes(SUMMARY_MARKER)
const chatRequests = (server: ScriptedProvider): RecordedRequest[] =>
  server.completions().filter((r) => !isSummaryRequest(r.body))

function lastUserText(body: unknown): string {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages
  const last = messages.filter((m) => m.role === 'user').at(-1)
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)
}

async function configureProvider(page: Page, baseUrl: string) {
  await page.getByTestId('open-provider-settings').click()
  const dialog = page.getByTestId('provider-settings')
  await dialog.waitFor()
  await dialog.getByTestId('provider-kind').selectOption('openai-compatible')
  await dialog.getByTestId('provider-name').fill('Scripted')
  await dialog.getByTestId('provider-base-url').fill(baseUrl)
  await dialog.getByTestId('provider-api-key').fill(KEY)
  await dialog.getByTestId('provider-model-add').click()
  await dialog.getByTestId('provider-model-id').fill('scripted-small')
  // A small window: the protected tail (20 % of the budget) holds only the 8-message floor.
  await dialog.getByTestId('provider-model-window').fill('2000')
  await dialog.getByTestId('provider-model-max-output').fill('200')
  await dialog.getByTestId('provider-save').click()
  await dialog.getByTestId('provider-saved').waitFor()
  const option = dialog
    .getByTestId('default-model-select')
    .locator('option', { hasText: 'scripted-small' })
  await dialog
    .getByTestId('default-model-select')
    .selectOption((await option.getAttribute('value'))!)
  await eventually(() => dialog.getByTestId('default-model-select').inputValue()).toContain(
    'scripted-small'
  )
  await dialog.getByTestId('provider-settings-close').click()
  await dialog.waitFor({ state: 'detached' })
}

async function sendTurn(page: Page, turn: number) {
  await page.getByTestId('composer-input').fill(longMessage(turn))
  await page.getByTestId('send-button').click()
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last()
  await eventually(() => reply.innerText()).toContain(`Reply ${turn}:`)
  await page.getByTestId('send-button').waitFor()
}

describe('/compress <focus>', () => {
  const tempDir = useTempDir()
  const { browser, open } = useChromiumSession()
  let server: ScriptedProvider

  beforeAll(async () => {
    server = await startScriptedProvider({ requiredKey: KEY })
    server.route = (body): Script => {
      const prompt = Math.round(JSON.stringify(body).length / 4)
      if (isSummaryRequest(body)) {
        return { type: 'reply', chunks: [SUMMARY_TEXT], usage: { prompt, completion: 30 } }
      }
      const turn = Number(/^Turn (\d+)\./.exec(lastUserText(body))?.[1] ?? 0)
      return {
        type: 'reply',
        chunks: [`Reply ${turn}: `, 'back up first, then migrate.'],
        usage: { prompt, completion: 12 }
      }
    }
  })
  afterAll(async () => {
    await server?.close()
  })

  it('folds the older turns into a focused summary; the next request sends summary + tail', async () => {
    const harness = (open.harness = await startHarness({
      databasePath: join(tempDir(), 'compress.sqlite')
    }))
    const app = (open.window = await openApp(browser(), harness))
    const { page } = app
    await page.getByTestId('new-thread').first().click()
    await page.getByTestId('composer-input').waitFor()
    await expect.poll(() => harness.eventClientCount()).toBeGreaterThan(0)
    await configureProvider(page, server.v1)
    for (let turn = 1; turn <= TURNS; turn++) await sendTurn(page, turn)
    // The list is virtualized, so count what is stored.
    const threadId = harness.services.threads.list()[0]!.id
    const stored = () => harness.services.chat.list(threadId)
    expect(stored()).toHaveLength(TURNS * 2)
    const storedBefore = stored()
    const chatBefore = chatRequests(server).length

    // Typing "/" offers the command; Enter runs it instead of sending it.
    const input = page.getByTestId('composer-input')
    await input.fill('/')
    await page.getByTestId('composer-command-compress').waitFor()
    await input.fill('/compress database migration')
    await input.press('Enter')

    const notice = page.getByTestId('compress-notice')
    await eventually(() => notice.getAttribute('data-kind')).toBe('compressed')
    const text = await notice.innerText()
    expect(text).toMatch(/Compressed 4 messages \(\d[\d,]* tokens\) into the summary/)
    expect(text).toContain('focus: database migration')
    expect(text).toContain('The newest 8 messages are still sent word for word')
    expect(await input.inputValue()).toBe('')
    // Not a message: nothing new in the chat, nothing sent to the model as a turn.
    expect(stored()).toEqual(storedBefore)
    expect(chatRequests(server)).toHaveLength(chatBefore)
    const summaryRequests = server.completions().filter((r) => isSummaryRequest(r.body))
    expect(summaryRequests).toHaveLength(1)
    const prompt = JSON.stringify(summaryRequests[0]!.body)
    expect(prompt).toContain('database migration')
    expect(prompt).toContain('Turn 1.')
    expect(prompt).not.toContain('Turn 3.')

    // The inspector: the new summary, and messages #1-#4 covered by it in the live preview.
    const panel = page.getByTestId('inspector-panel')
    await eventually(() =>
      panel.getByTestId('thread-summary').getByTestId('thread-summary-content').innerText()
    ).toBe(SUMMARY_TEXT)
    const summaryRow = panel.locator('[data-testid="section-row"][data-section="summary"]')
    await eventually(async () =>
      Number(await summaryRow.getAttribute('data-used'))
    ).toBeGreaterThan(0)
    await panel.getByTestId('tab-items').click()
    // Few enough to be listed one by one (long runs collapse into one row).
    const covered = panel.locator(
      '[data-testid="trace-item"][data-kind="message"][data-decision="covered_by_summary"]'
    )
    await eventually(() => covered.count()).toBe(4)
    expect(await covered.first().innerText()).toContain('in summary')
    app.assertHealthy()
    await app.screenshot(join(SCREENSHOTS, 'compress-en.png'))

    // The next turn sends the summary and the tail, not the folded turns.
    await sendTurn(page, TURNS + 1)
    const next = chatRequests(server).slice(chatBefore)
    expect(next).toHaveLength(1)
    const sent = (next[0]!.body as { messages: { role: string; content: string }[] }).messages
    expect(
      sent.find((m) => m.content.startsWith('[Summary of the conversation up to message #4]'))
        ?.content
    ).toContain(SUMMARY_TEXT)
    // Verbatim turns start at the tail (turns 1-2 may still be recalled as memories: that is
    // the retrieved section, marked as such).
    const verbatim = sent.filter((m) => m.role !== 'system').map((m) => m.content)
    expect(verbatim.some((c) => c.startsWith('Turn 1.') || c.startsWith('Turn 2.'))).toBe(false)
    expect(verbatim[0]).toMatch(/^Turn 3\./)
    app.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
