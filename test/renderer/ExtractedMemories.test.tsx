import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MessageList } from '@renderer/features/chat/MessageList'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useExtractedStore } from '@renderer/features/memory/extractedStore'
import { useMemoryViewStore } from '@renderer/features/memory/memoryViewStore'
import { i18n } from '@renderer/i18n'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'

let backend: FakeBackend
let unwatch: () => void

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
  useExtractedStore.setState({ byMessage: {} })
  unwatch = useExtractedStore.getState().watch()
  return () => unwatch()
})

/** A thread with one user message on screen, and the memory extraction kept from it. */
const renderExtracted = async (content: string, memory: string) => {
  const thread = backend.addThread('Coffee')
  const [message] = backend.addMessages(thread.id, [content])
  const created = await backend.main.memory.create({
    content: memory,
    category: 'user_preference',
    sourceMessageId: message!.id
  })
  if (!created.ok) throw new Error(created.error.message)
  await useChatStore.getState().open(thread.id)
  const user = userEvent.setup()
  render(<MessageList />)
  const row = await screen.findByTestId('message')
  act(() =>
    backend.emit('memory:extracted', {
      threadId: thread.id,
      messageId: message!.id,
      changes: [created.data]
    })
  )
  return { user, row, memoryId: created.data.memory.id }
}

describe('memories the assistant kept on its own', () => {
  it('shows what was remembered under the message, and forgets and restores it', async () => {
    const { user, row, memoryId } = await renderExtracted(
      'I only take oat milk in my coffee.',
      'The user takes oat milk in their coffee.'
    )
    const note = await within(row).findByTestId('extracted-memory')
    expect(note).toHaveTextContent('Remembered: The user takes oat milk in their coffee.')

    await user.click(within(note).getByTestId('extracted-memory-forget'))
    await vi.waitFor(() => expect(note).toHaveAttribute('data-forgotten', 'true'))
    expect(note).toHaveTextContent('Forgotten:')
    expect(backend.memoryOf(memoryId)).toBeUndefined()

    await user.click(within(note).getByTestId('extracted-memory-undo'))
    await vi.waitFor(() => expect(note).toHaveAttribute('data-forgotten', 'false'))
    expect(backend.memoryOf(memoryId)?.content).toBe('The user takes oat milk in their coffee.')
  })

  it('follows an edit or a delete made in the memory manager', async () => {
    const { row, memoryId } = await renderExtracted(
      'Call me Sam.',
      'The user wants to be called Sam.'
    )
    const note = await within(row).findByTestId('extracted-memory')

    await backend.main.memory.update({ id: memoryId, content: 'The user goes by Sam.' })
    await vi.waitFor(() => expect(note).toHaveTextContent('Remembered: The user goes by Sam.'))

    await backend.main.memory.delete({ id: memoryId })
    await vi.waitFor(() => expect(note).toHaveAttribute('data-forgotten', 'true'))
    expect(within(note).getByTestId('extracted-memory-undo')).toBeInTheDocument()
  })

  it('opens the memory in the manager, in Chinese too', async () => {
    const { user, row, memoryId } = await renderExtracted(
      '我喝咖啡只加燕麦奶。',
      '用户喝咖啡只加燕麦奶。'
    )
    await act(() => i18n.changeLanguage('zh-CN'))
    try {
      const note = await within(row).findByTestId('extracted-memory')
      expect(note).toHaveTextContent('已记住： 用户喝咖啡只加燕麦奶。')
      expect(within(note).getByTestId('extracted-memory-forget')).toHaveTextContent('忘记')
      await user.click(within(note).getByText('用户喝咖啡只加燕麦奶。'))
      expect(useMemoryViewStore.getState()).toMatchObject({ open: true, focusId: memoryId })
    } finally {
      await act(() => i18n.changeLanguage('en'))
    }
  })
})
