/**
 * Issue #17 end to end, in real Chromium over the app's default model (e5) and a real store: a new thread
 * with unrelated history shows a short request, the inspector says what recall found, what it
 * turned away and how much budget was left free, and the scope setting changes where it looks.
 * English and Chinese; screenshots in test-results/screenshots/.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { animationsDone, isInView } from './harness/page'
import { chooseTheme } from './harness/theme'
import { eventually } from '../support/poll'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { chatUi, memoryUi } from './harness/ui'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const HAN = /\p{Script=Han}/u

const LANGUAGES = {
  'en-US': {
    memory: 'My daughter Mia is allergic to peanuts.',
    question: 'Can you suggest a snack for my daughter after school?',
    offTopic: 'What is the boiling point of water at sea level?',
    elsewhere: 'Which neighbourhood in Porto is quiet at night?',
    otherChat: 'After work I go for a long run by the river to unwind.',
    conversation: 'To unwind after work, a long run by the river helps me.',
    held: 'How do I unwind after work?',
    mine: 'What do I do to unwind after work?'
  },
  'zh-CN': {
    memory: '我女儿对花生过敏。',
    question: '给我女儿推荐一个放学后吃的零食吧？',
    offTopic: '海平面上水的沸点是多少度？',
    elsewhere: 'Porto 哪个街区晚上比较安静？',
    otherChat: '下班后我会沿着河边跑很久的步来放松。',
    conversation: '下班后我怎么放松：沿着河边跑一大圈最有用。',
    held: '下班后我怎么放松？',
    mine: '我下班后一般做什么来放松？'
  }
} as const

function ui(page: Page) {
  const panel = page.getByTestId('inspector-panel')
  return {
    ...chatUi(page),
    ...memoryUi(page),
    newThread: page.getByTestId('new-thread'),
    summary: panel.getByTestId('recall-summary'),
    free: panel.getByTestId('recall-free'),
    explain: panel.getByTestId('recall-explain'),
    rejected: panel.getByTestId('recall-rejected'),
    absentNames: panel.getByTestId('recall-absent-names'),
    conversationBest: panel.getByTestId('recall-conversation-best'),
    aboutTheUser: panel.getByTestId('recall-about-the-user'),
    included: panel.locator(
      '[data-testid="trace-item"][data-section="retrieved"][data-decision="included"]'
    ),
    settingsTab: panel.getByTestId('tab-settings'),
    itemsTab: panel.getByTestId('tab-items'),
    scope: (value: string) => panel.locator(`[data-testid="recall-scope"][value="${value}"]`),
    saveThread: panel.getByTestId('save-thread-config')
  }
}

/** History a newcomer has after a week: the memory, and threads about other things. */
async function seed(
  harness: Harness,
  { memory, otherChat }: { memory: string; otherChat: string }
) {
  const { services } = harness
  await services.memory.create({ content: memory, category: 'fact' })
  const trip = services.threads.create('Trip to Lisbon')
  await services.chat.send(trip.id, 'Which neighbourhood in Lisbon is quiet at night?')
  await services.chat.send(trip.id, 'We land at 7 pm, so a hotel near the metro would help.')
  const code = services.threads.create('Rust lifetimes')
  await services.chat.send(code.id, 'Why does the borrow checker reject my struct with a &str?')
  const evenings = services.threads.create('Evenings')
  await services.chat.send(evenings.id, otherChat)
  await services.memoryIndexer.drained()
  await services.memory.warmedUp()
}

/**
 * The inspector's line is in view at both supported window sizes, in both themes, with a
 * screenshot of each (`<name>-<width>-<theme>-<locale>.png`); leaves 1280×800 and the system theme.
 */
