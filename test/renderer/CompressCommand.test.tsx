import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '@renderer/i18n'
import { Composer } from '@renderer/features/chat/Composer'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { looksLikeCommand, parseCompressCommand } from '@renderer/features/chat/compressCommand'
import { useCompressStore } from '@renderer/features/chat/compressStore'
import type { ThreadSummaryView } from '@shared/domain'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend
let threadId: string

beforeEach(async () => {
  useCompressStore.setState({ notices: {} })
  backend = await installFakeBackend()
  threadId = backend.addThread('Migration').id
  // Twelve long messages (3,201 tokens each): the newest 8 always stay as they are, and they
  // already fill the 20 % of the budget kept word for word, so /compress folds the first 4.
  backend.addMessages(
    threadId,
    Array.from({ length: 12 }, (_, i) =>
      `Message ${i + 1} about the database migration. `.repeat(400)
    )
  )
  await useChatStore.getState().open(threadId)
})

const callsTo = (channel: string) => backend.calls.filter((call) => call.channel === channel)

const renderComposer = () => {
  render(<Composer threadId={threadId} />)
  return screen.getByTestId('composer-input') as HTMLTextAreaElement
}

describe('parseCompressCommand', () => {
  it('reads "/compress" and an optional focus topic, in any language', () => {
    expect(parseCompressCommand('/compress')).toEqual({ focusTopic: null })
    expect(parseCompressCommand('  /compress   ')).toEqual({ focusTopic: null })
    expect(parseCompressCommand('/compress  database\n migration ')).toEqual({
      focusTopic: 'database migration'
    })
    expect(parseCompressCommand('/Compress API design')).toEqual({ focusTopic: 'API design' })
    // A full-width slash, as a Chinese input method types it.
    expect(parseCompressCommand('／compress 数据库迁移')).toEqual({ focusTopic: '数据库迁移' })
    expect(parseCompressCommand('/compress ' + 'x'.repeat(600))?.focusTopic).toHaveLength(500)
  })

  it('leaves everything else to be sent as a message', () => {
    expect(parseCompressCommand('/compressor settings')).toBeNull()
    expect(parseCompressCommand('/etc/hosts is missing')).toBeNull()
    expect(parseCompressCommand('please /compress this')).toBeNull()
    expect(parseCompressCommand('compress')).toBeNull()
  })

  it('offers the help line while the first word could still become the command', () => {
    expect(looksLikeCommand('/')).toBe(true)
    expect(looksLikeCommand('/comp')).toBe(true)
    expect(looksLikeCommand('/compress database')).toBe(true)
    expect(looksLikeCommand('／')).toBe(true)
    expect(looksLikeCommand('/etc/hosts')).toBe(false)
    expect(looksLikeCommand('hello')).toBe(false)
  })
})

