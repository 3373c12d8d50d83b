import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MessageList } from '@renderer/features/chat/MessageList'
import { HIGHLIGHT_MS, useChatStore } from '@renderer/features/chat/chatStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
})

const renderedIds = () =>
  screen.queryAllByTestId('message').map((message) => Number(message.dataset.messageId))

const longThread = (count: number) => {
  const thread = backend.addThread('Long')
  const messages = backend.addMessages(
    thread.id,
    Array.from({ length: count }, (_, index) => `Message number ${index + 1}`)
  )
  return { thread, messages }
}

describe('MessageList', () => {
  it('opens a 10,000-message thread at the bottom, rendering only the rows near the viewport', async () => {
    const { thread, messages } = longThread(10_000)
    await useChatStore.getState().open(thread.id)

    render(<MessageList />)

    await vi.waitFor(() => expect(renderedIds()).toContain(messages.at(-1)!.id))
    expect(renderedIds().length).toBeLessThan(40)
    expect(renderedIds()).not.toContain(messages[0]!.id)
  })

  it('scrolls to a message revealed from search and highlights it briefly', async () => {
    // Real time still flows (for the virtualizer), but the highlight's timer can be skipped ahead.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { thread, messages } = longThread(10_000)
    const target = messages[4_321]!
    useChatStore.getState().revealMessage(thread.id, target.id)
    await useChatStore.getState().open(thread.id)

    render(<MessageList />)

    const row = await screen.findByText('Message number 4322')
    const message = row.closest('[data-testid="message"]')
    expect(message).toHaveAttribute('data-message-id', String(target.id))
    expect(message).toHaveAttribute('data-highlighted', 'true')
    expect(renderedIds()).not.toContain(messages.at(-1)!.id)

    act(() => vi.advanceTimersByTime(HIGHLIGHT_MS))
    // Re-queried: loading the page above it may have re-rendered the row.
    await vi.waitFor(() =>
      expect(
        screen.getByText('Message number 4322').closest('[data-testid="message"]')
      ).toHaveAttribute('data-highlighted', 'false')
    )
  })

  it('brings a newly sent message into view', async () => {
    const { thread } = longThread(500)
    await useChatStore.getState().open(thread.id)
    render(<MessageList />)
    const scroller = screen.getByTestId('message-list')
    // Scrolling up page by page, as a reader would, until the first message is there.
    await vi.waitFor(
      () => {
        act(() => scroller.scrollTo({ top: 0 }))
        expect(screen.queryByText('Message number 1')).not.toBeNull()
      },
      { timeout: 10_000, interval: 100 }
    )

    await act(async () => {
      await useChatStore.getState().send('A brand new thought')
    })

    expect(await screen.findByText('A brand new thought')).toBeInTheDocument()
  })

  it('pins and excludes a message from its row, showing the state on the row', async () => {
    const thread = backend.addThread('Notes')
    const [message] = backend.addMessages(thread.id, ['my password is hunter2'])
    await useChatStore.getState().open(thread.id)
    const user = userEvent.setup()
    render(<MessageList />)
    const row = await screen.findByTestId('message')
    expect(row).toHaveAttribute('data-excluded', 'false')
    expect(row).not.toHaveTextContent('not sent')

    await user.click(within(row).getByTestId('message-exclude'))

    expect(row).toHaveAttribute('data-excluded', 'true')
    expect(row).toHaveTextContent('not sent')
    expect(within(row).getByTestId('message-exclude')).toHaveAttribute('aria-pressed', 'true')
    expect(backend.messagesOf(thread.id)[0]!.excluded).toBe(true)

    await user.click(within(row).getByTestId('message-pin'))
    await user.click(within(row).getByTestId('message-exclude'))

    expect(row).toHaveAttribute('data-pinned', 'true')
    expect(row).toHaveAttribute('data-excluded', 'false')
    expect(row).not.toHaveTextContent('not sent')
    expect(backend.messagesOf(thread.id)[0]).toMatchObject({
      id: message!.id,
      pinned: true,
      excluded: false
    })
  })
})