async function readableEverywhere(page: Page, line: Locator, name: string, locale: string) {
  for (const [width, height] of [
    [1280, 800],
    [1024, 700]
  ] as const) {
    await page.setViewportSize({ width, height })
    await expect(isInView(line, page.getByTestId('inspector-panel'))).resolves.toBe(true)
    for (const theme of ['light', 'dark'] as const) {
      await chooseTheme(page, theme)
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}-${theme}-${locale}.png`) })
    }
  }
  await page.getByTestId('theme-select').selectOption('system')
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Types a draft and waits for the inspector's preview of exactly it. */
async function preview(harness: Harness, app: ReturnType<typeof ui>, text: string) {
  // Embedded once ahead, as typing it would: a loaded CI machine cannot push the query past
  // the search's deadline into a words-only build.
  await harness.services.memory.search(text, { timeoutMs: 30_000 })
  await app.composer.fill(text)
  await eventually(() => app.summary.isVisible(), 30_000).toBe(true)
}

describe('a focused request in a new thread (issue #17)', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()

  for (const locale of ['en-US', 'zh-CN'] as const) {
    const words = LANGUAGES[locale]

    it(`sends only the relevant memory, says what it left free, and follows the scope (${locale})`, async () => {
      const { harness, page, window } = await session.start(
        { databasePath: join(tempDir(), 'store.sqlite'), embeddings: 'e5' },
        { seed: (h) => seed(h, words), locale }
      )
      const app = ui(page)
      await eventually(() => app.status.getAttribute('data-state'), 60_000).toBe('ready')
      await app.newThread.click()

      await preview(harness, app, words.question)
      // One item: the memory. Nothing from the Lisbon or Rust threads.
      await eventually(() => app.included.count(), 30_000).toBe(1)
      await expect(app.included.first().getAttribute('data-id')).resolves.toMatch(/^memory:/)
      const summary = (await app.summary.textContent()) ?? ''
      const free = (await app.free.textContent()) ?? ''
      if (locale === 'zh-CN') {
        expect(summary).toMatch(HAN)
        expect(free).toMatch(HAN)
      } else {
        expect(summary).toContain('Retrieved: 1 item')
        expect(free).toContain('left free')
      }
      // Nearly the whole budget is free, and the number shown says so.
      const freeTokens = Number((/\d[\d,\u00a0\u202f]*/.exec(free)?.[0] ?? '').replace(/\D/g, ''))
      expect(freeTokens).toBeGreaterThan(100_000)
      await animationsDone(page)
      await page.screenshot({ path: join(SCREENSHOTS, `recall-focused-${locale}.png`) })

      // An off-topic question sends nothing recalled, and lists what the gate turned away.
      await preview(harness, app, words.offTopic)
      await eventually(() => app.included.count(), 30_000).toBe(0)
      await app.explain.locator('summary').click()
      await eventually(() => app.rejected.count()).toBeGreaterThan(0)
      await animationsDone(page)
      await page.screenshot({ path: join(SCREENSHOTS, `recall-offtopic-${locale}.png`) })

      // A place no chat mentions: the Lisbon thread resembles the question, and the inspector
      // says why other threads were held to a higher bar.
      await preview(harness, app, words.elsewhere)
      await eventually(() => app.absentNames.isVisible(), 30_000).toBe(true)
      const absent = (await app.absentNames.textContent()) ?? ''
      expect(absent).toContain('“Porto”')
      expect(absent).toMatch(locale === 'zh-CN' ? HAN : /needed relevance 0\.\d\d/u)
      await readableEverywhere(page, app.absentNames, 'recall-absent-name', locale)

      // A question about the user: the other chat where they said it is found, and the
      // inspector says that other threads' messages were weighed by who wrote them.
      await preview(harness, app, words.mine)
      await eventually(() => app.aboutTheUser.isVisible(), 30_000).toBe(true)
      const about = (await app.aboutTheUser.textContent()) ?? ''
      expect(about).toMatch(locale === 'zh-CN' ? HAN : /own messages counted 0\.02 more relevant/u)
      const ids = await app.included.evaluateAll((items) =>
        items.map((item) => item.getAttribute('data-id') ?? '')
      )
      expect(ids.some((id) => id.startsWith('message:'))).toBe(true)
      await readableEverywhere(page, app.aboutTheUser, 'recall-about-the-user', locale)

      // "This thread only": the memory is no longer searched, for this thread.
      await preview(harness, app, words.question)
      await app.settingsTab.click()
      await app.scope('thread').check()
      await app.saveThread.click()
      await app.itemsTab.click()
      await eventually(() => app.included.count(), 30_000).toBe(0)
      await expect(app.free.textContent()).resolves.toContain(
        locale === 'zh-CN' ? '仅本对话' : 'This thread only'
      )
      await animationsDone(page)
      await page.screenshot({ path: join(SCREENSHOTS, `recall-scope-thread-${locale}.png`) })

      // The scope and fill settings at the smallest supported window, light and dark: every
      // option visible inside the viewport.
      await page.setViewportSize({ width: 1024, height: 700 })
      await app.settingsTab.click()
      const settings = page.getByTestId('recall-settings')
      await settings.scrollIntoViewIfNeeded()
      for (const scope of ['thread', 'thread_memories', 'all']) {
        await expect(isInView(app.scope(scope), page.getByTestId('inspector-panel'))).resolves.toBe(
          true
        )
      }
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        // The app follows the system's scheme through a media listener: wait for it to apply,
        // or the screenshot catches the buttons' colour transitions half-way.
        await eventually(() =>
          page.evaluate(
            () =>
              (
                globalThis as unknown as {
                  document: { documentElement: { dataset: { theme?: string } } }
                }
              ).document.documentElement.dataset.theme
          )
        ).toBe(colorScheme)
        await animationsDone(page)
        await page.screenshot({
          path: join(SCREENSHOTS, `recall-settings-1024-${colorScheme}-${locale}.png`)
        })
      }
      await page.emulateMedia({ colorScheme: null })

      // Mid-conversation, in a thread already about what the draft asks: the Evenings chat
      // stays out, and the inspector says other threads needed this conversation's best.
      await app.newThread.click()
      await app.composer.fill(words.conversation)
      await page.getByTestId('send-button').click()
      await eventually(() => app.composer.inputValue()).toBe('')
      await harness.services.memoryIndexer.drained()
      await app.itemsTab.click()
      await preview(harness, app, words.held)
      await eventually(() => app.conversationBest.isVisible(), 30_000).toBe(true)
      const held = (await app.conversationBest.textContent()) ?? ''
      expect(held).toMatch(
        locale === 'zh-CN' ? HAN : /already holds a message of relevance 0\.\d\d/u
      )
      const sent = await app.included.evaluateAll((items) => items.map((i) => i.textContent ?? ''))
      expect(sent.join('\n')).not.toContain(words.otherChat.slice(0, 12))
      await readableEverywhere(page, app.conversationBest, 'recall-conversation-best', locale)

      window.assertHealthy()
      expect(harness.unexpectedErrors).toEqual([])
    })
  }
})