describe('/compress in the composer', () => {
  it('compresses instead of sending, empties the box and says what happened', async () => {
    const user = userEvent.setup()
    const summaries: ThreadSummaryView[] = []
    window.api.on('summary:changed', (summary) => summaries.push(summary))
    const input = renderComposer()

    await user.type(input, '/compress database migration{Enter}')

    expect(callsTo('messages:send')).toEqual([])
    expect(callsTo('summary:compress').map((call) => call.input)).toEqual([
      { threadId, focusTopic: 'database migration' }
    ])
    const notice = await screen.findByTestId('compress-notice')
    expect(notice).toHaveAttribute('data-kind', 'compressed')
    expect(notice).toHaveTextContent('Compressed 4 messages (')
    expect(notice).toHaveTextContent('into the summary · focus: database migration')
    expect(notice).toHaveTextContent('The newest 8 messages are still sent word for word')
    expect(input).toHaveValue('')
    expect(backend.messagesOf(threadId)).toHaveLength(12)
    // The inspector's summary card follows this event.
    expect(summaries.at(-1)).toMatchObject({ lastMessageSeq: 4 })

    await user.click(screen.getByTestId('compress-notice-dismiss'))
    expect(screen.queryByTestId('compress-notice')).toBeNull()
  })

  it('takes a Chinese focus typed with an input method', async () => {
    const input = renderComposer()
    fireEvent.change(input, { target: { value: '／compress 数据库迁移' } })
    fireEvent.keyDown(input, { key: 'Enter' })

    expect(await screen.findByTestId('compress-notice')).toHaveTextContent('focus: 数据库迁移')
    expect(callsTo('summary:compress')[0]?.input).toEqual({ threadId, focusTopic: '数据库迁移' })
  })

  it('in Chinese, the notice is Chinese', async () => {
    await i18n.changeLanguage('zh-CN')
    try {
      const input = renderComposer()
      fireEvent.change(input, { target: { value: '/compress' } })
      fireEvent.keyDown(input, { key: 'Enter' })
      await vi.waitFor(() =>
        expect(screen.getByTestId('compress-notice')).toHaveTextContent('已将 4 条消息')
      )
      expect(callsTo('summary:compress')[0]?.input).toEqual({ threadId })
    } finally {
      await i18n.changeLanguage('en')
    }
  })

  it('says when there is nothing to compress', async () => {
    const other = backend.addThread('Short').id
    backend.addMessages(other, ['one', 'two'])
    threadId = other
    await useChatStore.getState().open(other)
    const user = userEvent.setup()
    const input = renderComposer()

    await user.type(input, '/compress{Enter}')

    const notice = await screen.findByTestId('compress-notice')
    expect(notice).toHaveAttribute('data-kind', 'nothing_to_compress')
    expect(notice).toHaveTextContent('Nothing to compress yet: the newest 2 messages')
    expect(input).toHaveValue('')
  })

  it('shows a failure and keeps the command so it can be retried', async () => {
    const user = userEvent.setup()
    backend.failNext('summary:compress', { code: 'invalid_input', message: 'Already compressing' })
    const input = renderComposer()

    await user.type(input, '/compress{Enter}')

    const notice = await screen.findByTestId('compress-notice')
    expect(notice).toHaveAttribute('role', 'alert')
    expect(notice).toHaveTextContent('Could not compress: Already compressing')
    expect(input).toHaveValue('/compress')
  })

  it('locks the box while compressing', async () => {
    const user = userEvent.setup()
    const release = backend.hold('summary:compress')
    const input = renderComposer()

    await user.type(input, '/compress{Enter}')

    expect(await screen.findByTestId('compress-notice')).toHaveAttribute('data-kind', 'running')
    expect(input).toHaveAttribute('readonly')
    expect(screen.getByTestId('send-button')).toBeDisabled()
    release()
    expect(await screen.findByText(/Compressed 4 messages/)).toBeInTheDocument()
    expect(input).not.toHaveAttribute('readonly')
  })

  it('is discoverable: the hint mentions "/" and typing "/" shows the command', async () => {
    const user = userEvent.setup()
    const input = renderComposer()
    expect(screen.getByText(/Type \/ for commands/)).toBeInTheDocument()
    expect(screen.queryByTestId('composer-command-compress')).toBeNull()

    await user.type(input, '/')
    const help = screen.getByTestId('composer-command-compress')
    expect(help).toHaveTextContent('/compress [focus]')
    await user.click(help)

    expect(input).toHaveValue('/compress ')
    expect(input).toHaveFocus()
    await user.type(input, 'hello')
    // Still offered (it describes what Enter will do), but the text is the user's.
    expect(input).toHaveValue('/compress hello')
  })

  it('ordinary text starting with "/" is still sent as a message', async () => {
    const user = userEvent.setup()
    const input = renderComposer()

    await user.type(input, '/etc/hosts is missing{Enter}')

    expect(callsTo('summary:compress')).toEqual([])
    expect(callsTo('messages:send')).toHaveLength(1)
  })
})
