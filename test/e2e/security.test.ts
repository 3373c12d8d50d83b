/**
 * The renderer's defences in real Chromium, on the built app: the strict CSP holds through a
 * normal session (no violation at all, not even one a library swallows), and hostile markdown
 * in messages renders as inert text and links, with nothing run, loaded or navigated.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { MARKDOWN_XSS_CORPUS } from './fixtures/markdownXss'
import type { PageGlobals } from './harness/browser'
import { eventually, expectStillAfter } from '../support/poll'
import { useChromiumSession } from './harness/session'
import { chatUi, memoryUi } from './harness/ui'

/** The page's `window`, with what a payload would set if it ran. */
type Hostile = PageGlobals & { __xss?: unknown }

/** What the rendered messages contain that markdown must never produce. */
interface DomFindings {
  elements: string[]
  attributes: string[]
  hrefs: string[]
  ids: string[]
}

// Elements that run, load, submit or restyle something; markdown only needs inert text ones.
const FORBIDDEN_TAGS = [
  'script',
  'iframe',
  'frame',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'style',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'img',
  'video',
  'audio',
  'source',
  'template',
  'details'
]
// Attributes that load or run something, wherever they appear.
const FORBIDDEN_ATTRIBUTES =
  /^(on|style$|srcdoc$|src$|formaction$|action$|data$|xlink:|background$)/i
const SAFE_HREF = /^(https?:|mailto:|#)/i

function findDangers(page: Page): Promise<DomFindings> {
  return page.evaluate(
    ({ tags, attributePattern, hrefPattern }) => {
      type El = {
        tagName: string
        attributes: ArrayLike<{ name: string; value: string }>
      }
      const doc = (
        globalThis as unknown as {
          document: { querySelectorAll(selector: string): ArrayLike<El> }
        }
      ).document
      const attributeRule = new RegExp(attributePattern, 'i')
      const hrefRule = new RegExp(hrefPattern, 'i')
      const findings = { elements: [], attributes: [], hrefs: [], ids: [] } as DomFindings
      // A code block's Copy button is the app's own control beside the block (the sanitizer
      // keeps no class but language-* on code, so markdown cannot dress up as it).
      const content = '.markdown, .markdown *:not(.code-block__copy, .code-block__copy *)'
      for (const element of Array.from(doc.querySelectorAll(content))) {
        const tag = element.tagName.toLowerCase()
        // A GFM task list's box is the one input markdown makes, and it cannot be changed.
        const taskBox =
          tag === 'input' &&
          Array.from(element.attributes).some((a) => a.name === 'disabled') &&
          Array.from(element.attributes).some((a) => a.name === 'type' && a.value === 'checkbox')
        if (tags.includes(tag) && !taskBox) findings.elements.push(tag)
        for (const { name, value } of Array.from(element.attributes)) {
          if (attributeRule.test(name)) findings.attributes.push(`${tag}[${name}=${value}]`)
          if (name === 'href' && !hrefRule.test(value.trim())) findings.hrefs.push(value)
          // Named or identified elements could shadow globals such as window.api.
          if ((name === 'id' || name === 'name') && !value.startsWith('user-content-')) {
            findings.ids.push(`${tag}[${name}=${value}]`)
          }
        }
      }
      return findings
    },
    {
      tags: FORBIDDEN_TAGS,
      attributePattern: FORBIDDEN_ATTRIBUTES.source,
      hrefPattern: SAFE_HREF.source
    }
  )
}

describe('security in Chromium', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()

  it('loads the app and goes through a basic session with no CSP violation at all', async () => {
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite')
    })
    const app = { ...chatUi(page), ...memoryUi(page) }
    // The built page's policy: no inline script or style, no eval, whatever the dev server adds.
    const csp = await page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .getAttribute('content')
    expect(csp).toContain("style-src 'self';")
    expect(csp).not.toMatch(/unsafe-/)

    await page.getByTestId('new-thread').click()
    await app.activeThread.waitFor()
    await app.composer.fill(
      '## Plan\n\n| day | place |\n| --- | --- |\n| 1 | Kyoto |\n\n```ts\nconst x = 1\n```'
    )
    await app.composer.press('Enter')
    await page.getByTestId('notice-no-model').waitFor()
    await page.getByTestId('inspector-panel').waitFor()
    await eventually(() => page.locator('.markdown table').count()).toBe(1)
    await eventually(() => page.locator('.markdown .hljs-keyword').count()).toBeGreaterThan(0)

    await app.openMemory.click()
    await app.manager.waitFor()
    await page.getByTestId('memory-close').click()
    await page.getByTestId('open-provider-settings').click()
    await page.getByTestId('provider-settings').waitFor()
    await page.getByTestId('provider-settings-close').click()
    await app.languageSelect.selectOption('zh-CN')
    await eventually(() => page.locator('html').getAttribute('lang')).toBe('zh-CN')

    expect(window.cspViolations).toEqual([])
    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })

  it('renders a corpus of hostile markdown as inert text: nothing runs, loads or navigates', async () => {
    let threadId = ''
    const { harness, window, page } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      {
        seed: async (h) => {
          threadId = h.services.threads.create('Hostile').id
          for (const payload of MARKDOWN_XSS_CORPUS) await h.services.chat.send(threadId, payload)
        }
      }
    )
    const app = chatUi(page)
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    const appAddress = new URL(harness.url)
    const elsewhere: string[] = []
    page.on('framenavigated', (frame) => {
      const url = new URL(frame.url())
      if (url.origin !== appAddress.origin || url.pathname !== appAddress.pathname) {
        elsewhere.push(frame.url())
      }
    })
    const popups: string[] = []
    window.context.on('page', (popup) => popups.push(popup.url()))

    // Tall enough that the virtualized list renders every message at once.
    await page.setViewportSize({ width: 1280, height: 30_000 })
    await app.thread(threadId).click()
    await eventually(() => app.messages.count()).toBe(MARKDOWN_XSS_CORPUS.length)

    expect(await findDangers(page)).toEqual({ elements: [], attributes: [], hrefs: [], ids: [] })

    // Links that stay in the page, and the text of dropped ones, are clicked like a user would.
    for (const target of await page
      .locator('.markdown a:not([target]), .markdown span[title]')
      .all()) {
      await target.click({ force: true })
    }
    // Nothing ran: an absence, which polling cannot show, so a window of a second in which
    // anything a payload scheduled (image errors, refreshes, autofocus) would happen.
    await expectStillAfter(1_000, async () => {
      expect(await page.evaluate(() => (globalThis as Hostile).__xss)).toBeUndefined()
      expect(await page.evaluate(() => typeof (globalThis as Hostile).api.threads.list)).toBe(
        'function'
      )
      expect(dialogs).toEqual([])
      expect(elsewhere).toEqual([])
      expect(popups).toEqual([])
      expect(window.cspViolations).toEqual([])
      window.assertHealthy()
      expect(harness.unexpectedErrors).toEqual([])
    })

    // Written HTML is shown as the text it is, not dropped: the reader sees what was sent.
    await expect
      .poll(() =>
        page.locator('.markdown').getByText('<script>window.__xss = "script"</script>').count()
      )
      .toBe(1)
    // A safe link stays a link that opens outside the app.
    const external = page.locator('.markdown a.markdown-image[href="https://example.com/cat.png"]')
    expect(await external.getAttribute('target')).toBe('_blank')
  })
})
