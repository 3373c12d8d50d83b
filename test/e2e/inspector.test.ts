/**
 * The token-budget inspector, end to end: the built renderer in real Chromium, previews and
 * sends built by the real ContextBuilder over a real SQLite file (see harness/server.ts).
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { StoredBuild } from '@shared/context'
import { useTempDir } from '../support/tempDir'
import { animationsDone, byTestId, isInView } from './harness/page'
import { eventually } from '../support/poll'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { chatUi } from './harness/ui'

/** Just the browser globals these tests touch (the file is type-checked without the DOM lib). */
type PageGlobals = typeof globalThis & {
  navigator: { clipboard: { readText(): Promise<string> } }
}

/** Switches light/dark and waits for the colour transitions, so a screenshot shows the result. */
async function setColorScheme(page: Page, colorScheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme })
  await animationsDone(page)
}

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const HAN = /\p{Script=Han}/u

/** The inspector's and the chat's stable test ids, as locators. */
function ui(page: Page) {
  const panel = page.getByTestId('inspector-panel')
  return {
    ...chatUi(page),
    panel,
    source: panel.getByTestId('inspector-source'),
    budgetBar: panel.getByTestId('budget-bar'),
    sectionRow: (section: string) => panel.locator(byTestId('section-row', { section })),
    traceItems: panel.getByTestId('trace-item'),
    traceItem: (id: string | number) => panel.locator(byTestId('trace-item', { id })),
    messageItems: (decision: string) =>
      panel.locator(byTestId('trace-item', { kind: 'message', decision })),
    inputItem: panel.locator(byTestId('trace-item', { kind: 'input' })),
    tab: (name: 'items' | 'settings' | 'history') => panel.getByTestId(`tab-${name}`),
    payloadToggle: panel.getByTestId('payload-toggle'),
    payloadMessages: panel.getByTestId('payload-message'),
    percentage: (section: string) => panel.locator(byTestId('percentage-input', { section })),
    percentageSum: panel.getByTestId('percentage-sum'),
    totalBudget: panel.getByTestId('total-budget-input'),
    configError: panel.getByTestId('config-error'),
    reset: panel.getByTestId('whatif-reset'),
    saveThread: panel.getByTestId('save-thread-config'),
    historyItems: panel.getByTestId('history-item'),
    backToPreview: panel.getByTestId('back-to-preview'),
    warnings: panel.getByTestId('build-warning'),
    metadata: panel.getByTestId('build-metadata')
  }
}

const numberAttribute = async (locator: Locator, name: string): Promise<number> =>
  Number(await locator.getAttribute(name))

/** Long enough that a small budget cannot hold them all (about 60 tokens each). */
const longMessage = (n: number) =>
  `Message ${n}: notes on the CSV import, the date formats it must accept, the decimal ` +
  `separators used by European banks, and the test fixtures that cover each case in turn.`

