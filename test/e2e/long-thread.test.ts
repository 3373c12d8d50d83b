/**
 * A long thread in real Chromium (issue #16): it opens at its newest page, scrolling up loads
 * the page before it without moving what the reader looks at, and a search hit in a page not
 * loaded yet still lands on its message.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { useTempDir } from '../support/tempDir'
import { byTestId, isInView } from './harness/page'
import { eventually } from '../support/poll'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { chatUi } from './harness/ui'

const COUNT = 3_000
/** An early message, far outside the first pages, that a search finds. */
const NEEDLE_SEQ = 120

function seedLongThread(harness: Harness): { threadId: string; ids: number[] } {
  const thread = harness.services.threads.create('Three thousand messages')
  const repository = new MessageRepository(harness.db)
  const ids = harness.db.transaction(() =>
    Array.from(
      { length: COUNT },
      (_, i) =>
        repository.append({
          threadId: thread.id,
          role: i % 2 === 0 ? 'user' : 'assistant',
          content:
            i + 1 === NEEDLE_SEQ
              ? 'The zebrafinch colony nests by the river'
              : `Seeded message number ${i + 1}`,
          tokenCount: 6,
          createdAt: 1_700_000_000_000 + i
        }).id
    )
  )()
  return { threadId: thread.id, ids }
}

describe('a long thread, end to end in Chromium', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()

  it('opens at the newest page, loads older pages on scroll, and jumps to a search hit not loaded yet', async () => {
    let seeded = { threadId: '', ids: [] as number[] }
    const { page, window, harness } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      { seed: async (h) => (seeded = seedLongThread(h)) }
    )
    const app = chatUi(page)
    const { threadId, ids } = seeded
    const idOfSeq = (seq: number) => ids[seq - 1] as number
    const loadedCount = () =>
      page.locator('[role="listitem"][aria-setsize]').first().getAttribute('aria-setsize')

    await app.thread(threadId).click()
    await eventually(() => isInView(app.message(idOfSeq(COUNT)), app.messageList)).toBe(true)
    // Only the newest page came over: the list knows 100 messages, not 3,000.
    expect(await loadedCount()).toBe('100')
    expect(await page.getByTestId('chat-message-count').innerText()).toContain('3000')

    // Scrolling to the top of the page loads the page before it; the message that was at the
    // top stays where the reader left it.
    const topOfPage = app.message(idOfSeq(COUNT - 99))
    await app.messageList.evaluate((list) => (list.scrollTop = 0))
    await eventually(() => loadedCount()).toBe('600')
    await eventually(() => isInView(topOfPage, app.messageList)).toBe(true)
    const box = await topOfPage.boundingBox()
    const frame = await app.messageList.boundingBox()
    expect(box!.y - frame!.y).toBeLessThan(frame!.height / 2)

    // A search hit far above what is loaded: the list reaches back to it and shows it.
    await page.getByTestId('search-input').fill('zebrafinch')
    const hit = page.locator(
      byTestId('search-hit', { 'thread-id': threadId, 'message-id': idOfSeq(NEEDLE_SEQ) })
    )
    await hit.click()
    const needle = app.message(idOfSeq(NEEDLE_SEQ))
    await eventually(() => needle.getAttribute('data-highlighted')).toBe('true')
    await eventually(() => isInView(needle, app.messageList)).toBe(true)
    expect(await needle.innerText()).toContain('zebrafinch')

    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})
