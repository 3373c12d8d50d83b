/**
 * Cost explained and compression checked, end to end in Chromium, in English and Chinese: a
 * provider with prices and a small window, turns whose usage reports cache reads; each reply's
 * footer splits its prompt into served from cache / written / uncached with the cost of each
 * part, and the inspector says where a request that missed the cache first differed from the
 * previous one. Then "/compress" twice: the before/after view shows the folded messages beside
 * the summary, and the first version is restored from the history.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { Script } from '../support/scriptedProvider'
import { useTempDir } from '../support/tempDir'
import { sendAndWaitForReply, startNewThread } from './harness/chat'
import { pollWithin } from '../support/poll'
import { isSummaryRequest, promptTokensOf, turnOf, useScriptedProvider } from './harness/scripted'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Cost-Key-Not-For-Renderer-77'
/** A small window: the window slides and "/compress" has older messages to fold. */
const MODEL = {
  id: 'scripted-priced',
  contextWindow: 2_000,
  maxOutput: 200,
  inputPrice: 2,
  outputPrice: 8,
  cacheReadPrice: 0.5
}
const eventually = pollWithin(20_000)

const longMessage = (turn: number) =>
  `Turn ${turn}. ` +
  Array.from(
    { length: 5 },
    (_, i) => `Step ${turn}.${i + 1}: plan the parser refactor for module ${turn * 10 + i}.`
  ).join(' ')

const TEXT = {
  'en-US': {
    served: 'served from cache',
    missed: 'The cache missed',
    sections: { system: 'System', summary: 'Summary', recent: 'Recent', input: 'Input' },
    before: 'Before: what it replaced',
    folded: 'messages folded in',
    whatIf: 'Without cache-aware ordering: $'
  },
  'zh-CN': {
    served: '缓存命中',
    missed: '缓存未命中',
    sections: { system: '系统', summary: '摘要', recent: '近期消息', input: '输入' },
    before: '压缩前：被替换的内容',
    folded: '折叠了',
    whatIf: '如果不按缓存友好的顺序组织：$'
  }
} as const

