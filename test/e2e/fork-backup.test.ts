/**
 * "Branch from here" and backup/restore, end to end: the built renderer in real Chromium over
 * the real registry, services and SQLite file (harness/server.ts). A restore closes the store,
 * swaps the file and opens it again, as the app's relaunch does; the page then reloads.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { eventually } from '../support/poll'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { activeThreadId, chatUi } from './harness/ui'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const tempDir = useTempDir()
const session = useChromiumSession()

const KYOTO = [
  'Help me plan a week in Kyoto in April.',
  'We land at Kansai airport on the 3rd.',
  'Booked the Sakura Lantern ryokan near Gion.'
]

async function seedKyoto(harness: Harness) {
  const thread = harness.services.threads.create('Kyoto trip')
  const ids: number[] = []
  for (const text of KYOTO) ids.push((await harness.services.chat.send(thread.id, text)).message.id)
  return { threadId: thread.id, ids }
}

describe('branch from here', () => {
  it('opens a new thread with the history up to the message, and shows where it came from', async () => {
    let seeded: Awaited<ReturnType<typeof seedKyoto>> | undefined
    const { page } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      { seed: async (harness) => (seeded = await seedKyoto(harness)) }
    )
    const { threadId, ids } = seeded!
    const app = chatUi(page)
    await app.thread(threadId).locator('.thread-item__main').click()
    await eventually(() => app.messages.count()).toBe(3)

    const second = app.message(ids[1]!)
    await second.hover()
    await second.getByTestId('message-fork').click()

    await eventually(() => activeThreadId(app)).not.toBe(threadId)
    const forkId = await activeThreadId(app)
    await eventually(() => app.messages.allInnerTexts()).toHaveLength(2)
    const texts = await app.messages.allInnerTexts()
    expect(texts[0]).toContain(KYOTO[0])
    expect(texts[1]).toContain(KYOTO[1])
    expect(texts.join('\n')).not.toContain('Sakura Lantern')

    const origin = app.thread(forkId).getByTestId('thread-fork-origin')
    await eventually(() => origin.innerText()).toContain('Branched from “Kyoto trip”')
    expect(await origin.innerText()).toContain(KYOTO[1])
    await page.screenshot({ path: join(SCREENSHOTS, 'fork-sidebar.png') })
    // The origin is untouched and one click away, opened at the fork point.
    await origin.click()
    await eventually(() => activeThreadId(app)).toBe(threadId)
    await eventually(() => app.messages.count()).toBe(3)
    await eventually(() => app.message(ids[1]!).getAttribute('data-highlighted')).toBe('true')

    // The same in Chinese.
    await app.languageSelect.selectOption('zh-CN')
    await eventually(() =>
      app.thread(forkId).getByTestId('thread-fork-origin').innerText()
    ).toContain('分支自“Kyoto trip”')
  })
})

describe('backup and restore from settings', () => {
  it('backs up, then restores that backup, keeping the current conversations aside', async () => {
    const { harness, page } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      { seed: seedKyoto }
    )
    await page.getByTestId('open-provider-settings').click()
    const section = page.getByTestId('backup-section')
    await section.getByTestId('backup-now').click()
    await eventually(() => section.getByTestId('backup-row').count()).toBe(1)
    await section.getByTestId('backup-restore').click()
    await section.getByTestId('backup-restore-confirm').waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'backup-settings.png') })
    await section.getByRole('button', { name: 'Cancel' }).click()
    expect(harness.published.some((p) => p.event === 'backup:progress')).toBe(true)

    // After the backup, another conversation.
    const later = harness.services.threads.create('Written after the backup')
    await harness.services.chat.send(later.id, 'This one is not in the backup.')
    await eventually(() => page.getByTestId('thread-title').allInnerTexts()).toContain(
      'Written after the backup'
    )

    await section.getByTestId('backup-restore').click()
    await section.getByTestId('backup-restore-confirm').click()
    await eventually(() => section.getByTestId('backup-restored').innerText()).toContain(
      'Restored 1 conversations (3 messages)'
    )
    // The page reloads on the reopened store: only what the backup held.
    await eventually(() => page.getByTestId('thread-title').allInnerTexts(), 20_000).toEqual([
      'Kyoto trip'
    ])
    const dir = dirname(harness.databasePath)
    const aside = readdirSync(dir).find((name) => name.includes('.before-restore-'))
    expect(aside).toBeDefined()
    const kept = new Database(join(dir, aside!), { readonly: true })
    expect(kept.prepare('SELECT title FROM threads ORDER BY title').all()).toEqual([
      { title: 'Kyoto trip' },
      { title: 'Written after the backup' }
    ])
    kept.close()
  })

  it('refuses a damaged file, says why, and changes nothing', async () => {
    const dir = tempDir()
    const damaged = join(dir, 'damaged.sqlite')
    writeFileSync(damaged, Buffer.alloc(64 * 1024, 0x5a))
    const { page } = await session.start(
      { databasePath: join(dir, 'store.sqlite'), pickRestoreFile: async () => damaged },
      { seed: seedKyoto }
    )
    await page.getByTestId('open-provider-settings').click()
    const section = page.getByTestId('backup-section')
    await section.getByTestId('backup-restore-file').click()
    await eventually(() => section.getByTestId('error-banner').innerText()).toContain(
      'Nothing was changed'
    )
    expect(existsSync(join(dir, 'store.sqlite.restore-candidate'))).toBe(false)
    expect(readdirSync(dir).some((name) => name.includes('.before-restore-'))).toBe(false)
    expect(await page.getByTestId('thread-title').allInnerTexts()).toEqual(['Kyoto trip'])
  })
})
