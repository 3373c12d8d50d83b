/**
 * A thread summary appearing after a long conversation, end to end: a provider configured in
 * the settings dialog with a small window, long turns that push the oldest messages out of it,
 * the background summary request answered by the scripted server, the summary shown in the
 * inspector as soon as it is stored, and sent in the summary section of the next request.
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
const KEY = 'sk-e2e-Summary-Key-Not-For-Renderer-58'
/** A small window: a few long turns no longer fit, so the oldest fall out of it. */
const SMALL_MODEL = { id: 'scripted-small', contextWindow: 2_000, maxOutput: 200 }
const SUMMARY_TEXT =
  'Checkpoint E2E-7781: the user is planning a three-city rail trip and compared routes.'
/** More long turns than this and the small window should long have overflowed. */
const MAX_TURNS = 8

/** Auto-waiting assertion, with more time than usual: long turns and a background summary. */
const eventually = pollWithin(20_000)

/** A long user message (a few hundred tokens), different every turn. */
const longMessage = (turn: number) =>
  `Turn ${turn}. ` +
  Array.from(
    { length: 14 },
    (_, i) =>
      `Leg ${turn}.${i + 1}: compare the night train from city ${turn * 10 + i} with the morning ` +
      `express, list the transfer stations, and note the luggage rules for each operator.`
  ).join(' ')

const replyChunks = (turn: number): string[] => [
  `Reply ${turn}: `,
  ...Array.from(
    { length: 10 },
    (_, i) => `Option ${i + 1} for turn ${turn} takes the coastal line and changes once. `
  )
]

const sendTurn = (page: Page, turn: number) =>
  sendAndWaitForReply(page, longMessage(turn), `Reply ${turn}:`, 20_000)

describe('thread summary after a long conversation', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  beforeAll(() => {
    const server = scripted()
    // Answers by what was asked, so the background summary never takes a chat turn's script.
    server.route = (body): Script => {
      const prompt = promptTokensOf(body)
      if (isSummaryRequest(body)) {
        // Slow, so the summary is stored after the turn's own preview refresh: only the
        // summary:changed event can then bring it into the inspector.
        return {
          type: 'reply',
          chunks: [SUMMARY_TEXT],
          usage: { prompt, completion: 20 },
          chunkDelayMs: 800
        }
      }
      const turn = turnOf(body)
      return { type: 'reply', chunks: replyChunks(turn), usage: { prompt, completion: 150 } }
    }
  })

  it('summarizes the turns that left the window, shows it at once and sends it next time', async () => {
    const server = scripted()
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'summary.sqlite'),
      summaryMinTokens: 300
    })
    await startNewThread(page, harness)
    await configureProvider(page, scriptedProviderForm(server.v1, KEY, SMALL_MODEL))

    const panel = page.getByTestId('inspector-panel')
    const summaryRow = panel.locator('[data-testid="section-row"][data-section="summary"]')
    await eventually(() => summaryRow.getAttribute('data-used')).toBe('0')
    expect(await panel.getByTestId('thread-summary').count()).toBe(0)
    // Long turns until the first one no longer fits: the request stops carrying turn 1, which
    // is then history outside the window, enough tokens for a summary (summaryMinTokens 300).
    let turns = 0
    while (turns < MAX_TURNS) {
      await sendTurn(page, ++turns)
      if (!JSON.stringify(chatRequests(server).at(-1)?.body).includes('Turn 1.')) break
    }
    expect(turns).toBeGreaterThan(1)
    expect(turns).toBeLessThan(MAX_TURNS)
    // A draft, so the inspector shows the live preview of the next request (with an empty
    // draft it shows the last request as sent, which had no summary yet).
    await page.getByTestId('composer-input').fill('And the luggage rules?')
    await eventually(() => panel.getByTestId('inspector-source').getAttribute('data-source')).toBe(
      'preview'
    )

    // The summary request reached the server, with the oldest turn as its source material.
    await eventually(async () =>
      server.completions().filter((r) => isSummaryRequest(r.body))
    ).not.toHaveLength(0)
    const summaryRequest = server.completions().find((r) => isSummaryRequest(r.body))!
    expect(JSON.stringify(summaryRequest.body)).toContain('Turn 1.')

    // Shown in the inspector's summary card as soon as it is stored, without a reload.
    const card = panel.getByTestId('thread-summary')
    await eventually(() => card.getByTestId('thread-summary-content').innerText()).toBe(
      SUMMARY_TEXT
    )
    expect(await card.getByTestId('thread-summary-meta').innerText()).toContain('by the model')
    // The live preview of the next request now carries it in its summary section.
    await eventually(async () =>
      Number(await summaryRow.getAttribute('data-used'))
    ).toBeGreaterThan(0)
    window.assertHealthy()
    await window.screenshot(join(SCREENSHOTS, 'summary-en.png'))

    // The next turn sends it: in the request the server received and in that build's trace.
    const sentBefore = chatRequests(server).length
    await sendTurn(page, turns + 1)
    const next = chatRequests(server).slice(sentBefore)
    expect(next).toHaveLength(1)
    expect(JSON.stringify(next[0]!.body)).toContain(SUMMARY_TEXT)
    expect(JSON.stringify(next[0]!.body)).not.toContain('Turn 1.')

    await panel.getByTestId('tab-history').click()
    await panel.getByTestId('history-item').first().click()
    await eventually(() => panel.getByTestId('inspector-source').getAttribute('data-source')).toBe(
      'history'
    )
    await panel.getByTestId('tab-items').click()
    const summaryItem = panel.locator('[data-testid="trace-item"][data-kind="summary"]')
    await eventually(() => summaryItem.getAttribute('data-decision')).toBe('included')
    expect(await summaryItem.getAttribute('data-section')).toBe('summary')
    await panel.getByTestId('payload-toggle').click()
    await eventually(() => panel.getByTestId('payload-view').innerText()).toContain(SUMMARY_TEXT)
    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
