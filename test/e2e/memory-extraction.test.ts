/**
 * Automatic memory extraction, end to end: the built renderer in real Chromium, a provider
 * configured through the settings dialog and answered by the scripted server over real HTTP,
 * the real embedding model and indexing, real SQLite. After a turn the app asks the thread's
 * model for durable preferences in the user's message (the scripted `extraction` answer), saves
 * them, and says so under that message; a new thread recalls them, Forget and Undo work from
 * the note (also for a memory already deleted in the manager), and the switch in the memory
 * manager stops the extra request.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import { animationsDone, byTestId } from './harness/page'
import { eventually } from '../support/poll'
import { configureProvider, scriptedProviderForm } from './harness/providerForm'
import { useScriptedProvider } from './harness/scripted'
import type { Harness } from './harness/server'
import { useChromiumSession } from './harness/session'
import { activeThreadId, chatUi, memoryUi } from './harness/ui'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')
const KEY = 'sk-e2e-Extraction-Key-31'
const MODEL = { id: 'scripted-model', contextWindow: 32_000, maxOutput: 1_000 }
const HAN = /\p{Script=Han}/u

/** A note's visible text on one line (label, content and action are separate boxes). */
const lineOf = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim()

/** The scripted model's answer to an extraction request. */
const extractionAnswer = (content: string, category: 'user_preference' | 'fact') => ({
  type: 'reply' as const,
  chunks: [JSON.stringify({ memories: [{ content, category }] })]
})

// What the user says, and what the (scripted) model extracts from it.
const OAT_MESSAGE = '我喝咖啡只加燕麦奶，不要给我推荐加牛奶的。'
const OAT_MEMORY = '用户喝咖啡只加燕麦奶。'
const TS_MESSAGE = 'Whenever you show me code, please write it in TypeScript.'
const TS_MEMORY = 'The user wants code examples in TypeScript.'
// Questions checked against the real model (bge-small-zh-v1.5). The Chinese one shares 咖啡
// with the memory, but full-text search does not match it (Chinese is not split into words
// there): it is recalled by the vector alone. The English one shares no word with its memory:
// asking for code is related to "code examples in TypeScript" only by meaning.
const OAT_QUESTION = '推荐一款咖啡饮品'
const OAT_QUESTION_AGAIN = '推荐一款适合早上的咖啡饮品'
const TS_QUESTION = 'Write a function that sorts a list'

function ui(page: Page) {
  const panel = page.getByTestId('inspector-panel')
  const manager = page.getByTestId('memory-manager')
  return {
    ...chatUi(page),
    ...memoryUi(page),
    newThread: page.getByTestId('new-thread').first(),
    userMessages: page.locator(byTestId('message', { role: 'user' })),
    replies: page.locator(byTestId('message', { role: 'assistant' })),
    streaming: page.getByTestId('streaming-reply'),
    tab: (name: 'items' | 'settings' | 'history') => panel.getByTestId(`tab-${name}`),
    payloadToggle: panel.getByTestId('payload-toggle'),
    payloadMessages: panel.getByTestId('payload-message'),
    closeManager: manager.getByTestId('memory-close'),
    autoExtract: manager.getByTestId('memory-auto-extract')
  }
}
type Ui = ReturnType<typeof ui>

