import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Message } from '@shared/domain'
import { MarkdownContent } from '@renderer/features/chat/MarkdownContent'
import { MessageView } from '@renderer/features/chat/MessageView'

const reply: Message = {
  id: 7,
  threadId: '00000000-0000-4000-8000-000000000001',
  seq: 2,
  role: 'assistant',
  content: 'Run this:\n\n```sh\nnpm test\n```\n\nThen **check** the output.',
  tokenCount: 12,
  createdAt: Date.UTC(2026, 10, 27, 9),
  pinned: false,
  excluded: false,
  toolCalls: null,
  toolCallId: null
}

describe('copy', () => {
  // userEvent.setup() installs its own clipboard; each test then watches the app's call.
  let written: string[]
  beforeEach(() => {
    written = []
  })

  it('copies a whole message as written, and says so in words', async () => {
    const user = userEvent.setup()
    render(<MessageView message={reply} highlighted={false} />)
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => {
      written.push(text)
    })
    const copy = screen.getByTestId('message-copy')
    expect(copy).toHaveAccessibleName('Copy this message (as written, in Markdown)')
    await user.click(copy)
    expect(written).toEqual([reply.content])
    expect(copy).toHaveTextContent('Copied')
  })

  it('copies one code block, without the fences or the text around it', async () => {
    const user = userEvent.setup()
    render(<MarkdownContent text={reply.content} />)
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => {
      written.push(text)
    })
    await user.click(screen.getByRole('button', { name: 'Copy this code' }))
    expect(written).toEqual(['npm test\n'])
  })

  it('says when the clipboard refused', async () => {
    const user = userEvent.setup()
    render(<MarkdownContent text={reply.content} />)
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    const copy = screen.getByTestId('copy-code')
    await user.click(copy)
    expect(copy).toHaveTextContent('Could not copy')
  })
})
