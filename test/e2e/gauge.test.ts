/**
 * The context gauge by the composer and the per-thread bars in the sidebar, end to end: the
 * built renderer in real Chromium, previews and sends built by the real ContextBuilder over a
 * real SQLite file (see harness/server.ts). Screenshots in English and Chinese go to
 * test-results/screenshots/.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { animationsDone, byTestId } from './harness/page'
import { eventually } from '../support/poll'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { chatUi } from './harness/ui'

/** Just the browser globals read here (the file is type-checked without the DOM lib). */
interface FocusedElement {
  closest(selector: string): { getAttribute(name: string): string | null } | null
}
type PageGlobals = typeof globalThis & { document: { activeElement: FocusedElement | null } }

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const HAN = /\p{Script=Han}/u

function ui(page: Page) {
  const gauge = page.getByTestId('context-gauge')
  const row = (threadId: string) => page.locator(byTestId('thread-item', { 'thread-id': threadId }))
  return {
    ...chatUi(page),
    gauge,
    gaugeButton: page.getByTestId('gauge-button'),
    gaugeDetails: page.getByTestId('gauge-details'),
    gaugeSegment: (section: string) =>
      page.getByTestId('gauge-bar').locator(byTestId('budget-segment', { section })),
    gaugeAlert: page.getByTestId('gauge-alert'),
    rowStats: (threadId: string) => row(threadId).getByTestId('thread-stats'),
    statsCard: page.getByTestId('thread-stats-card'),
    panel: page.getByTestId('inspector-panel'),
    inspectorToggle: page.getByTestId('inspector-toggle')
  }
}

const numberAttribute = async (locator: Locator, name: string): Promise<number> =>
  Number(await locator.getAttribute(name))

const note = (n: number) =>
  `Note ${n}: the CSV import must accept 1.234,56 and 03.02.2024, keep the original row ` +
  `numbers, and report every rejected line with its reason. 导入时要保留原始行号。`

/** A long paste, English and Chinese: a build log the user asks about. */
const longDraft = (lines: number) =>
  Array.from(
    { length: lines },
    (_, i) =>
      `[${String(i).padStart(4, '0')}] build step ${i}: compiled module ${i} · 编译模块 ${i} 完成`
  ).join('\n')

