/**
 * "/compress <focus>" end to end: a provider with a small window configured in the settings
 * dialog, a few long turns, then the command typed in the composer. It is not sent as a
 * message; the thread's model writes the summary with the focus (the scripted server answers
 * the summary prompt), the chat says what happened, the inspector shows the new summary and
 * the older messages as covered by it, and the next request carries summary + tail.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Script } from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { sendAndWaitForReply, startNewThread } from './harness/chat'
import { pollWithin } from '../support/poll'
import { configureProvider, scriptedProviderForm } from './harness/providerForm'
import {
  chatRequests,
  isSummaryRequest,
  promptTokensOf,
  turnOf,
  useScriptedProvider
} from './harness/scripted'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Compress-Key-Not-For-Renderer-31'
/** A small window: the protected tail (20 % of the budget) holds only the 8-message floor. */
const SMALL_MODEL = { id: 'scripted-small', contextWindow: 2_000, maxOutput: 200 }
const SUMMARY_TEXT =
  'Checkpoint E2E-4410: the database migration adds a currency column, then backfills it.'
const TURNS = 6

/** Auto-waiting assertion, with more time than usual: long turns and a background summary. */
const eventually = pollWithin(20_000)

/** About 150 tokens, different every turn. */
const longMessage = (turn: number) =>
  `Turn ${turn}. ` +
  Array.from(
    { length: 5 },
    (_, i) =>
      `Step ${turn}.${i + 1}: plan the database migration for table ${turn * 10 + i}, ` +
      `with a backup first and a rollback script.`
  ).join(' ')

const sendTurn = (page: Page, turn: number) =>
  sendAndWaitForReply(page, longMessage(turn), `Reply ${turn}:`, 20_000)

describe('/compress <focus>', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  beforeAll(() => {
    const server = scripted()
    server.route = (body): Script => {
      const prompt = promptTokensOf(body)
      if (isSummaryRequest(body)) {
        return { type: 'reply', chunks: [SUMMARY_TEXT], usage: { prompt, completion: 30 } }
      }
      const turn = turnOf(body)
      return {
        type: 'reply',
        chunks: [`Reply ${turn}: `, 'back up first, then migrate.'],
        usage: { prompt, completion: 12 }
      }
    }
  })

  it('folds the older turns into a focused summary; the next request sends summary + tail', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'compress.sqlite')
    })
    await startNewThread(page, harness)
    await configureProvider(page, scriptedProviderForm(server.v1, KEY, SMALL_MODEL))
    for (let turn = 1; turn <= TURNS; turn++) await sendTurn(page, turn)
    // The list is virtualized, so count what is stored.
    const threadId = harness.services.threads.list()[0]!.id
    const stored = () => harness.services.messages.list(threadId)
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

    // The inspector: the new summary, and messages #1-#4 covered by it in the live preview
    // (of a draft: with an empty one the inspector shows the last request as sent).
    const panel = page.getByTestId('inspector-panel')
    await input.fill('Next: the rollback plan.')
    await eventually(() => panel.getByTestId('inspector-source').getAttribute('data-source')).toBe(
      'preview'
    )
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
    window.assertHealthy()
    await window.screenshot(join(SCREENSHOTS, 'compress-en.png'))

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
    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
