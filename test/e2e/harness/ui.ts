import type { Locator, Page } from 'playwright-core'
import { byTestId } from './page'

// The app's stable test ids as locators, for the parts several UI-level e2e files look at.

/** The thread list, the messages and the composer. */
export function chatUi(page: Page) {
  return {
    thread: (id: string) => page.locator(byTestId('thread-item', { 'thread-id': id })),
    activeThread: page.locator(byTestId('thread-item', { active: 'true' })),
    messages: page.getByTestId('message'),
    message: (id: string | number) => page.locator(byTestId('message', { 'message-id': id })),
    messageList: page.getByTestId('message-list'),
    composer: page.getByTestId('composer-input'),
    sendButton: page.getByTestId('send-button'),
    languageSelect: page.getByTestId('language-select')
  }
}

/** The memory status line, the memory manager and recalled items in the inspector. */
export function memoryUi(page: Page) {
  const panel = page.getByTestId('inspector-panel')
  const manager = page.getByTestId('memory-manager')
  return {
    status: page.getByTestId('memory-status'),
    openMemory: page.getByTestId('open-memory'),
    panel,
    retrieved: (id: string) => panel.locator(byTestId('trace-item', { section: 'retrieved', id })),
    manager,
    memoryItem: (id: string) => manager.locator(byTestId('memory-item', { 'memory-id': id })),
    statusPanel: manager.getByTestId('memory-status-panel')
  }
}

/** The id of the thread the sidebar marks active. */
export async function activeThreadId(app: { activeThread: Locator }): Promise<string> {
  await app.activeThread.waitFor()
  const id = await app.activeThread.getAttribute('data-thread-id')
  if (!id) throw new Error('The active thread item has no data-thread-id')
  return id
}

/** The id of the newest message on screen, or null for an empty thread. */
export async function lastMessageId(app: { messages: Locator }): Promise<string | null> {
  return (await app.messages.count()) === 0
    ? null
    : app.messages.last().getAttribute('data-message-id')
}
