/**
 * The foundation, end to end: the built renderer in real Chromium, talking through the real
 * `createApi` to the real registry, services and SQLite file. Only Electron's IPC transport is
 * replaced (by http, see harness/server.ts).
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { useTempDir } from '../support/tempDir'
import type { PageGlobals } from './harness/browser'
import { byTestId, isInView } from './harness/page'
import { eventually } from '../support/poll'
import { startHarness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { activeThreadId, chatUi, lastMessageId } from './harness/ui'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const HAN = /\p{Script=Han}/u

/** The app's stable test ids, as locators. */
function ui(page: Page) {
  return {
    ...chatUi(page),
    newThread: page.getByTestId('new-thread'),
    threadItems: page.getByTestId('thread-item'),
    chatTitle: page.getByTestId('chat-title'),
    messagesByRole: (role: string) => page.locator(byTestId('message', { role })),
    noModelNotice: page.getByTestId('notice-no-model'),
    search: page.getByTestId('search-input'),
    searchHit: (threadId: string, messageId: string) =>
      page.locator(byTestId('search-hit', { 'thread-id': threadId, 'message-id': messageId })),
    inspectorToggle: page.getByTestId('inspector-toggle'),
    inspectorPanel: page.getByTestId('inspector-panel'),
    confirmDialog: page.getByTestId('confirm-dialog'),
    errorBanner: page.getByTestId('error-banner')
  }
}
type Ui = ReturnType<typeof ui>

/** The thread item's action (rename/delete); hovers first in case actions appear on hover. */
async function threadAction(app: Ui, threadId: string, action: 'thread-rename' | 'thread-delete') {
  const item = app.thread(threadId)
  await item.hover()
  await item.getByTestId(action).click()
}

/**
 * Sends through the composer and returns the new message's id once it is on screen. Compares
 * ids rather than counting elements, because the list is virtualized.
 */