describe('token-budget inspector, end to end in Chromium', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const { open } = session

  /** A harness with one thread seeded through the real services, and the app opened on it. */
  async function start(seed: (harness: Harness) => Promise<string>) {
    let threadId = ''
    const { harness, window, page } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      { seed: async (h) => (threadId = await seed(h)) }
    )
    const app = ui(page)
    await app.thread(threadId).click()
    await eventually(() => app.activeThread.getAttribute('data-thread-id')).toBe(threadId)
    await app.inputItem.waitFor()
    // Builds of later sends arrive as events: wait until the page listens.
    await eventually(() => harness.eventClientCount()).toBeGreaterThan(0)
    return { harness, window, app, page, threadId }
  }

  async function seedThread(harness: Harness, title: string, contents: string[]) {
    const thread = harness.services.threads.create(title)
    for (const content of contents) await harness.services.chat.send(thread.id, content)
    return thread.id
  }

  function expectHealthy() {
    open.window?.assertHealthy()
    expect(open.harness?.unexpectedErrors).toEqual([])
  }

  it('follows the draft as it is typed, without sending, and shows the exact payload', async () => {
    const { harness, app, threadId } = await start((h) =>
      seedThread(h, 'Typing', ['An earlier message.'])
    )
    // Nothing typed: the last request as it was sent, labelled so.
    await eventually(() => app.source.getAttribute('data-source')).toBe('sent')
    expect(await app.source.innerText()).toMatch(/Last request as sent/)

    await app.composer.pressSequentially('Hello')
    await eventually(() => app.source.getAttribute('data-source')).toBe('preview')
    expect(await app.source.innerText()).toMatch(/Live preview of your draft/)
    await app.payloadToggle.click()
    await eventually(() => app.payloadMessages.last().locator('pre').first().textContent()).toBe(
      'Hello'
    )
    await app.tab('items').click()
    const shortTokens = await numberAttribute(app.inputItem, 'data-tokens')
    const shortUsed = await numberAttribute(app.sectionRow('input'), 'data-used')

    const draft = 'Hello, please write a unit test for 1.234,56 and 03.02.2024 — 两种格式都要覆盖。'
    await app.composer.pressSequentially(draft.slice('Hello'.length))
    await eventually(() => numberAttribute(app.inputItem, 'data-tokens')).toBeGreaterThan(
      shortTokens
    )
    // The preview settles on the whole draft, and its section row agrees with its item.
    await app.payloadToggle.click()
    await eventually(() => app.payloadMessages.last().locator('pre').first().textContent()).toBe(
      draft
    )
    expect(await app.payloadMessages.last().getAttribute('data-role')).toBe('user')
    const finalUsed = await numberAttribute(app.sectionRow('input'), 'data-used')
    expect(finalUsed).toBeGreaterThan(shortUsed)
    // The payload can be copied as JSON, exactly as shown.
    await open.window!.context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await app.panel.getByTestId('payload-copy').click()
    const copied = JSON.parse(
      await app.panel
        .page()
        .evaluate(() => (globalThis as PageGlobals).navigator.clipboard.readText())
    ) as { role: string; content: string }[]
    expect(copied.at(-1)).toEqual({ role: 'user', content: draft })
    expect(copied[0]?.role).toBe('system')
    await app.tab('items').click()
    expect(await numberAttribute(app.inputItem, 'data-tokens')).toBe(finalUsed)

    // Nothing was sent while typing.
    expect(harness.services.messages.list(threadId)).toHaveLength(1)
    expect(await app.messages.count()).toBe(1)
    expect(await app.composer.inputValue()).toBe(draft)

    expectHealthy()
  })

  it('previews a smaller budget as a what-if, rejects an invalid one, resets and saves', async () => {
    const contents = Array.from({ length: 8 }, (_, i) => longMessage(i + 1))
    const { harness, app, threadId } = await start((h) => seedThread(h, 'Budget', contents))
    // A draft, so the panel shows the live preview the settings apply to.
    await app.composer.fill('And the thousands separator?')
    await eventually(() => app.source.getAttribute('data-source')).toBe('preview')
    await eventually(() => app.messageItems('included').count()).toBe(8)
    /** Changes a setting on the Budget tab, then goes back to the items it affects. */
    const edit = async (change: () => Promise<void>) => {
      await app.tab('settings').click()
      await change()
      await app.tab('items').click()
    }

    await edit(async () => {
      expect(await app.percentageSum.getAttribute('data-sum')).toBe('100')
      await app.totalBudget.fill('300')
    })
    await eventually(() => app.messageItems('dropped_budget').count()).toBeGreaterThan(0)
    const includedAt300 = await app.messageItems('included').count()
    expect(includedAt300).toBeLessThan(8)
    expect(await numberAttribute(app.budgetBar, 'data-budget')).toBe(300)
    expect(await app.source.getAttribute('data-what-if')).toBe('true')

    await edit(() => app.percentage('recent').fill('10'))
    await eventually(() => app.messageItems('included').count()).toBeLessThan(includedAt300)
    const includedSmall = await app.messageItems('included').count()

    // A sum over 100 is refused next to the inputs; the last good preview stays.
    await edit(async () => {
      await app.percentage('recent').fill('90')
      await app.configError.waitFor()
      expect(await app.configError.innerText()).toMatch(/at most 100/)
      expect(await app.percentageSum.getAttribute('data-invalid')).toBe('true')
    })
    expect(await app.messageItems('included').count()).toBe(includedSmall)

    await edit(async () => {
      await app.reset.click()
      expect(await app.configError.count()).toBe(0)
      expect(await app.totalBudget.inputValue()).toBe('')
      expect(await app.percentage('recent').inputValue()).toBe('40')
    })
    await eventually(() => app.messageItems('included').count()).toBe(8)
    expect(await app.messageItems('dropped_budget').count()).toBe(0)
    expect(await app.source.getAttribute('data-what-if')).toBe('false')

    // Saved for the thread, the smaller budget is what the preview (and the next send) uses.
    await edit(async () => {
      await app.totalBudget.fill('300')
      await eventually(() => app.source.getAttribute('data-what-if')).toBe('true')
      await app.saveThread.click()
      await eventually(() => app.source.getAttribute('data-what-if')).toBe('false')
      expect(await app.reset.count()).toBe(0)
    })
    expect(harness.services.contextConfig.get(threadId).thread?.totalBudget).toBe(300)
    await eventually(() => app.messageItems('included').count()).toBe(includedAt300)

    // An empty total goes back to the model's window minus the reply reserve.
    await edit(async () => {
      await app.totalBudget.fill('')
      await app.saveThread.click()
      await eventually(() => app.reset.count()).toBe(0)
    })
    expect(harness.services.contextConfig.get(threadId).thread?.totalBudget).toBeUndefined()
    await eventually(() => app.messageItems('included').count()).toBe(8)
    expectHealthy()
  })

  it('pins and excludes from the inspector and the chat; the next sent build honours both', async () => {
    const contents = Array.from({ length: 6 }, (_, i) => longMessage(i + 1))
    const { harness, app, page, threadId } = await start((h) => seedThread(h, 'Flags', contents))
    const [first, second] = harness.services.messages.list(threadId)
    // Flags change the next request: the live preview of a draft shows it.
    await app.composer.fill('Which parser?')
    await eventually(() => app.source.getAttribute('data-source')).toBe('preview')
    await eventually(() => app.messageItems('included').count()).toBe(6)

    // Pin the oldest from the inspector: the chat row shows it too.
    await app.traceItem(first!.id).getByTestId('trace-pin').click()
    await eventually(() => app.traceItem(first!.id).getAttribute('data-decision')).toBe('pinned')
    await eventually(() => app.message(first!.id).getAttribute('data-pinned')).toBe('true')

    // Exclude another from its chat row: the inspector follows.
    const row = app.message(second!.id)
    await row.scrollIntoViewIfNeeded()
    await row.hover()
    await row.getByTestId('message-exclude').click()
    await eventually(() => row.getAttribute('data-excluded')).toBe('true')
    expect(await row.innerText()).toContain('not sent')
    await eventually(() => app.traceItem(second!.id).getAttribute('data-decision')).toBe(
      'excluded_by_user'
    )
    expect(harness.services.messages.list(threadId).slice(0, 2)).toMatchObject([
      { pinned: true, excluded: false },
      { pinned: false, excluded: true }
    ])

    // Send: the build main reports (event and history) keeps the pin and the exclusion.
    await app.tab('history').click()
    await eventually(() => app.historyItems.count()).toBe(6)
    const newestBefore = await app.historyItems.first().getAttribute('data-build-id')
    const builtBefore = harness.published.filter((e) => e.event === 'context:built').length
    await app.composer.fill('')
    await app.composer.pressSequentially('Now write the parser.')
    await app.composer.press('Enter')
    await eventually(() => app.historyItems.count()).toBe(7)
    await eventually(() => app.historyItems.first().getAttribute('data-build-id')).not.toBe(
      newestBefore
    )
    const built = harness.published.filter((e) => e.event === 'context:built')
    expect(built).toHaveLength(builtBefore + 1)
    const sent = built.at(-1)!.payload as StoredBuild
    const decisionOf = (id: number) =>
      sent.context.trace.find((entry) => entry.id === String(id))?.decision
    expect(decisionOf(first!.id)).toBe('pinned')
    expect(decisionOf(second!.id)).toBe('excluded_by_user')

    await app.historyItems.first().click()
    await eventually(() => app.source.getAttribute('data-source')).toBe('history')
    await app.tab('items').click()
    expect(await app.traceItem(first!.id).getAttribute('data-decision')).toBe('pinned')
    expect(await app.traceItem(second!.id).getAttribute('data-decision')).toBe('excluded_by_user')
    // A sent build is a record: it offers no toggles.
    expect(await app.panel.getByTestId('trace-pin').count()).toBe(0)
    await app.payloadToggle.click()
    expect(await app.payloadMessages.last().locator('pre').first().textContent()).toBe(
      'Now write the parser.'
    )
    const payloadTexts = await app.payloadMessages.allInnerTexts()
    expect(payloadTexts.some((text) => text.includes('Message 1:'))).toBe(true)
    expect(payloadTexts.some((text) => text.includes('Message 2:'))).toBe(false)

    // The draft is empty after the send: back to the last request as sent.
    await app.backToPreview.click()
    await eventually(() => app.source.getAttribute('data-source')).toBe('sent')

    // Clicking a message item brings it into view in the chat, highlighted.
    await app.tab('items').click()
    const list = page.getByTestId('message-list')
    await list.evaluate((element) => (element.scrollTop = element.scrollHeight))
    await eventually(() => isInView(app.message(first!.id), list)).toBe(false)
    await app.traceItem(first!.id).locator('button.trace-item__main').click()
    await eventually(() => app.message(first!.id).getAttribute('data-highlighted')).toBe('true')
    await eventually(() => isInView(app.message(first!.id), list)).toBe(true)
    expectHealthy()
  })

  it('looks right in English and Chinese, light and dark', async () => {
    const { page, app } = await start(async (harness) => {
      const threadId = await seedThread(harness, 'CSV import', [
        "Please read src/import/csv.ts and tell me why the dates come out wrong. Here's my bank's format: Date;Payee;Amount, with amounts like 1.234,56.",
        'My test password is hunter2, do not keep it.',
        '我们用 papaparse 解析 CSV，日期统一存成 ISO 字符串，金额以分为单位存整数。',
        'The dates are parsed in US order; 03.02.2024 becomes March 2nd. Parse the parts explicitly.',
        '好的，谢谢！那金额的解析也一起修一下。',
        'Also make sure negative amounts like -12,50 keep their sign.',
        'Here is the current parser: it splits on semicolons, trims each field and calls new Date() on the first one.',
        '还有一个问题：导出文件的第一行是表头，解析时要跳过。'
      ])
      const [first, second] = harness.services.messages.list(threadId)
      harness.services.messages.setFlags(first!.id, { pinned: true })
      harness.services.messages.setFlags(second!.id, { excluded: true })
      harness.services.contextConfig.update('thread', { totalBudget: 240 }, threadId)
      return threadId
    })
    await app.composer.pressSequentially(
      '帮我写一个单元测试，覆盖 1.234,56 和 03.02.2024 这两种情况。'
    )
    await eventually(() => app.messageItems('dropped_budget').count()).toBeGreaterThan(0)
    await eventually(() => numberAttribute(app.inputItem, 'data-tokens')).toBeGreaterThan(20)
    expect(await app.messageItems('pinned').count()).toBe(1)
    expect(await app.messageItems('excluded_by_user').count()).toBe(1)
    await eventually(() => app.metadata.innerText()).toContain('gpt-4o')

    await open.window!.screenshot(join(SCREENSHOTS, 'inspector-en.png'))
    await setColorScheme(page, 'dark')
    await open.window!.screenshot(join(SCREENSHOTS, 'inspector-dark-en.png'))
    await app.tab('settings').click()
    await open.window!.screenshot(join(SCREENSHOTS, 'inspector-settings-dark-en.png'))
    await setColorScheme(page, 'light')

    await app.languageSelect.selectOption('zh-CN')
    await eventually(() => app.source.innerText()).toMatch(HAN)
    await app.tab('items').click()
    await eventually(() => app.tab('items').innerText()).toMatch(HAN)
    await open.window!.screenshot(join(SCREENSHOTS, 'inspector-zh-CN.png'))
    await app.payloadToggle.click()
    await open.window!.screenshot(join(SCREENSHOTS, 'inspector-payload-zh-CN.png'))
    expectHealthy()
  })
})
