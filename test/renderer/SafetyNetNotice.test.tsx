import { render, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { SendOutcome } from '@shared/domain'
import { ChatPane } from '@renderer/features/chat/ChatPane'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
})

describe('the safety-net notice', () => {
  it('tells the user when a message was trimmed to fit the model, and clears on the next send', async () => {
    const thread = backend.addThread('Logs')
    await useThreadsStore.getState().load()
    useThreadsStore.getState().select(thread.id)
    render(<ChatPane />)
    await screen.findByTestId('composer-input')

    // The fake backend builds like main; this send's build carries the safety net's warnings.
    const realSend = backend.api.messages.send
    backend.api.messages.send = async (input) => {
      const result = await realSend(input)
      if (!result.ok || !result.data.build) return result
      const outcome: SendOutcome = structuredClone(result.data)
      outcome.build!.context.metadata.warnings.push(
        { code: 'request_shrunk', message: 'shrunk' },
        { code: 'input_trimmed', message: 'trimmed' }
      )
      return { ok: true, data: outcome }
    }
    await useChatStore.getState().send('a very long paste')

    const notice = await screen.findByTestId('notice-safety-net')
    expect(notice).toHaveTextContent('only its beginning and end were sent')
    expect(notice).toHaveTextContent('rebuilt smaller')

    backend.api.messages.send = realSend
    await useChatStore.getState().send('a short one')
    expect(screen.queryByTestId('notice-safety-net')).toBeNull()
  })
})
