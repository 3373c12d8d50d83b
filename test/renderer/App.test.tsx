import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { App } from '@renderer/App'
import { i18n } from '@renderer/i18n'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'
import type { ProviderInput } from '@shared/providers'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
})

const renderApp = async () => {
  await useSettingsStore.getState().load()
  const user = userEvent.setup()
  render(<App />)
  return user
}

const openThread = async (user: ReturnType<typeof userEvent.setup>, title: string) => {
  const titleElement = await screen.findByText(title, { selector: '[data-testid="thread-title"]' })
  await user.click(titleElement)
  return screen.findByTestId('composer-input')
}

describe('start-up', () => {
  it('says where a damaged database was kept after the user chose to start over', async () => {
    backend.recoveredFromBackup = '/home/me/.config/context-lens/context-lens.sqlite.corrupt-2026'
    const user = await renderApp()
    const notice = await screen.findByTestId('recovery-notice')
    expect(notice).toHaveTextContent('Your previous database was damaged.')
    expect(notice).toHaveTextContent('context-lens.sqlite.corrupt-2026')
    await user.click(within(notice).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByTestId('recovery-notice')).toBeNull()
  })

  it('lists what salvage recovered and what it could not read, in English and Chinese', async () => {
    backend.recoveredFromBackup = '/data/context-lens.sqlite.corrupt-2026'
    backend.salvage = {
      headerRepaired: false,
      schemaReadable: true,
      threadsRecreated: 0,
      tables: [
        { table: 'threads', copied: 3, unreadable: 0, invalid: 0, unknownLoss: false },
        { table: 'messages', copied: 152, unreadable: 28, invalid: 0, unknownLoss: false },
        { table: 'memories', copied: 1, unreadable: 0, invalid: 0, unknownLoss: false },
        { table: 'memory_history', copied: 0, unreadable: 0, invalid: 0, unknownLoss: true }
      ]
    }
    await renderApp()
    expect(await screen.findByTestId('recovery-copied')).toHaveTextContent(
      'Recovered: 3 conversations, 152 messages, 1 memory.'
    )
    expect(screen.getByTestId('recovery-lost')).toHaveTextContent('Could not be read: 28 messages.')
    expect(screen.getByTestId('recovery-unknown')).toHaveTextContent(
      'How many memory history entries were lost is unknown'
    )
    await act(() => i18n.changeLanguage('zh-CN'))
    try {
      expect(screen.getByTestId('recovery-lost')).toHaveTextContent('无法读取：28 条消息。')
    } finally {
      await act(() => i18n.changeLanguage('en'))
    }
  })

  it("says the disk is full in the user's language and keeps the unsent text", async () => {
    backend.addThread('Questions')
    backend.failNext('messages:send', { code: 'storage_full', message: 'SQLITE_FULL' })
    const user = await renderApp()
    const input = await openThread(user, 'Questions')
    await user.type(input, 'Keep this{Enter}')
    expect(await screen.findByTestId('error-banner')).toHaveTextContent(
      'Not sent: The disk is full, so this was not saved.'
    )
    expect(input).toHaveValue('Keep this')

    await act(() => i18n.changeLanguage('zh-CN'))
    try {
      backend.failNext('messages:send', { code: 'storage_full', message: 'SQLITE_FULL' })
      await user.type(input, '{Enter}')
      await vi.waitFor(() =>
        expect(screen.getByTestId('error-banner')).toHaveTextContent('磁盘已满，因此未能保存。')
      )
      expect(input).toHaveValue('Keep this')
    } finally {
      await act(() => i18n.changeLanguage('en'))
    }
  })

  it('shows no notice after a normal start', async () => {
    await renderApp()
    await screen.findAllByTestId('new-thread')
    expect(screen.queryByTestId('recovery-notice')).toBeNull()
  })
})

/** A saved provider with one model: past the welcome. */
const savedProvider = (): ProviderInput => ({
  kind: 'openai-compatible',
  name: 'Local',
  baseUrl: 'http://127.0.0.1:9/v1',
  models: [{ id: 'm1', contextWindow: 8192, maxOutput: 1024 }]
})

