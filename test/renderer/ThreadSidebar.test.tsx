import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Api } from '@shared/api'
import type { MemorySearchHit, Message } from '@shared/domain'
import { ok } from '@shared/result'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { ThreadSidebar } from '@renderer/features/threads/ThreadSidebar'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend
type MemorySearchInput = Parameters<Api['memory']['search']>[0]

beforeEach(async () => {
  backend = await installFakeBackend()
})

const renderSidebar = async () => {
  await useThreadsStore.getState().load()
  const user = userEvent.setup()
  render(<ThreadSidebar />)
  return user
}

const items = () => screen.queryAllByTestId('thread-item')
const visibleTitles = () =>
  screen.queryAllByTestId('thread-title').map((title) => title.textContent)
const itemFor = (threadId: string) => {
  const item = items().find((element) => element.dataset.threadId === threadId)
  if (!item) throw new Error(`no sidebar item for ${threadId}`)
  return item
}

describe('ThreadSidebar list', () => {
  it('shows threads by last activity, each with its latest message', async () => {
    const old = backend.addThread('Tax questions', { updatedAt: 1_000 })
    const recent = backend.addThread('Holiday plan', { updatedAt: 2_000 })
    backend.addMessages(recent.id, ['Book the ferry to Naxos'])

    await renderSidebar()

    expect(visibleTitles()).toEqual(['Holiday plan', 'Tax questions'])
    expect(itemFor(recent.id)).toHaveTextContent('Book the ferry to Naxos')
    expect(itemFor(old.id)).toHaveTextContent('No messages yet')
  })

  it('names an untitled thread in the UI language', async () => {
    backend.addThread('')
    await renderSidebar()
    expect(visibleTitles()).toEqual(['New conversation'])
  })

  it('marks the thread you click as active', async () => {
    const a = backend.addThread('A')
    const b = backend.addThread('B')
    const user = await renderSidebar()

    await user.click(within(itemFor(a.id)).getByTestId('thread-title'))

    expect(itemFor(a.id)).toHaveAttribute('data-active', 'true')
    expect(itemFor(b.id)).toHaveAttribute('data-active', 'false')
  })

  it('creates a thread that appears on top and becomes active', async () => {
    backend.addThread('Existing')
    const user = await renderSidebar()

    await user.click(screen.getByTestId('new-thread'))

    expect(visibleTitles()).toEqual(['New conversation', 'Existing'])
    expect(items()[0]).toHaveAttribute('data-active', 'true')
  })
})

describe('ThreadSidebar rename', () => {
  it('renames with the rename action and Enter', async () => {
    const thread = backend.addThread('Untitled')
    const user = await renderSidebar()

    await user.click(within(itemFor(thread.id)).getByTestId('thread-rename'))
    const input = screen.getByTestId('thread-title-input')
    expect(input).toHaveValue('Untitled')
    expect(input).toHaveFocus()
    await user.clear(input)
    await user.type(input, 'Garden planning{Enter}')

    expect(screen.queryByTestId('thread-title-input')).toBeNull()
    expect(visibleTitles()).toEqual(['Garden planning'])
    expect(backend.calls.filter((call) => call.channel === 'threads:rename')).toHaveLength(1)
  })

  it('starts renaming on double-click and cancels on Escape without saving', async () => {
    const thread = backend.addThread('Keep me')
    const user = await renderSidebar()

    await user.dblClick(within(itemFor(thread.id)).getByTestId('thread-title'))
    await user.type(screen.getByTestId('thread-title-input'), ' changed{Escape}')

    expect(screen.queryByTestId('thread-title-input')).toBeNull()
    expect(visibleTitles()).toEqual(['Keep me'])
    expect(backend.calls.some((call) => call.channel === 'threads:rename')).toBe(false)
  })

  it('does not save while an input method is composing the title', async () => {
    const thread = backend.addThread('Plans')
    const user = await renderSidebar()

    await user.click(within(itemFor(thread.id)).getByTestId('thread-rename'))
    const input = screen.getByTestId('thread-title-input')
    fireEvent.change(input, { target: { value: 'jihua' } })
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true })

    expect(screen.getByTestId('thread-title-input')).toHaveValue('jihua')
    expect(backend.calls.some((call) => call.channel === 'threads:rename')).toBe(false)
  })

  it('shows why a rename failed and keeps the field open', async () => {
    const thread = backend.addThread('Plans')
    const user = await renderSidebar()

    await user.click(within(itemFor(thread.id)).getByTestId('thread-rename'))
    await user.clear(screen.getByTestId('thread-title-input'))
    await user.keyboard('{Enter}')

    expect(within(itemFor(thread.id)).getByTestId('error-banner')).toHaveTextContent(
      'Title cannot be empty'
    )
    expect(screen.getByTestId('thread-title-input')).toBeInTheDocument()
  })
})

