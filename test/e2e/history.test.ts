/**
 * Import and export, end to end: the built renderer in real Chromium, the real services and a
 * real SQLite file behind the same registry the app uses. Main's file dialogs are the only
 * stand-ins (they answer with a path in the test's folder).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Locator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { writeSyntheticExport } from '../../scripts/bench/syntheticExport'
import { useTempDir } from '../support/tempDir'
import { eventually } from '../support/poll'
import { useChromiumSession } from './harness/session'

const tempDir = useTempDir()
const session = useChromiumSession()
const FIXTURE = resolve(import.meta.dirname, '../fixtures/history/chatgpt-conversations.json')

/** The fixture's two conversations after a few thousand synthetic ones, so progress shows. */
function bigExport(dir: string, conversations: number): string {
  const synthetic = join(dir, 'synthetic.json')
  writeSyntheticExport(synthetic, { conversations, messagesPerConversation: 6 })
  const fixture = readFileSync(FIXTURE, 'utf8').trim().slice(1, -1)
  const body = readFileSync(synthetic, 'utf8').trim().slice(1, -1)
  const file = join(dir, 'conversations.json')
  writeFileSync(file, `[${fixture},${body}]`)
  return file
}

/** The conversations the progress line counts so far. */
async function importedSoFar(dialog: Locator): Promise<number> {
  const text = await dialog.getByTestId('import-progress-counts').textContent()
  return Number(/(\d+)/.exec(text ?? '')?.[1] ?? 0)
}

describe('import and export in the app', () => {
  it('imports a ChatGPT export with progress and a summary; imported messages are found in Chinese and English; a thread exports as Markdown', async () => {
    const dir = tempDir()
    const file = bigExport(dir, 1500)
    const saved: string[] = []
    const { page, window } = await session.start({
      databasePath: join(dir, 'store.sqlite'),
      history: {
        pickImportFile: async () => file,
        pickExportFile: async (name) => {
          saved.push(join(dir, name))
          return join(dir, name)
        }
      }
    })

    await page.getByTestId('open-history').click()
    const dialog = page.getByTestId('history-dialog')
    await dialog.getByTestId('import-with-branches').check()
    await dialog.getByTestId('import-choose').click()
    // Progress while it runs: conversations and messages counted up.
    await dialog.getByTestId('import-progress').waitFor()
    await eventually(() => importedSoFar(dialog)).toBeGreaterThan(0)
    const summary = dialog.getByTestId('import-summary')
    await summary.waitFor({ timeout: 120_000 })
    expect(await summary.textContent()).toContain('Format: ChatGPT export')
    // 1,502 conversations and 302 branches (the fixture's two, every fifth synthetic one).
    expect(await dialog.getByTestId('import-summary-counts').textContent()).toContain(
      'Added 1804 conversations (302 of them branches)'
    )
    expect(
      await dialog
        .getByTestId('import-summary-skipped')
        .locator('[data-reason="system"]')
        .textContent()
    ).toMatch(/^1502 system prompts/)
    await dialog.getByTestId('history-close').click()

    // Full-text search finds imported messages at once, in both languages.
    const search = page.getByTestId('search-input')
    await search.fill('伏见稻荷')
    // The conversation and its two branches, each holding its own copy of that answer.
    await eventually(() => page.getByTestId('search-hit').count()).toBe(3)
    for (const hit of await page.getByTestId('search-hit').all())
      expect(await hit.textContent()).toContain('京都旅行 Kyoto trip')
    await search.fill('Kintetsu line')
    await eventually(() => page.getByTestId('search-hit').count()).toBe(1)
    await page.getByTestId('search-hit').click()

    // Export that thread as Markdown from its row.
    const row = page.locator('[data-testid="thread-item"][data-active="true"]')
    await row.hover()
    await row.getByTestId('thread-export').click()
    const exportDialog = page.getByTestId('history-dialog')
    await exportDialog.getByTestId('export-format-md').check()
    await exportDialog.getByTestId('export-save').click()
    await exportDialog.getByTestId('export-result').waitFor()
    expect(await exportDialog.getByTestId('export-result').textContent()).toContain(
      'Saved 1 conversation (4 messages)'
    )
    const markdown = readFileSync(saved[0] ?? '', 'utf8')
    expect(markdown).toMatch(/^# 京都旅行 Kyoto trip\n/)
    expect(markdown).toContain('## User · 2024-05-01 08:00 UTC\n\n帮我规划京都三日游 🏯')
    expect(markdown).toContain('## Assistant · 2024-05-01 08:01 UTC\n\nNara is 45 minutes')
    await window.screenshot(
      join(import.meta.dirname, '../../test-results/screenshots/history-export.png')
    )
    window.assertHealthy()
  })

  it('cancels a running import: the summary says so and what came in before stays', async () => {
    const dir = tempDir()
    const file = bigExport(dir, 4000)
    const { page, harness, window } = await session.start({
      databasePath: join(dir, 'store.sqlite'),
      history: { pickImportFile: async () => file }
    })
    await page.getByTestId('open-history').click()
    const dialog = page.getByTestId('history-dialog')
    await dialog.getByTestId('import-choose').click()
    await eventually(() => importedSoFar(dialog)).toBeGreaterThan(0)
    await dialog.getByTestId('import-cancel').click()
    const summary = dialog.getByTestId('import-summary')
    await summary.waitFor({ timeout: 60_000 })
    expect(await summary.textContent()).toContain('cancelled')
    const threads = harness.db.prepare('SELECT count(*) FROM threads').pluck().get() as number
    expect(threads).toBeGreaterThan(0)
    expect(threads).toBeLessThan(4002)
    // Every thread that came in is whole: the synthetic ones have six messages each.
    const partial = harness.db
      .prepare(
        `SELECT count(*) FROM threads t WHERE t.title LIKE 'Conversation %'
           AND (SELECT count(*) FROM messages WHERE thread_id = t.id) <> 6`
      )
      .pluck()
      .get()
    expect(partial).toBe(0)
    window.assertHealthy()
  })
})