describe('cost explained and compression checked', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const scripted = useScriptedProvider({ requiredKey: KEY })

  for (const locale of ['en-US', 'zh-CN'] as const) {
    it(`${locale}: a reply's cost by part, the miss location, and /compress before/after with restore`, async () => {
      const text = TEXT[locale]
      const server = scripted()
      let summaries = 0
      server.route = (body): Script => {
        const prompt = promptTokensOf(body)
        if (isSummaryRequest(body)) {
          summaries += 1
          return {
            type: 'reply',
            chunks: [`Checkpoint ${summaries}: the parser refactor plan.`],
            usage: { prompt, completion: 12 }
          }
        }
        const turn = turnOf(body)
        // Turn 2 reads most of its prompt from the cache; turn 3 reads nothing: a miss.
        const cacheRead = turn === 2 ? Math.floor(prompt / 2) : 0
        return {
          type: 'reply',
          chunks: [`Reply ${turn}: `, 'noted.'],
          usage: { prompt, completion: 6, cacheRead }
        }
      }
      const { harness, window, page } = await session.start(
        { databasePath: join(tempDir(), `cost-${locale}.sqlite`), systemLocale: locale },
        { locale, seed: async (h) => seedProvider(h, server.v1) }
      )
      await startNewThread(page, harness)
      for (let turn = 1; turn <= 3; turn++) {
        await sendAndWaitForReply(page, longMessage(turn), `Reply ${turn}:`, 20_000)
      }
      const threadId = harness.services.threads.list()[0]!.id

      // The reply footer: the prompt split as it was billed, and the cost of each part.
      const secondReply = page.locator('[data-testid="message"][data-role="assistant"]').nth(1)
      await expect
        .poll(() => secondReply.getByTestId('reply-cost-cache').innerText())
        .toContain(text.served)
      const stored = harness.services.messages.list(threadId).filter((m) => m.role === 'assistant')
      const usage = stored[1]!.reply!.usage!
      const cacheLine = await secondReply.getByTestId('reply-cost-cache').innerText()
      // Both languages group thousands with commas in the app's number format.
      expect(cacheLine).toContain(usage.cacheReadTokens.toLocaleString('en-US'))
      expect(await secondReply.getByTestId('reply-cost-parts').innerText()).toContain('$')

      // The inspector, on the newest reply: a miss, and where the prefix first differed.
      const panel = page.getByTestId('inspector-panel')
      const prefix = panel.getByTestId('cost-prefix')
      await eventually(() => prefix.getAttribute('data-missed')).toBe('true')
      const report = await harness.services.costs.report(threadId)
      const miss = report.replies.at(-1)!.divergence!
      expect(miss.first).not.toBeNull()
      const location = await panel.getByTestId('cost-miss-location').innerText()
      expect(location).toContain(text.missed)
      const section = miss.first!.section as keyof typeof text.sections
      expect(location).toContain(text.sections[section])
      if (miss.first!.seq !== null) expect(location).toContain(String(miss.first!.seq))
      // The newest reply read nothing from the cache: all of its prompt was billed uncached.
      expect(await panel.getByTestId('cost-part-served').locator('td').first().innerText()).toBe(
        '0'
      )
      expect(await panel.getByTestId('cost-thread-total').innerText()).toContain('$')
      // The what-if replays the turns with the sliding window, on request.
      await panel.getByTestId('cost-what-if-ask').click()
      await eventually(() => panel.getByTestId('cost-what-if').innerText()).toContain(text.whatIf)
      window.assertHealthy()
      await window.screenshot(join(SCREENSHOTS, `cost-${locale}.png`))

      // /compress: the notice links to the before/after view of the version it wrote.
      await sendAndWaitForReply(page, longMessage(4), 'Reply 4:', 20_000)
      await sendAndWaitForReply(page, longMessage(5), 'Reply 5:', 20_000)
      await sendAndWaitForReply(page, longMessage(6), 'Reply 6:', 20_000)
      await compress(page)
      await page.getByTestId('compress-notice-compare').click()
      const dialog = page.getByTestId('summary-compare')
      await dialog.waitFor()
      const first = harness.services.summaries.versions(threadId).at(-1)!
      expect(await dialog.getAttribute('data-version')).toBe(String(first.version))
      const before = dialog.getByTestId('summary-compare-before')
      expect(await before.innerText()).toContain(text.before)
      expect(await before.innerText()).toContain(text.folded)
      const folded = before.getByTestId('summary-compare-message')
      await eventually(() => folded.count()).toBe(first.foldedIds.length)
      expect(await folded.first().innerText()).toContain('Turn 1.')
      expect(await dialog.getByTestId('summary-compare-content').innerText()).toBe(first.content)
      await window.screenshot(join(SCREENSHOTS, `compress-compare-${locale}.png`))
      await dialog.getByTestId('summary-compare-close').click()

      // A second /compress, then the first version restored from the history.
      await sendAndWaitForReply(page, longMessage(7), 'Reply 7:', 20_000)
      await sendAndWaitForReply(page, longMessage(8), 'Reply 8:', 20_000)
      await compress(page)
      await eventually(() => harness.services.summaries.versions(threadId).length).toBe(2)
      const history = panel.getByTestId('summary-history')
      await history.locator('summary').click()
      await history
        .locator(`[data-testid="summary-version"][data-version="${first.version}"]`)
        .getByTestId('summary-version-compare')
        .click()
      await dialog.getByTestId('summary-compare-restore').click()
      await dialog.waitFor({ state: 'detached' })
      await eventually(() =>
        panel.getByTestId('thread-summary').getByTestId('thread-summary-content').innerText()
      ).toBe(first.content)
      expect(harness.services.summaries.get(threadId)).toMatchObject({
        version: 3,
        content: first.content
      })
      window.assertHealthy()
      expect(harness.unexpectedErrors).toEqual([])
    })
  }
})

function seedProvider(harness: Harness, baseUrl: string) {
  const provider = harness.services.providers.create({
    kind: 'openai-compatible',
    name: 'Scripted priced',
    baseUrl,
    apiKey: KEY,
    models: [MODEL]
  })
  harness.services.settings.update({
    defaultModel: { providerId: provider.id, modelId: MODEL.id }
  })
  return Promise.resolve()
}

async function compress(page: Page) {
  const notice = page.getByTestId('compress-notice')
  const input = page.getByTestId('composer-input')
  await input.fill('/compress')
  await input.press('Enter')
  await eventually(() => notice.getAttribute('data-kind')).toBe('compressed')
}