describe('chat window', () => {
  it('opens an empty store on the welcome, whose button opens the settings', async () => {
    const user = await renderApp()

    const welcome = await screen.findByTestId('welcome')
    expect(within(welcome).getByRole('heading')).toHaveTextContent('Welcome to Context Lens')
    await user.click(within(welcome).getByRole('button', { name: 'Add a model provider' }))
    const settings = await screen.findByTestId('provider-settings')
    expect(within(settings).getByTestId('provider-kind')).toHaveValue('openai-compatible')
  })

  it('invites you to create a thread when none is open, then shows the empty thread', async () => {
    backend.addProvider(savedProvider())
    const user = await renderApp()

    expect(await screen.findByText('Start a conversation')).toBeInTheDocument()
    expect(screen.queryByTestId('composer-input')).toBeNull()

    await user.click(within(screen.getByRole('main')).getByRole('button', { name: 'New thread' }))

    expect(await screen.findByText('Nothing here yet')).toBeInTheDocument()
    expect(screen.getByTestId('chat-title')).toHaveTextContent('New conversation')
    expect(screen.getByTestId('composer-input')).toHaveFocus()
  })

  it('shows a sent message and says plainly that no model will answer', async () => {
    backend.addThread('Questions')
    const user = await renderApp()
    const input = await openThread(user, 'Questions')

    await user.type(input, 'What is **context**?{Enter}')

    const message = await screen.findByTestId('message')
    expect(message).toHaveAttribute('data-role', 'user')
    expect(within(message).getByText('context').tagName).toBe('STRONG')
    expect(screen.getByTestId('notice-no-model')).toHaveTextContent(
      'No model provider is configured yet.'
    )
    expect(screen.getAllByTestId('message')).toHaveLength(1)
    expect(screen.queryByText('Assistant')).toBeNull()
  })

  it('keeps the text and shows the error when sending fails', async () => {
    backend.addThread('Questions')
    backend.failNext('messages:send', { code: 'storage_error', message: 'Disk is full' })
    const user = await renderApp()
    const input = await openThread(user, 'Questions')

    await user.type(input, 'Keep this{Enter}')

    expect(await screen.findByTestId('error-banner')).toHaveTextContent('Not sent: Disk is full')
    expect(input).toHaveValue('Keep this')
    // Nothing was saved: the notice speaks of what will happen, not of a saved message.
    expect(screen.getByTestId('notice-no-model')).toHaveTextContent(
      'Messages are saved, but nothing replies until a model provider is added in Settings.'
    )
    expect(screen.queryByTestId('message')).toBeNull()
  })

  it('shows the thread title in the header and the window title, following renames', async () => {
    const thread = backend.addThread('Draft')
    const user = await renderApp()
    await openThread(user, 'Draft')
    expect(screen.getByTestId('chat-title')).toHaveTextContent('Draft')
    expect(document.title).toBe('Draft · Context Lens')

    const item = screen
      .getAllByTestId('thread-item')
      .find((element) => element.dataset.threadId === thread.id)!
    await user.click(within(item).getByTestId('thread-rename'))
    await user.clear(screen.getByTestId('thread-title-input'))
    await user.type(screen.getByTestId('thread-title-input'), 'Final{Enter}')

    expect(screen.getByTestId('chat-title')).toHaveTextContent('Final')
    expect(document.title).toBe('Final · Context Lens')
  })

  it('opens the thread of a message found by search and highlights the message', async () => {
    backend.addThread('Elsewhere')
    const thread = backend.addThread('Recipes')
    const [, target] = backend.addMessages(thread.id, ['Buy flour', 'Knead the dough gently'])
    const user = await renderApp()
    await openThread(user, 'Elsewhere')

    await user.type(screen.getByTestId('search-input'), 'dough')
    await user.click(await screen.findByTestId('search-hit'))

    expect(screen.getByTestId('chat-title')).toHaveTextContent('Recipes')
    const list = await screen.findByTestId('message-list')
    const message = await within(list).findByText('Knead the dough gently')
    const article = message.closest('[data-testid="message"]')
    expect(article).toHaveAttribute('data-message-id', String(target!.id))
    expect(article).toHaveAttribute('data-highlighted', 'true')
  })

  it('collapses and reopens the inspector, remembering the choice', async () => {
    const user = await renderApp()
    expect(screen.getByTestId('inspector-panel')).toHaveTextContent('No thread open')

    await user.click(screen.getByTestId('inspector-toggle'))

    expect(screen.queryByTestId('inspector-panel')).toBeNull()
    expect(screen.getByTestId('inspector-toggle')).toHaveAttribute('aria-pressed', 'false')
    expect(backend.settings.inspectorOpen).toBe(false)

    await user.click(screen.getByTestId('inspector-toggle'))

    expect(screen.getByTestId('inspector-panel')).toBeInTheDocument()
    expect(backend.settings.inspectorOpen).toBe(true)
  })
})
