import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { MAX_FILE_BYTES } from '@shared/files'
import { Composer } from '@renderer/features/chat/Composer'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useFilesStore } from '@renderer/features/files/filesStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend
let threadId: string

beforeEach(async () => {
  backend = await installFakeBackend()
  threadId = backend.addThread('Files').id
  useFilesStore.setState({ byThread: {}, problems: {}, reading: {} })
  await useChatStore.getState().open(threadId)
})

/** A file whose size is whatever we say, without allocating it (jsdom reads `size` only). */
function fileOfSize(name: string, size: number): File {
  const file = new File(['x'], name, { type: 'text/plain' })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

const drop = (target: Element, files: File[]) =>
  fireEvent.drop(target, { dataTransfer: { files, types: ['Files'] } })

describe('Composer files', () => {
  it('refuses a file over the limit by name, without reading or sending it', async () => {
    render(<Composer threadId={threadId} />)
    await act(async () => {
      drop(screen.getByTestId('composer'), [fileOfSize('video.log', MAX_FILE_BYTES + 1)])
    })
    const refusal = await screen.findByTestId('file-refusal')
    expect(refusal).toHaveAttribute('data-reason', 'too_large')
    expect(refusal.textContent).toContain('video.log')
    expect(refusal.textContent).toContain('10 MB')
    expect(backend.calls.some((call) => call.channel === 'files:attach')).toBe(false)
  })

  it('sends a dropped file to main as base64, attached to the next message', async () => {
    render(<Composer threadId={threadId} />)
    await act(async () => {
      drop(screen.getByTestId('composer'), [
        new File(['héllo'], 'note.txt', { type: 'text/plain' })
      ])
    })
    // The bytes are read asynchronously (FileReader) before the call.
    const attach = await waitFor(() => {
      const found = backend.calls.find((call) => call.channel === 'files:attach')
      expect(found).toBeDefined()
      return found
    })
    expect(attach?.input).toEqual({
      threadId,
      scope: 'message',
      name: 'note.txt',
      mime: 'text/plain',
      // base64 of the UTF-8 bytes of 'héllo'
      data: 'aMOpbGxv'
    })
    await waitFor(() => expect(useFilesStore.getState().reading[threadId]).toBe(0))
  })

  it('attaches a pasted file to the message, and leaves pasted text to the text box', async () => {
    render(<Composer threadId={threadId} />)
    const input = screen.getByTestId('composer-input')
    await act(async () => {
      fireEvent.paste(input, { clipboardData: { files: [new File(['x'], 'shot.txt')] } })
    })
    await waitFor(() =>
      expect(backend.calls.filter((call) => call.channel === 'files:attach')).toHaveLength(1)
    )
    expect(fireEvent.paste(input, { clipboardData: { files: [] } })).toBe(true)
    await waitFor(() => expect(useFilesStore.getState().reading[threadId]).toBe(0))
  })

  it('attaches files dropped on the thread files row to the whole thread', async () => {
    render(<Composer threadId={threadId} />)
    await act(async () => {
      drop(screen.getByTestId('thread-files'), [new File(['a'], 'spec.md')])
    })
    await waitFor(() =>
      expect(
        backend.calls
          .filter((call) => call.channel === 'files:attach')
          .map((call) => (call.input as { scope: string }).scope)
      ).toEqual(['thread'])
    )
    // Settled: the store reloads the list once main has answered.
    await waitFor(() => expect(useFilesStore.getState().reading[threadId]).toBe(0))
  })
})
