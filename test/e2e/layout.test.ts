/**
 * Layout at the window sizes people use, in Chromium: every settings control can be reached
 * (scrolled to, it lies inside the window and nothing is drawn over it), with a provider of
 * many models, several backups and the MCP section open; and the chat header keeps its title
 * readable and its counters apart, with the inspector open and closed, from 900 px wide.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ScriptedProvider } from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { useScriptedProvider } from './harness/scripted'
import { eventually } from '../support/poll'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const LONG_TITLE =
  'Planning the spring trip to Kyoto: temples, gardens, trains and where to stay for a week'

/** The page's globals this file reads (it is type-checked without the DOM lib). */
interface Box {
  x: number
  y: number
  width: number
  height: number
}
type HitGlobals = typeof globalThis & {
  document: { elementFromPoint(x: number, y: number): HitNode | null }
}
interface HitNode {
  getBoundingClientRect(): Box
  contains(other: HitNode | null): boolean
}

/**
 * A store past the first run: a provider with 40 models, a long-titled thread with a reply (so
 * the header shows its usage), 6 backups.
 */
const seedWith = (server: ScriptedProvider) => async (harness: Harness) => {
  harness.services.providers.create({
    kind: 'openai-compatible',
    name: 'Local server',
    baseUrl: server.v1,
    models: Array.from({ length: 40 }, (_, i) => ({ id: `local-model-${i + 1}` }))
  })
  const thread = harness.services.threads.create(LONG_TITLE)
  server.enqueue({
    type: 'reply',
    chunks: ['Start at Kiyomizu-dera.'],
    usage: { prompt: 900, completion: 6 }
  })
  await harness.services.chat.send(thread.id, 'Which temples should we see first?')
  await harness.services.chat.settled()
  for (let i = 0; i < 6; i++) await harness.services.backup.backupNow('manual')
}

/** Scrolls the control into view; it must then lie inside the window with nothing over its centre. */
async function expectReachable(control: Locator, page: Page, name: string): Promise<void> {
  await control.scrollIntoViewIfNeeded()
  const box = await control.boundingBox()
  const viewport = page.viewportSize()!
  expect(box, name).not.toBeNull()
  expect(box!.x, name).toBeGreaterThanOrEqual(0)
  expect(box!.y, name).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width, name).toBeLessThanOrEqual(viewport.width + 0.5)
  expect(box!.y + box!.height, name).toBeLessThanOrEqual(viewport.height + 0.5)
  const onTop = await control.evaluate((element) => {
    const node = element as unknown as HitNode
    const rect = node.getBoundingClientRect()
    const hit = (globalThis as HitGlobals).document.elementFromPoint(
      rect.x + rect.width / 2,
      rect.y + rect.height / 2
    )
    return hit !== null && node.contains(hit)
  })
  expect(onTop, `${name} is covered by something else`).toBe(true)
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