async function send(app: Ui, text: string, via: 'enter' | 'button' = 'enter'): Promise<string> {
  const before = await lastMessageId(app)
  // Typed key by key where a real keyboard could; multi-line text is pasted in one go.
  if (text.includes('\n')) await app.composer.fill(text)
  else await app.composer.pressSequentially(text)
  if (via === 'enter') await app.composer.press('Enter')
  else await app.sendButton.click()
  await eventually(() => lastMessageId(app)).not.toBe(before)
  await eventually(() => app.composer.inputValue()).toBe('')
  await app.noModelNotice.waitFor()
  const sent = app.messages.last()
  expect(await sent.getAttribute('data-role')).toBe('user')
  const firstLine = text
    .split('\n')[0]!
    .replace(/[#*`|]/g, '')
    .trim()
  expect(await sent.innerText()).toContain(firstLine)
  const id = await sent.getAttribute('data-message-id')
  if (!id) throw new Error('A message element has no data-message-id')
  return id
}

/** Types into the search box, clicks the hit for `messageId`, and checks where it lands. */
async function searchAndOpen(app: Ui, query: string, threadId: string, messageId: string) {
  await app.search.fill(query)
  const hit = app.searchHit(threadId, messageId)
  await hit.waitFor()
  await hit.click()
  await eventually(() => app.activeThread.getAttribute('data-thread-id')).toBe(threadId)
  const target = app.message(messageId)
  // The highlight is brief by design; auto-waiting catches it while it lasts.
  await eventually(() => target.getAttribute('data-highlighted')).toBe('true')
  await eventually(() => isInView(target, app.messageList)).toBe(true)
}

describe('foundation, end to end in Chromium', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const { open } = session

  async function start(databasePath: string, locale: 'en-US' | 'zh-CN' = 'en-US') {
    const { harness, window, page } = await session.start({ databasePath }, { locale })
    return { harness, window, app: ui(page) }
  }

  async function stop() {
    open.window?.assertHealthy()
    expect(open.harness?.unexpectedErrors).toEqual([])
    await open.window?.close()
    await open.harness?.close()
    open.window = open.harness = undefined
  }

  it('threads, messages, search, language, inspector and deletion persist across a restart', async () => {
    const databasePath = join(tempDir(), 'store.sqlite')
    const { harness, window, app } = await start(databasePath)
    const { page } = window

    // --- A first thread, several messages --------------------------------------------------
    await app.newThread.click()
    await eventually(() => app.threadItems.count()).toBe(1)
    const kyotoId = await activeThreadId(app)

    const temples = await send(app, "Let's plan a trip to Kyoto in spring, visiting temples.")
    await app.noModelNotice.waitFor()
    const oolong = await send(app, '我喜欢喝乌龙茶，请记住')
    const markdown = [
      '## Packing list',
      '',
      '| Item | Count |',
      '| --- | --- |',
      '| Umbrella | 1 |',
      '| Rail pass | 2 |',
      '',
      '```ts',
      'const budget = { yen: 120_000, days: 5 }',
      '```'
    ].join('\n')
    const markdownId = await send(app, markdown, 'button')
    await app.message(markdownId).locator('table').waitFor()
    await app.message(markdownId).locator('pre code').waitFor()
    window.assertHealthy()

    // Shift+Enter is a new line, not a send.
    const lastBefore = await lastMessageId(app)
    await app.composer.fill('')
    await app.composer.pressSequentially('First line')
    await app.composer.press('Shift+Enter')
    await app.composer.pressSequentially('second line')
    expect(await app.composer.inputValue()).toBe('First line\nsecond line')
    expect(await lastMessageId(app)).toBe(lastBefore)
    await app.composer.press('Enter')
    await eventually(() => lastMessageId(app)).not.toBe(lastBefore)
    const twoLines = await lastMessageId(app)
    expect(await app.messages.last().innerText()).toMatch(/First line\s+second line/)
    // The line break reached the store as typed.
    const stored = harness.services.messages.list(kyotoId).find((m) => String(m.id) === twoLines)
    expect(stored?.content).toBe('First line\nsecond line')

    // No model is configured: the notice says so and nothing pretends to answer.
    await app.noModelNotice.waitFor()
    expect(await app.messagesByRole('assistant').count()).toBe(0)
    const kyotoMessageIds = harness.services.messages.list(kyotoId).map((m) => String(m.id))
    expect(kyotoMessageIds).toEqual([temples, oolong, markdownId, twoLines])
    expect(await app.messages.count()).toBe(kyotoMessageIds.length)

    // --- Rename inline ---------------------------------------------------------------------
    await threadAction(app, kyotoId, 'thread-rename')
    const titleInput = app.thread(kyotoId).getByTestId('thread-title-input')
    await titleInput.fill('Kyoto trip')
    await titleInput.press('Enter')
    await eventually(() => app.thread(kyotoId).getByTestId('thread-title').innerText()).toBe(
      'Kyoto trip'
    )
    await eventually(() => app.chatTitle.innerText()).toContain('Kyoto trip')

    // --- A second thread ---------------------------------------------------------------------
    await app.newThread.click()
    await eventually(() => app.threadItems.count()).toBe(2)
    const breadId = await activeThreadId(app)
    expect(breadId).not.toBe(kyotoId)
    await eventually(() => app.messages.count()).toBe(0)
    await send(app, 'Second thread: sourdough baking schedule')

    // --- Search, in English and Chinese; a hit opens its thread at the message ---------------
    await searchAndOpen(app, 'temples', kyotoId, temples)
    await searchAndOpen(app, '乌龙', kyotoId, oolong)
    await searchAndOpen(app, '乌龙茶', kyotoId, oolong)
    await app.search.fill('')
    window.assertHealthy()

    // --- A bad payload is a typed error, and the page carries on ------------------------------
    const invalid = await page.evaluate(() =>
      (globalThis as PageGlobals).api.threads.rename({ id: 'not-a-uuid', title: '' })
    )
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    await app.newThread.waitFor()

    // --- Screenshots in English and Chinese --------------------------------------------------
    // Let the search highlight fade so the screenshots show the resting state.
    await eventually(() => app.message(oolong).getAttribute('data-highlighted')).toBe('false')
    await app.message(markdownId).scrollIntoViewIfNeeded()
    await window.screenshot(join(SCREENSHOTS, 'main-en.png'))
    const englishNewThread = (await app.newThread.innerText()).trim()
    const englishPlaceholder = await app.composer.getAttribute('placeholder')

    await app.languageSelect.selectOption('zh-CN')
    await eventually(() => page.locator('html').getAttribute('lang')).toBe('zh-CN')
    await eventually(() => app.newThread.innerText()).toMatch(HAN)
    const chineseNewThread = (await app.newThread.innerText()).trim()
    expect(chineseNewThread).not.toBe(englishNewThread)
    expect(await app.composer.getAttribute('placeholder')).not.toBe(englishPlaceholder)
    await app.message(markdownId).scrollIntoViewIfNeeded()
    await window.screenshot(join(SCREENSHOTS, 'main-zh-CN.png'))

    // --- Inspector toggles, and the choice is remembered -------------------------------------
    const inspectorWasOpen = await app.inspectorPanel.isVisible()
    await app.inspectorToggle.click()
    await eventually(() => app.inspectorPanel.isVisible()).toBe(!inspectorWasOpen)
    await app.inspectorToggle.click()
    await eventually(() => app.inspectorPanel.isVisible()).toBe(inspectorWasOpen)
    await app.inspectorToggle.click()
    await eventually(() => app.inspectorPanel.isVisible()).toBe(!inspectorWasOpen)

    // --- Delete through the confirmation dialog, cancelling once first ----------------------
    await threadAction(app, breadId, 'thread-delete')
    await app.confirmDialog.waitFor()
    await app.confirmDialog.getByTestId('confirm-cancel').click()
    await app.confirmDialog.waitFor({ state: 'hidden' })
    expect(await app.thread(breadId).count()).toBe(1)

    await threadAction(app, breadId, 'thread-delete')
    await app.confirmDialog.waitFor()
    await app.confirmDialog.getByTestId('confirm-accept').click()
    await app.confirmDialog.waitFor({ state: 'hidden' })
    await eventually(() => app.thread(breadId).count()).toBe(0)
    await eventually(() => app.threadItems.count()).toBe(1)
    expect(await app.errorBanner.count()).toBe(0)

    // --- Restart on the same database file ---------------------------------------------------
    await stop()
    const again = await start(databasePath)
    const after = again.app
    await eventually(() => after.threadItems.count()).toBe(1)
    await eventually(() => after.thread(kyotoId).getByTestId('thread-title').innerText()).toBe(
      'Kyoto trip'
    )
    // The stored preference wins over the browser's English.
    await eventually(() => after.languageSelect.inputValue()).toBe('zh-CN')
    await eventually(() => after.newThread.innerText()).toBe(chineseNewThread)
    await eventually(() => after.inspectorPanel.isVisible()).toBe(!inspectorWasOpen)

    await after.thread(kyotoId).click()
    await eventually(() => after.activeThread.getAttribute('data-thread-id')).toBe(kyotoId)
    await eventually(() => after.chatTitle.innerText()).toContain('Kyoto trip')
    await eventually(() =>
      after.messages.evaluateAll((nodes) => nodes.map((node) => node.dataset.messageId))
    ).toEqual(kyotoMessageIds)
    expect(await after.message(oolong).innerText()).toContain('我喜欢喝乌龙茶，请记住')
    expect(await after.message(temples).innerText()).toContain('Kyoto in spring')
    expect(await after.messagesByRole('assistant').count()).toBe(0)
    await stop()
  })

  it('opens a thread of 10,000 messages with a virtualized list', async () => {
    const databasePath = join(tempDir(), 'store.sqlite')
    // Seed through the real services and repository before any page exists.
    const seeding = await startHarness({ databasePath })
    const thread = seeding.services.threads.create('Ten thousand messages')
    const repository = new MessageRepository(seeding.db)
    const seeded = seeding.db.transaction(() =>
      Array.from({ length: 10_000 }, (_, i) =>
        repository.append({
          threadId: thread.id,
          role: i % 2 === 0 ? 'user' : 'assistant',
          content: `Seeded message number ${i + 1}`,
          tokenCount: 6,
          createdAt: 1_700_000_000_000 + i
        })
      )
    )()
    await seeding.close()
    const first = seeded[0]!
    const last = seeded[seeded.length - 1]!

    const { window, app } = await start(databasePath)
    await app.thread(thread.id).click()
    await eventually(() => app.activeThread.getAttribute('data-thread-id')).toBe(thread.id)
    await eventually(() => app.messages.count()).toBeGreaterThan(0)

    // It opens at the newest message, and only a screenful (plus overscan) is in the DOM.
    await eventually(() => isInView(app.message(last.id), app.messageList)).toBe(true)
    expect(await app.messages.count()).toBeLessThan(200)

    // Scrolling to the top reaches the very first message. The thread opened at its newest
    // page and older pages load as the list nears its top, and row heights are measured as
    // they render, so the scroll is repeated until the list settles at the top.
    const firstMessage = app.message(first.id)
    await eventually(async () => {
      await app.messageList.evaluate((list) => {
        const scrollers = [list, ...list.querySelectorAll('*')].filter(
          (element) => element.scrollHeight > element.clientHeight + 1
        )
        for (const element of scrollers) element.scrollTop = 0
      })
      return (await firstMessage.count()) === 1 && (await isInView(firstMessage, app.messageList))
    }, 60_000).toBe(true)
    expect(await firstMessage.innerText()).toContain('Seeded message number 1')
    expect(await app.message(last.id).count()).toBe(0)
    expect(await app.messages.count()).toBeLessThan(200)
    window.assertHealthy()
    await stop()
  })

  it('follows a Chinese system language until the user picks one', async () => {
    const { window, app } = await start(join(tempDir(), 'store.sqlite'), 'zh-CN')
    await eventually(() => app.languageSelect.inputValue()).toBe('system')
    await eventually(() => app.newThread.innerText()).toMatch(HAN)
    expect(await window.page.locator('html').getAttribute('lang')).toBe('zh-CN')
    await app.newThread.click()
    expect(await app.composer.getAttribute('placeholder')).toMatch(HAN)
    await stop()
  })
})