describe('automatic memory extraction, end to end in Chromium with the real model', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()
  const { open } = session
  const scripted = useScriptedProvider({ requiredKey: KEY })

  async function start() {
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite'),
      embeddings: true
    })
    const app = ui(page)
    await eventually(() => app.status.getAttribute('data-state'), 60_000).toBe('ready')
    await eventually(() => harness.eventClientCount()).toBeGreaterThan(0)
    return { harness, window, app, page }
  }

  /**
   * Sends `text` and waits for the whole turn: the reply stored and shown, and any extraction
   * the turn started finished in main. Returns the user message's and the reply's ids.
   */
  async function turn(harness: Harness, app: Ui, text: string, reply: string) {
    scripted().enqueue({ type: 'reply', chunks: [reply] })
    const replies = await app.replies.count()
    await app.composer.fill(text)
    await app.composer.press('Enter')
    await eventually(() => app.replies.count()).toBe(replies + 1)
    await app.streaming.waitFor({ state: 'detached' })
    await app.sendButton.waitFor()
    const replyMessage = app.replies.last()
    await eventually(() => replyMessage.innerText()).toContain(reply)
    const userMessage = app.userMessages.last()
    expect(await userMessage.innerText()).toContain(text)
    await harness.services.chat.settled()
    await harness.services.memoryExtraction.settled()
    const userId = await userMessage.getAttribute('data-message-id')
    const replyId = await replyMessage.getAttribute('data-message-id')
    if (!userId || !replyId) throw new Error('A message element has no data-message-id')
    return { userId, replyId }
  }

  /** Everything queued is embedded, and the sidebar's status line says so. */
  async function indexed(harness: Harness, app: Ui) {
    await harness.services.memoryIndexer.drained()
    await eventually(() => app.status.getAttribute('data-pending')).toBe('0')
  }

  /** The memory `memoryId` is recalled for `draft` in the live preview. */
  async function expectRetrieved(app: Ui, draft: string, memoryId: string, content: string) {
    await app.composer.fill(draft)
    const item = app.retrieved(`memory:${memoryId}`)
    await item.waitFor()
    await eventually(() => item.getAttribute('data-decision')).toBe('included')
    expect(await item.innerText()).toContain(content)
    return item
  }

  /**
   * The preview of `draft` (its payload ends with exactly that input, so it is the preview of
   * this draft, asked for after everything before) does not recall `memoryId` anywhere.
   */
  async function expectNotRetrieved(app: Ui, draft: string, memoryId: string, content: string) {
    await app.composer.fill(draft)
    await app.payloadToggle.click()
    await eventually(() => app.payloadMessages.last().locator('pre').first().textContent()).toBe(
      draft
    )
    const payload = await app.payloadMessages.allInnerTexts()
    expect(payload.join('\n')).not.toContain(content)
    await app.tab('items').click()
    await app.panel.locator(byTestId('trace-item', { kind: 'input' })).waitFor()
    expect(await app.retrieved(`memory:${memoryId}`).count()).toBe(0)
  }

  function expectHealthy() {
    open.window?.assertHealthy()
    expect(open.harness?.unexpectedErrors).toEqual([])
  }

  it('notes preferences under the message, recalls them in a new thread, forgets, undoes and can be switched off', async () => {
    const server = scripted()
    const { harness, window, app, page } = await start()

    await app.newThread.click()
    await app.composer.waitFor()
    const threadA = await activeThreadId(app)
    await configureProvider(page, scriptedProviderForm(server.v1, KEY, MODEL))

    // --- Thread A, a preference in Chinese: extracted, saved and shown under the message -----
    server.extraction = extractionAnswer(OAT_MEMORY, 'user_preference')
    const oat = await turn(harness, app, OAT_MESSAGE, '好的，记住了。')
    // Exactly one extraction request for the turn; it carries the user's words.
    expect(server.extractions()).toHaveLength(1)
    expect(JSON.stringify(server.extractions()[0]!.body)).toContain(OAT_MESSAGE)
    expect(server.completions()).toHaveLength(1)

    const oatNote = app.message(oat.userId).getByTestId('extracted-memory')
    await oatNote.waitFor()
    await eventually(() => lineOf(oatNote)).toContain(`Remembered: ${OAT_MEMORY}`)
    // The note belongs to the user's message, never to the reply.
    expect(await app.message(oat.replyId).getByTestId('extracted-memories').count()).toBe(0)
    const oatId = await oatNote.getAttribute('data-memory-id')
    if (!oatId) throw new Error('The extracted note has no data-memory-id')
    expect(await oatNote.getAttribute('data-forgotten')).toBe('false')

    // Stored as an extracted memory whose source is the user's message.
    const origin = harness.services.memory.origin(Number(oatId))
    expect(origin.memory).toMatchObject({ content: OAT_MEMORY, category: 'user_preference' })
    expect(origin.source).toMatchObject({ threadId: threadA, messageId: Number(oat.userId) })
    expect(origin.history.map((entry) => [entry.action, entry.reason])).toEqual([
      ['create', 'extraction']
    ])

    // --- A second preference, in English ------------------------------------------------------
    server.extraction = extractionAnswer(TS_MEMORY, 'user_preference')
    const ts = await turn(harness, app, TS_MESSAGE, 'Sure, TypeScript it is.')
    expect(server.extractions()).toHaveLength(2)
    expect(JSON.stringify(server.extractions()[1]!.body)).toContain(TS_MESSAGE)
    const tsNote = app.message(ts.userId).getByTestId('extracted-memory')
    await eventually(() => lineOf(tsNote)).toContain(`Remembered: ${TS_MEMORY}`)
    expect(await app.message(ts.replyId).getByTestId('extracted-memories').count()).toBe(0)
    const tsId = await tsNote.getAttribute('data-memory-id')
    if (!tsId) throw new Error('The extracted note has no data-memory-id')
    // Each note stays with its own message.
    expect(await app.message(oat.userId).getByTestId('extracted-memory').count()).toBe(1)
    expect(harness.services.memory.list({}).total).toBe(2)
    window.assertHealthy()
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'memory-extraction-en.png'))

    // The same notes in Chinese.
    await app.languageSelect.selectOption('zh-CN')
    await eventually(() => lineOf(oatNote)).toContain(`已记住： ${OAT_MEMORY}`)
    expect(await oatNote.getByTestId('extracted-memory-forget').innerText()).toMatch(HAN)
    await animationsDone(page)
    await window.screenshot(join(SCREENSHOTS, 'memory-extraction-zh-CN.png'))
    await app.languageSelect.selectOption('en')
    await eventually(() => lineOf(oatNote)).toContain('Remembered:')

    // The note's content opens the memory in the manager.
    await oatNote.getByRole('button', { name: OAT_MEMORY }).click()
    await app.manager.waitFor()
    const oatRow = app.memoryItem(oatId)
    await eventually(() => oatRow.getAttribute('data-highlighted')).toBe('true')
    expect(await oatRow.innerText()).toContain(OAT_MEMORY)
    await app.closeManager.click()
    await app.manager.waitFor({ state: 'detached' })

    // --- Thread B, new and empty: related questions recall both memories ---------------------
    await indexed(harness, app)
    await app.newThread.click()
    await eventually(() => activeThreadId(app)).not.toBe(threadA)
    const threadB = await activeThreadId(app)
    await expectRetrieved(app, OAT_QUESTION, oatId, OAT_MEMORY)
    await expectRetrieved(app, TS_QUESTION, tsId, TS_MEMORY)

    // --- Forget from the note: gone from the manager and from the next preview ----------------
    await app.thread(threadA).click()
    await app.message(oat.userId).waitFor()
    await oatNote.getByTestId('extracted-memory-forget').click()
    await eventually(() => oatNote.getAttribute('data-forgotten')).toBe('true')
    expect(await lineOf(oatNote)).toContain(`Forgotten: ${OAT_MEMORY}`)
    expect(harness.services.memory.list({}).items.map((m) => String(m.id))).toEqual([tsId])

    await app.openMemory.click()
    await app.manager.waitFor()
    await app.memoryItem(tsId).waitFor()
    expect(await app.memoryItem(oatId).count()).toBe(0)
    await app.closeManager.click()
    await app.manager.waitFor({ state: 'detached' })

    await app.thread(threadB).click()
    await eventually(() => activeThreadId(app)).toBe(threadB)
    await expectNotRetrieved(app, OAT_QUESTION_AGAIN, oatId, OAT_MEMORY)

    // --- Undo brings it back, in the note, the manager and recall ------------------------------
    await app.thread(threadA).click()
    await app.message(oat.userId).waitFor()
    await oatNote.getByTestId('extracted-memory-undo').click()
    await eventually(() => oatNote.getAttribute('data-forgotten')).toBe('false')
    await eventually(() => lineOf(oatNote)).toContain(`Remembered: ${OAT_MEMORY}`)
    await oatNote.getByTestId('extracted-memory-forget').waitFor()
    expect(harness.services.memory.list({}).total).toBe(2)
    await app.openMemory.click()
    await app.manager.waitFor()
    await app.memoryItem(oatId).waitFor()
    await app.closeManager.click()
    await app.manager.waitFor({ state: 'detached' })
    await indexed(harness, app)
    await app.thread(threadB).click()
    await eventually(() => activeThreadId(app)).toBe(threadB)
    await expectRetrieved(app, OAT_QUESTION, oatId, OAT_MEMORY)
    await app.composer.fill('')
    window.assertHealthy()

    // --- Switched off in the manager's model settings: no extraction request ----------------
    await app.openMemory.click()
    await app.manager.waitFor()
    await app.statusPanel.locator('summary').click()
    await app.autoExtract.waitFor()
    expect(await app.autoExtract.isChecked()).toBe(true)
    // The box is controlled by the saved settings: it flips once main has stored the change.
    await app.autoExtract.click()
    await eventually(() => app.autoExtract.isChecked()).toBe(false)
    await eventually(() => app.statusPanel.getByRole('status').innerText()).toBe('Saved.')
    expect(harness.services.memoryModel.settings().autoExtract).toBe(false)
    await app.closeManager.click()
    await app.manager.waitFor({ state: 'detached' })

    // Even with an answer that would be saved, nothing is asked and nothing appears.
    server.extraction = extractionAnswer('用户住在上海。', 'fact')
    const extractionsBefore = server.extractions().length
    const completionsBefore = server.completions().length
    const off = await turn(harness, app, '我住在上海，周末想找家咖啡馆。', '好的。')
    expect(server.completions()).toHaveLength(completionsBefore + 1)
    expect(server.extractions()).toHaveLength(extractionsBefore)
    expect(await app.message(off.userId).getByTestId('extracted-memories').count()).toBe(0)
    expect(harness.services.memory.list({}).total).toBe(2)

    // --- Deleted in the manager: its note follows (forgotten), and Undo still works ----------
    await app.openMemory.click()
    await app.manager.waitFor()
    await app.memoryItem(tsId).getByTestId('memory-delete').click()
    await eventually(() => app.memoryItem(tsId).count()).toBe(0)
    await app.closeManager.click()
    await app.manager.waitFor({ state: 'detached' })
    await app.thread(threadA).click()
    await app.message(ts.userId).waitFor()
    await eventually(() => tsNote.getAttribute('data-forgotten')).toBe('true')
    expect(await lineOf(tsNote)).toBe(`Forgotten: ${TS_MEMORY} Undo`)
    expect(await tsNote.getByRole('alert').count()).toBe(0)
    await tsNote.getByTestId('extracted-memory-undo').click()
    await eventually(() => tsNote.getAttribute('data-forgotten')).toBe('false')
    expect(harness.services.memory.list({}).items.map((m) => String(m.id))).toContain(tsId)
    expectHealthy()
  })
})