describe('context gauge and sidebar bars, end to end in Chromium', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()

  async function seed(harness: Harness) {
    const { threads, chat, contextConfig } = harness.services
    const trip = threads.create('Trip to Hangzhou')
    await chat.send(trip.id, '帮我规划一下下周去杭州的行程，预算三千元以内。')
    await chat.send(trip.id, 'Prefer quiet guesthouses near the tea fields.')
    const csv = threads.create('CSV import')
    // A small model window with a small output reserve, so its budget (3,600) reaches past the
    // 85 % safety net (3,400), as the defaults do for 128k models; a long draft comes near it.
    contextConfig.update('thread', { contextWindow: 4_000, outputReserve: 400 }, csv.id)
    for (let i = 1; i <= 6; i++) await chat.send(csv.id, note(i))
    threads.create('Empty thread')
    return { trip: trip.id, csv: csv.id }
  }

  it('moves with the draft, follows a send into the sidebar, and opens the inspector at a section', async () => {
    let ids = { trip: '', csv: '' }
    const { harness, window, page } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      { seed: async (h) => (ids = await seed(h)) }
    )
    const app = ui(page)
    // Start with the inspector closed: the gauge is what shows the context.
    await app.inspectorToggle.click()
    await app.panel.waitFor({ state: 'detached' })
    await app.thread(ids.csv).getByTestId('thread-title').click()
    await eventually(() => app.gauge.getAttribute('data-source')).toBe('sent')
    await eventually(() => harness.eventClientCount()).toBeGreaterThan(0)

    // The sidebar bar is the thread's newest stored build.
    const storedBefore = harness.services.context.builds(ids.csv)[0]!
    expect(await numberAttribute(app.rowStats(ids.csv), 'data-used')).toBe(
      storedBefore.context.tokenStats.total
    )
    expect(await numberAttribute(app.gauge, 'data-used')).toBe(
      storedBefore.context.tokenStats.total
    )

    // Typing moves the gauge: the live preview of the draft.
    await app.composer.pressSequentially('Why does the import reject row 12? ')
    await eventually(() => app.gauge.getAttribute('data-source')).toBe('draft')
    const short = await numberAttribute(app.gauge, 'data-used')
    const inputShort = await numberAttribute(app.gaugeSegment('input'), 'data-used')
    const paste = (lines: number) =>
      `Why does the import reject row 12? Here is the log:\n${longDraft(lines)}`
    await app.composer.fill(paste(40))
    await eventually(() => numberAttribute(app.gauge, 'data-used')).toBeGreaterThan(short + 500)
    expect(await numberAttribute(app.gaugeSegment('input'), 'data-used')).toBeGreaterThan(
      inputShort + 500
    )
    // A longer paste, a few lines at a time, until the gauge warns that the 85 % safety net
    // is near; it says so in words, with what would give way.
    // (The input's segment grows with every step; the total may not: once the input outgrows
    // its share the chunked window gives back a whole chunk of history at once.)
    for (let lines = 48; (await app.gaugeAlert.count()) === 0 && lines < 400; lines += 4) {
      const before = await numberAttribute(app.gaugeSegment('input'), 'data-used')
      await app.composer.fill(paste(lines))
      await eventually(() =>
        numberAttribute(app.gaugeSegment('input'), 'data-used')
      ).toBeGreaterThan(before)
    }
    expect(await app.gaugeAlert.getAttribute('data-kind')).toBe('near')
    expect(await app.gaugeAlert.innerText()).toMatch(/older messages and memories give way/)
    // Near means 90 % of the budget or of the 85 % safety limit, whichever comes first.
    const budget = await numberAttribute(app.gauge, 'data-budget')
    expect(await numberAttribute(app.gauge, 'data-used')).toBeGreaterThanOrEqual(
      0.9 * Math.min(budget, 3_400)
    )
    expect(await app.gauge.getAttribute('data-state')).toBe('near')

    await app.gauge.hover()
    await app.gaugeDetails.waitFor()
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'gauge-draft-en.png'))

    // Send: the sidebar bar of this thread changes to the new build.
    await app.sendButton.click()
    await eventually(async () => harness.services.context.builds(ids.csv)[0]!.id).toBeGreaterThan(
      storedBefore.id
    )
    const sent = harness.services.context.builds(ids.csv)[0]!
    await eventually(() => app.rowStats(ids.csv).getAttribute('data-build-id')).toBe(
      String(sent.id)
    )
    expect(await numberAttribute(app.rowStats(ids.csv), 'data-used')).toBe(
      sent.context.tokenStats.total
    )
    expect(sent.context.tokenStats.total).toBeGreaterThan(storedBefore.context.tokenStats.total)
    await eventually(() => app.gauge.getAttribute('data-source')).toBe('sent')
    expect(await numberAttribute(app.gauge, 'data-used')).toBe(sent.context.tokenStats.total)

    // Hovering the row shows its breakdown, cost and summary.
    await app.thread(ids.csv).hover()
    await app.statsCard.waitFor()
    expect(await app.statsCard.innerText()).toMatch(/Cost so far/)
    await window.screenshot(join(SCREENSHOTS, 'sidebar-stats-en.png'))

    // A click on a section of the gauge opens the inspector there, on the sent build.
    await app.gaugeSegment('recent').click()
    await app.panel.waitFor()
    await eventually(() =>
      page.evaluate(() => {
        const active = (globalThis as PageGlobals).document.activeElement
        return active?.closest('[data-section]')?.getAttribute('data-section') ?? null
      })
    ).toBe('recent')
    expect(await app.panel.getByTestId('inspector-source').getAttribute('data-source')).toBe(
      'history'
    )
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'gauge-inspector-en.png'))

    // 中文: the same places, in Chinese, light and dark.
    await app.languageSelect.selectOption('zh-CN')
    await eventually(() => app.composer.getAttribute('placeholder')).toMatch(HAN)
    // A paste bigger than the whole window: sent, only its two ends would fit.
    await app.composer.fill(`这段日志里第 12 行为什么被拒绝？\n${longDraft(200)}`)
    await eventually(() => app.gauge.getAttribute('data-source')).toBe('draft')
    await eventually(() => app.gaugeAlert.getAttribute('data-kind')).toBe('wouldTrim')
    // Only the ends would be sent: attaching the paste as a file is offered instead.
    expect(await app.gaugeAlert.getByTestId('gauge-attach-draft').count()).toBe(1)
    expect(await app.gaugeAlert.innerText()).toMatch(/只发送开头和结尾/)
    await app.gauge.hover()
    await app.gaugeDetails.waitFor()
    expect(await app.gaugeDetails.innerText()).toMatch(/如果现在发送这份草稿/)
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'gauge-draft-zh-CN.png'))

    await app.thread(ids.trip).hover()
    await app.statsCard.waitFor()
    expect(await app.statsCard.innerText()).toMatch(/累计费用/)
    await window.screenshot(join(SCREENSHOTS, 'sidebar-stats-zh-CN.png'))

    await page.emulateMedia({ colorScheme: 'dark' })
    await app.gauge.hover()
    await app.gaugeDetails.waitFor()
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'gauge-dark-zh-CN.png'))

    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
