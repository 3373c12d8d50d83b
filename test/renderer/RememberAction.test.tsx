import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ok } from '@shared/result'
import { MessageList } from '@renderer/features/chat/MessageList'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useMemoryViewStore } from '@renderer/features/memory/memoryViewStore'
import { REMEMBER_FEEDBACK_MS } from '@renderer/features/memory/rememberStore'
import { i18n } from '@renderer/i18n'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
})

/** A thread with one message, on screen; returns the message's row. */
const renderMessage = async (content: string) => {
  const thread = backend.addThread('Drinks')
  const [message] = backend.addMessages(thread.id, [content])
  await useChatStore.getState().open(thread.id)
  const user = userEvent.setup()
  render(<MessageList />)
  const row = await screen.findByTestId('message')
  return { user, row, message: message! }
}

const feedbackIn = (row: HTMLElement) => within(row).findByTestId('remember-feedback')

describe('Remember this', () => {
  it('turns a message into a memory and says so; the same text again is not duplicated', async () => {
    const { user, row, message } = await renderMessage('我喜欢喝乌龙茶，不加糖')

    await user.click(within(row).getByTestId('message-remember'))

    const created = await feedbackIn(row)
    await vi.waitFor(() => expect(created).toHaveAttribute('data-result', 'created'))
    expect(created).toHaveTextContent('Remembered')
    expect(backend.memories()).toMatchObject([
      {
        content: '我喜欢喝乌龙茶，不加糖',
        category: 'user_preference',
        sourceMessageId: message.id
      }
    ])

    await user.click(within(row).getByTestId('message-remember'))

    await vi.waitFor(() =>
      expect(within(row).getByTestId('remember-feedback')).toHaveAttribute(
        'data-result',
        'unchanged'
      )
    )
    expect(within(row).getByTestId('remember-feedback')).toHaveTextContent('Already remembered')
    expect(backend.memories()).toHaveLength(1)
  })

  it('says when a similar memory was updated instead', async () => {
    const { user, row } = await renderMessage('I like my tea without sugar.')
    const existing = await backend.main.memory.create({ content: 'No sugar in my tea.' })
    if (!existing.ok) throw new Error('seed failed')
    backend.api.messages.remember = async () =>
      ok({
        memory: { ...existing.data.memory, content: 'I like my tea without sugar.' },
        action: 'updated' as const,
        dedup: 'similar' as const,
        similarity: 0.95
      })

    await user.click(within(row).getByTestId('message-remember'))

    const feedback = await feedbackIn(row)
    await vi.waitFor(() => expect(feedback).toHaveAttribute('data-result', 'updatedSimilar'))
    expect(feedback).toHaveTextContent('Updated a similar memory')
    expect(feedback).toHaveAttribute('data-memory-id', String(existing.data.memory.id))
  })

  it('explains a failure next to the message', async () => {
    const { user, row } = await renderMessage('Gone soon')
    backend.failNext('messages:remember', {
      code: 'not_found',
      message: 'This message no longer exists.'
    })

    await user.click(within(row).getByTestId('message-remember'))

    const feedback = await feedbackIn(row)
    await vi.waitFor(() => expect(feedback).toHaveAttribute('data-result', 'failed'))
    expect(feedback).toHaveTextContent('Not remembered: This message no longer exists.')
  })

  it('shows "Remembering…" while main works, then the outcome, for a while', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { user, row } = await renderMessage('Hold on')
    const release = backend.hold('messages:remember')

    await user.click(within(row).getByTestId('message-remember'))

    expect(await feedbackIn(row)).toHaveTextContent('Remembering…')
    expect(within(row).getByTestId('message-remember')).toBeDisabled()
    release()
    await vi.waitFor(() =>
      expect(within(row).getByTestId('remember-feedback')).toHaveTextContent('Remembered')
    )
    act(() => vi.advanceTimersByTime(REMEMBER_FEEDBACK_MS))
    expect(within(row).queryByTestId('remember-feedback')).toBeNull()
  })

  it('opens the new memory in the memory manager from the note', async () => {
    const { user, row } = await renderMessage('Remember me')
    await user.click(within(row).getByTestId('message-remember'))
    const feedback = await feedbackIn(row)
    await vi.waitFor(() => expect(feedback).toHaveAttribute('data-result', 'created'))

    await user.click(feedback)

    expect(useMemoryViewStore.getState()).toMatchObject({
      open: true,
      focusId: Number(feedback.dataset.memoryId)
    })
  })

  it('speaks Chinese', async () => {
    const { user, row } = await renderMessage('记住这个')
    await act(() => i18n.changeLanguage('zh-CN'))

    expect(within(row).getByTestId('message-remember')).toHaveAccessibleName('记住这条')
    await user.click(within(row).getByTestId('message-remember'))

    const feedback = await feedbackIn(row)
    await vi.waitFor(() => expect(feedback).toHaveTextContent('已记住'))
  })
})
