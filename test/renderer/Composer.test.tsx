import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Composer } from '@renderer/features/chat/Composer'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend
let threadId: string

beforeEach(async () => {
  backend = await installFakeBackend()
  threadId = backend.addThread('Notes').id
  await useChatStore.getState().open(threadId)
})

const sentContents = () =>
  backend.calls
    .filter((call) => call.channel === 'messages:send')
    .map((call) => (call.input as { content: string }).content)

const renderComposer = () => {
  render(<Composer threadId={threadId} />)
  return screen.getByTestId('composer-input') as HTMLTextAreaElement
}

describe('Composer', () => {
  it('sends on Enter and empties the box once the message is stored', async () => {
    const user = userEvent.setup()
    const input = renderComposer()

    await user.type(input, 'Hello there{Enter}')

    expect(sentContents()).toEqual(['Hello there'])
    await vi.waitFor(() => expect(input).toHaveValue(''))
    expect(backend.messagesOf(threadId).map((message) => message.content)).toEqual(['Hello there'])
  })

  it('sends with the send button too', async () => {
    const user = userEvent.setup()
    const input = renderComposer()

    await user.type(input, 'via button')
    await user.click(screen.getByTestId('send-button'))

    expect(sentContents()).toEqual(['via button'])
  })

  it('inserts a line break on Shift+Enter instead of sending', async () => {
    const user = userEvent.setup()
    const input = renderComposer()

    await user.type(input, 'line one{Shift>}{Enter}{/Shift}line two')

    expect(input).toHaveValue('line one\nline two')
    expect(sentContents()).toEqual([])
  })

  describe('while an input method is composing, Enter does not send', () => {
    it('when the event says it is composing', () => {
      const input = renderComposer()
      fireEvent.change(input, { target: { value: 'nihao' } })

      fireEvent.keyDown(input, { key: 'Enter', isComposing: true })

      expect(sentContents()).toEqual([])
      expect(input).toHaveValue('nihao')
    })

    it('when the key is the IME process key (229)', () => {
      const input = renderComposer()
      fireEvent.change(input, { target: { value: 'nihao' } })

      fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 })

      expect(sentContents()).toEqual([])
    })

    it('between compositionstart and compositionend, and sends normally afterwards', async () => {
      const input = renderComposer()
      fireEvent.compositionStart(input)
      fireEvent.change(input, { target: { value: '你好' } })

      fireEvent.keyDown(input, { key: 'Enter' })
      expect(sentContents()).toEqual([])

      fireEvent.compositionEnd(input)
      fireEvent.keyDown(input, { key: 'Enter' })
      await screen.findByDisplayValue('')
      expect(sentContents()).toEqual(['你好'])
    })
  })

  it('does not send empty or whitespace-only text, and disables the button', async () => {
    const user = userEvent.setup()
    const input = renderComposer()
    expect(screen.getByTestId('send-button')).toBeDisabled()

    await user.type(input, '   {Enter}')

    expect(sentContents()).toEqual([])
    expect(screen.getByTestId('send-button')).toBeDisabled()
  })

  it('keeps the text when sending fails', async () => {
    const user = userEvent.setup()
    backend.failNext('messages:send', { code: 'storage_error', message: 'Disk is full' })
    const input = renderComposer()

    await user.type(input, 'important thought{Enter}')

    expect(sentContents()).toEqual(['important thought'])
    expect(input).toHaveValue('important thought')
    expect(useChatStore.getState().sendError).toBe('Disk is full')
  })
})