describe('ThreadSidebar delete', () => {
  it('asks for confirmation and deletes nothing when cancelled', async () => {
    const thread = backend.addThread('Journal')
    const user = await renderSidebar()

    await user.click(within(itemFor(thread.id)).getByTestId('thread-delete'))

    const dialog = screen.getByRole('dialog')
    expect(dialog).toHaveAttribute('data-testid', 'confirm-dialog')
    expect(dialog).toHaveAccessibleName('Delete this thread?')
    expect(dialog).toHaveTextContent('“Journal”')
    expect(screen.getByTestId('confirm-cancel')).toHaveFocus()
    expect(backend.calls.some((call) => call.channel === 'threads:delete')).toBe(false)

    await user.click(screen.getByTestId('confirm-cancel'))

    expect(screen.queryByRole('dialog')).toBeNull()
    expect(visibleTitles()).toEqual(['Journal'])
  })

  it('closes on Escape', async () => {
    const thread = backend.addThread('Journal')
    const user = await renderSidebar()

    await user.click(within(itemFor(thread.id)).getByTestId('thread-delete'))
    await user.keyboard('{Escape}')

    expect(screen.queryByRole('dialog')).toBeNull()
    expect(visibleTitles()).toEqual(['Journal'])
  })

  it('deletes once confirmed', async () => {
    const keep = backend.addThread('Keep')
    const drop = backend.addThread('Drop')
    const user = await renderSidebar()

    await user.click(within(itemFor(drop.id)).getByTestId('thread-delete'))
    await user.click(screen.getByTestId('confirm-accept'))

    expect(screen.queryByRole('dialog')).toBeNull()
    expect(visibleTitles()).toEqual(['Keep'])
    expect(backend.calls.filter((call) => call.channel === 'threads:delete')).toEqual([
      { channel: 'threads:delete', input: { id: drop.id } }
    ])
    expect(itemFor(keep.id)).toBeInTheDocument()
  })
})