describe('layout', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider()

  for (const size of [
    { width: 1024, height: 700 },
    { width: 1280, height: 800 }
  ]) {
    it(`reaches every settings control at ${size.width}×${size.height}`, async () => {
      const { window, page } = await session.start(
        { databasePath: join(tempDir(), 'store.sqlite') },
        { seed: seedWith(scripted()) }
      )
      await page.setViewportSize(size)
      await page.getByTestId('open-provider-settings').click()
      const settings = page.getByTestId('provider-settings')
      await settings.waitFor()
      await settings.getByTestId('provider-item').first().click()
      await eventually(() => settings.getByTestId('provider-model-row').count()).toBe(40)
      await settings.getByTestId('mcp-settings-toggle').click()
      await eventually(() => settings.getByTestId('backup-row').count()).toBeGreaterThan(1)

      const controls = settings.locator('button, input, select, textarea, summary')
      const count = await controls.count()
      expect(count).toBeGreaterThan(150)
      for (let i = 0; i < count; i++) {
        const control = controls.nth(i)
        const name =
          (await control.getAttribute('data-testid')) ??
          (await control.getAttribute('aria-label')) ??
          (await control.innerText())
        await expectReachable(control, page, `control ${i} (${name})`)
      }
      // The section list takes the reader to each section.
      await settings.locator('[data-testid="settings-nav"][data-section="backups"]').click()
      await expectReachable(settings.getByTestId('backup-now'), page, 'backup-now')
      await window.screenshot(join(SCREENSHOTS, `settings-${size.width}x${size.height}.png`))
      window.assertHealthy()
    })
  }

  for (const inspectorOpen of [true, false]) {
    it(`keeps the header readable from 900 px (inspector ${inspectorOpen ? 'open' : 'closed'})`, async () => {
      const { window, page } = await session.start(
        { databasePath: join(tempDir(), 'store.sqlite') },
        { seed: seedWith(scripted()) }
      )
      await page.getByTestId('thread-item').first().click()
      await page.getByTestId('chat-message-count').waitFor()
      const toggle = page.getByTestId('inspector-toggle')
      if ((await toggle.getAttribute('aria-pressed')) !== String(inspectorOpen)) {
        await toggle.click()
      }
      const parts = {
        title: page.getByTestId('chat-title'),
        count: page.getByTestId('chat-message-count'),
        usage: page.getByTestId('thread-usage'),
        model: page.getByTestId('thread-model-select'),
        tools: page.getByTestId('thread-tools-toggle'),
        settings: page.getByTestId('open-provider-settings'),
        inspector: toggle
      }
      for (const width of [900, 1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 760 })
        const boxes: [string, Box][] = []
        for (const [name, part] of Object.entries(parts)) {
          await expectReachable(part, page, `${name} at ${width}px`)
          boxes.push([name, (await part.boundingBox())!])
        }
        // The title keeps room to be read, and ends in an ellipsis rather than under a counter.
        expect(boxes[0]![1].width, `title width at ${width}px`).toBeGreaterThanOrEqual(140)
        for (const [i, [name, box]] of boxes.entries()) {
          for (const [other, otherBox] of boxes.slice(i + 1)) {
            expect(overlaps(box, otherBox), `${name} overlaps ${other} at ${width}px`).toBe(false)
          }
        }
        // The active sidebar row's buttons sit beside its title, not over it.
        const row = page.locator('[data-testid="thread-item"][data-active="true"]')
        const title = (await row.getByTestId('thread-title').boundingBox())!
        for (const action of ['thread-rename', 'thread-export', 'thread-delete']) {
          const box = (await row.getByTestId(action).boundingBox())!
          expect(overlaps(title, box), `${action} over the thread's title at ${width}px`).toBe(
            false
          )
        }
        // Each message's "You"/"Assistant" and time stay whole inside the chat column.
        const list = (await page.getByTestId('message-list').boundingBox())!
        for (const label of await page
          .locator('.message__meta > .message__role, .message__meta > time')
          .all()) {
          const box = (await label.boundingBox())!
          const text = await label.innerText()
          expect(box.x, `"${text}" cut off at ${width}px`).toBeGreaterThanOrEqual(list.x)
          expect(box.x + box.width, `"${text}" cut off at ${width}px`).toBeLessThanOrEqual(
            list.x + list.width + 0.5
          )
          expect(box.height, `"${text}" wraps at ${width}px`).toBeLessThan(24)
        }
        // The context gauge's parts stay inside it (its window size was cut off at 900 px).
        const gauge = (await page.getByTestId('gauge-button').boundingBox())!
        for (const part of await page.getByTestId('gauge-button').locator(':scope > *').all()) {
          const box = (await part.boundingBox())!
          expect(box.x + box.width, `a gauge part cut off at ${width}px`).toBeLessThanOrEqual(
            gauge.x + gauge.width + 0.5
          )
        }
        await window.screenshot(
          join(SCREENSHOTS, `header-${width}-inspector-${inspectorOpen ? 'open' : 'closed'}.png`)
        )
      }
      window.assertHealthy()
    })
  }
})