describe('ThreadSidebar search', () => {
  it('lists hits with the matched words marked, and opens the thread of a clicked message', async () => {
    const other = backend.addThread('Groceries')
    const target = backend.addThread('Cooking')
    const [, hit] = backend.addMessages(target.id, ['Buy flour', 'Dumplings need a hot pan'])
    const user = await renderSidebar()
    act(() => useThreadsStore.getState().select(other.id))

    await user.type(screen.getByTestId('search-input'), 'hot pan')

    const hits = await screen.findAllByTestId('search-hit')
    expect(hits).toHaveLength(1)
    expect(hits[0]).toHaveAttribute('data-thread-id', target.id)
    expect(hits[0]).toHaveAttribute('data-message-id', String(hit!.id))
    expect([...hits[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'hot',
      'pan'
    ])

    await user.click(hits[0]!)

    expect(itemFor(target.id)).toHaveAttribute('data-active', 'true')
    expect(useChatStore.getState().reveal).toEqual({ threadId: target.id, messageId: hit!.id })
    expect(screen.getByTestId('search-input')).toHaveValue('')
  })

  it('shows a snippet containing markup as text, never as HTML', async () => {
    const thread = backend.addThread('Web')
    backend.addMessages(thread.id, ['try <img src=x onerror=alert(1)> here'])
    const user = await renderSidebar()

    await user.type(screen.getByTestId('search-input'), 'onerror')

    const [hit] = await screen.findAllByTestId('search-hit')
    expect(hit!.querySelector('img')).toBeNull()
    expect(hit).toHaveTextContent('try <img src=x onerror=alert(1)> here')
    expect(hit!.querySelector('mark')).toHaveTextContent('onerror')
  })

  it('says when nothing matches', async () => {
    backend.addThread('Groceries')
    const user = await renderSidebar()

    await user.type(screen.getByTestId('search-input'), 'zebra')

    expect(await screen.findByText('Nothing matches “zebra”.')).toBeInTheDocument()
  })
})

describe('ThreadSidebar semantic matches', () => {
  /**
   * The embedding model's matches for a query (renderer tests load no model), ahead of what
   * main's memory search finds by its words.
   */
  const relatedByMeaning = (related: (query: string) => MemorySearchHit[]) =>
    backend.script('memory:search', async (input) => {
      const words = await backend.main.memory.search(input as MemorySearchInput)
      if (!words.ok) return words
      const hits = related((input as MemorySearchInput).query)
      return ok({
        ...words.data,
        hits: [...hits, ...words.data.hits],
        mode: 'hybrid',
        warnings: []
      })
    })

  /** What main's hybrid search returns for a message, as the embedding model would match it. */
  const messageHit = (
    message: Message,
    threadTitle: string,
    matchedBy: MemorySearchHit['matchedBy'] = ['vector']
  ): MemorySearchHit => ({
    kind: 'message',
    ref: `message:${message.id}`,
    id: message.id,
    content: message.content,
    score: 0.5,
    similarity: 0.68,
    cosine: 0.36,
    matchedBy,
    category: null,
    threadId: message.threadId,
    threadTitle,
    messageId: message.id,
    seq: message.seq,
    role: message.role,
    createdAt: message.createdAt
  })

  it('lists messages related by meaning in their own group, never repeating a full-text hit', async () => {
    const drinks = backend.addThread('Drinks')
    const [tea, sugar] = backend.addMessages(drinks.id, [
      '我喜欢喝乌龙茶，不加糖',
      'No sugar in anything, please'
    ])
    const other = backend.addThread('Other')
    const [wordsOnly] = backend.addMessages(other.id, ['A text-only match'])
    relatedByMeaning((query) =>
      query === 'sugar'
        ? [
            messageHit(tea!, 'Drinks'),
            messageHit(sugar!, 'Drinks'),
            messageHit(wordsOnly!, 'Other', ['text'])
          ]
        : []
    )
    const user = await renderSidebar()

    await user.type(screen.getByTestId('search-input'), 'sugar')

    const related = await screen.findAllByTestId('semantic-hit')
    expect(related.map((hit) => hit.dataset.messageId)).toEqual([String(tea!.id)])
    expect(related[0]).toHaveTextContent('我喜欢喝乌龙茶，不加糖')
    expect(related[0]).toHaveTextContent('similarity 0.68')
    expect(screen.getAllByTestId('search-hit').map((hit) => hit.dataset.messageId)).toEqual([
      String(sugar!.id)
    ])
    expect(screen.getByRole('heading', { name: 'Related by meaning' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Matching words' })).toBeInTheDocument()
    expect(backend.calls.find((c) => c.channel === 'memory:search')?.input).toEqual({
      query: 'sugar',
      kinds: ['message'],
      scope: 'all',
      limit: 8
    })

    await user.click(related[0]!)

    expect(itemFor(drinks.id)).toHaveAttribute('data-active', 'true')
    expect(useChatStore.getState().reveal).toEqual({ threadId: drinks.id, messageId: tea!.id })
    expect(screen.getByTestId('search-input')).toHaveValue('')
  })

  it('shows a paraphrase with no word in common when full text finds nothing', async () => {
    const drinks = backend.addThread('Drinks')
    const [tea] = backend.addMessages(drinks.id, ['我喜欢喝乌龙茶，不加糖'])
    relatedByMeaning(() => [messageHit(tea!, 'Drinks')])
    const user = await renderSidebar()

    await user.type(screen.getByTestId('search-input'), '我平时喝什么茶')

    expect(await screen.findByTestId('semantic-hit')).toHaveAttribute(
      'data-message-id',
      String(tea!.id)
    )
    expect(screen.queryByTestId('search-hit')).toBeNull()
    expect(screen.queryByText(/Nothing matches/)).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Matching words' })).toBeNull()
  })

  it('keeps the full-text hits when the semantic search fails', async () => {
    const thread = backend.addThread('Cooking')
    backend.addMessages(thread.id, ['Dumplings need a hot pan'])
    backend.failNext('memory:search', { code: 'internal', message: 'worker crashed' })
    const user = await renderSidebar()

    await user.type(screen.getByTestId('search-input'), 'dumplings')

    expect(await screen.findAllByTestId('search-hit')).toHaveLength(1)
    await vi.waitFor(() =>
      expect(backend.calls.some((c) => c.channel === 'memory:search')).toBe(true)
    )
    expect(screen.queryByTestId('semantic-hit')).toBeNull()
    expect(screen.queryByTestId('error-banner')).toBeNull()
  })
})
