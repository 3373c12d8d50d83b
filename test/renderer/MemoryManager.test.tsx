import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { MemoryCategory, MemoryStatus } from '@shared/domain'
import { App } from '@renderer/App'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { UNDO_MS } from '@renderer/features/memory/memoryListStore'
import { useMemoryViewStore } from '@renderer/features/memory/memoryViewStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { i18n } from '@renderer/i18n'
import { ok } from '@shared/result'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
})

const seed = async (content: string, category: MemoryCategory = 'user_preference') => {
  const result = await backend.main.memory.create({ content, category })
  if (!result.ok) throw new Error(result.error.message)
  return result.data.memory
}

/** The app with the memory manager opened from the sidebar, its list loaded. */
const openManager = async () => {
  await useSettingsStore.getState().load()
  const user = userEvent.setup()
  render(<App />)
  await user.click(screen.getByTestId('open-memory'))
  const manager = await screen.findByTestId('memory-manager')
  await vi.waitFor(() => expect(manager).not.toHaveTextContent('Loading memories…'))
  return { user, manager }
}

const items = () => screen.queryAllByTestId('memory-item')
const itemFor = (id: number) => {
  const item = items().find((element) => element.dataset.memoryId === String(id))
  if (!item) throw new Error(`no memory item for ${id}`)
  return item
}
const callsTo = (channel: string) =>
  backend.calls.filter((call) => call.channel === channel).map((call) => call.input)

describe('memory manager', () => {
  it('opens from the sidebar in place of the chat and lists memories, newest first', async () => {
    const thread = backend.addThread('Trip')
    await useThreadsStore.getState().load()
    useThreadsStore.getState().select(thread.id)
    await seed('I am vegetarian.', 'fact')
    await seed('Call me Sam.')

    const { user } = await openManager()

    expect(screen.queryByTestId('composer-input')).toBeNull()
    expect(screen.getByTestId('open-memory')).toHaveAttribute('aria-pressed', 'true')
    expect(items().map((item) => item.textContent)).toEqual([
      expect.stringContaining('Call me Sam.'),
      expect.stringContaining('I am vegetarian.')
    ])
    expect(items().map((item) => item.dataset.category)).toEqual(['user_preference', 'fact'])
    expect(items()[0]).toHaveTextContent('Preference')
    expect(items()[1]).toHaveTextContent('Fact')
    expect(items()[0]).toHaveTextContent(/Updated Jan 15/)
    expect(screen.getByTestId('memory-manager')).toHaveTextContent('2 memories')

    await user.click(screen.getByTestId('memory-close'))

    expect(screen.queryByTestId('memory-manager')).toBeNull()
    expect(await screen.findByTestId('composer-input')).toBeInTheDocument()
  })

  it('searches by text and filters by category', async () => {
    await seed('I drink oolong tea without sugar.')
    await seed('The release is due in June.', 'task')
    await seed('My sister lives in Lyon.', 'fact')
    const { user } = await openManager()

    await user.type(screen.getByTestId('memory-search'), 'oolong')
    await vi.waitFor(() => expect(items()).toHaveLength(1))
    expect(items()[0]).toHaveTextContent('I drink oolong tea without sugar.')
    expect(callsTo('memory:list').at(-1)).toEqual({ query: 'oolong', offset: 0, limit: 100 })

    await user.clear(screen.getByTestId('memory-search'))
    await user.selectOptions(screen.getByTestId('memory-category-filter'), 'task')
    await vi.waitFor(() => expect(items().map((item) => item.dataset.category)).toEqual(['task']))

    await user.type(screen.getByTestId('memory-search'), 'oolong')
    expect(await screen.findByText('No memory matches.')).toBeInTheDocument()
  })

  it("marks the previous filter's rows as such until the new filter's answer arrives", async () => {
    await seed('I drink oolong tea without sugar.')
    await seed('The release is due in June.', 'task')
    const { user, manager } = await openManager()
    const list = within(manager).getByRole('list', { name: 'Memories' })
    expect(list).toHaveAttribute('aria-busy', 'false')

    const release = backend.holdAnswer('memory:list')
    await user.selectOptions(screen.getByTestId('memory-category-filter'), 'task')
    expect(list).toHaveAttribute('aria-busy', 'true')

    act(() => release())
    await vi.waitFor(() => expect(items().map((item) => item.dataset.category)).toEqual(['task']))
    expect(within(manager).getByRole('list', { name: 'Memories' })).toHaveAttribute(
      'aria-busy',
      'false'
    )
  })

  it('shows a hundred at a time, and more on request', async () => {
    for (let n = 1; n <= 101; n++) await seed(`Memory number ${n}`)
    const { user } = await openManager()
    expect(items()).toHaveLength(100)
    expect(items()[0]).toHaveTextContent('Memory number 101')

    await user.click(screen.getByRole('button', { name: 'Show more' }))

    await vi.waitFor(() => expect(items()).toHaveLength(101))
    expect(items()[100]).toHaveTextContent('Memory number 1')
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
    expect(callsTo('memory:list').at(-1)).toEqual({ offset: 100, limit: 100 })
  })

  it('edits the text and category in place; Escape leaves it as it was', async () => {
    const memory = await seed('I prefer tea.')
    const { user } = await openManager()

    await user.click(within(itemFor(memory.id)).getByTestId('memory-edit'))
    await user.keyboard('{Escape}')
    expect(callsTo('memory:update')).toEqual([])
    expect(itemFor(memory.id)).toHaveTextContent('I prefer tea.')

    await user.click(within(itemFor(memory.id)).getByTestId('memory-edit'))
    const editor = within(itemFor(memory.id))
    await user.clear(editor.getByTestId('memory-editor-content'))
    await user.type(editor.getByTestId('memory-editor-content'), 'I prefer green tea.')
    await user.selectOptions(editor.getByTestId('memory-editor-category'), 'fact')
    await user.click(editor.getByTestId('memory-editor-save'))

    await vi.waitFor(() => expect(itemFor(memory.id)).toHaveAttribute('data-category', 'fact'))
    expect(itemFor(memory.id)).toHaveTextContent('I prefer green tea.')
    expect(callsTo('memory:update')).toEqual([
      { id: memory.id, content: 'I prefer green tea.', category: 'fact' }
    ])
    expect(backend.memoryOf(memory.id)?.content).toBe('I prefer green tea.')
  })

  it('keeps the editor open with the typed text when main refuses an edit', async () => {
    const memory = await seed('I prefer tea.')
    const { user } = await openManager()
    backend.failNext('memory:update', {
      code: 'invalid_input',
      message: 'Memory 4 already says this.'
    })

    await user.click(within(itemFor(memory.id)).getByTestId('memory-edit'))
    await user.type(within(itemFor(memory.id)).getByTestId('memory-editor-content'), ' Always.')
    await user.click(within(itemFor(memory.id)).getByTestId('memory-editor-save'))

    expect(await screen.findByTestId('error-banner')).toHaveTextContent(
      'Could not save the change: Memory 4 already says this.'
    )
    expect(within(itemFor(memory.id)).getByTestId('memory-editor-content')).toHaveValue(
      'I prefer tea. Always.'
    )
  })

  it('deletes at once and brings the memory back with Undo', async () => {
    const kept = await seed('Kept.')
    const memory = await seed('Deleted, then restored.')
    const { user } = await openManager()

    await user.click(within(itemFor(memory.id)).getByTestId('memory-delete'))

    await vi.waitFor(() => expect(items()).toHaveLength(1))
    expect(items()[0]).toHaveAttribute('data-memory-id', String(kept.id))
    expect(backend.memoryOf(memory.id)).toBeUndefined()
    expect(screen.getByTestId('memory-undo-toast')).toHaveTextContent('Memory deleted.')

    await user.click(screen.getByTestId('memory-undo'))

    await vi.waitFor(() => expect(items()).toHaveLength(2))
    expect(callsTo('memory:restore')).toEqual([{ id: memory.id }])
    expect(itemFor(memory.id)).toHaveTextContent('Deleted, then restored.')
    expect(screen.queryByTestId('memory-undo-toast')).toBeNull()
  })

  it('offers Undo for a while only', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const memory = await seed('Short-lived.')
    const { user } = await openManager()

    await user.click(within(itemFor(memory.id)).getByTestId('memory-delete'))
    await screen.findByTestId('memory-undo')
    act(() => vi.advanceTimersByTime(UNDO_MS))

    expect(screen.queryByTestId('memory-undo')).toBeNull()
    expect(callsTo('memory:restore')).toEqual([])
  })

  it('adds a memory by hand, and says when the text was already remembered', async () => {
    const { user } = await openManager()
    expect(screen.getByText('Nothing remembered yet')).toBeInTheDocument()

    await user.click(screen.getByTestId('memory-create'))
    await user.type(screen.getByTestId('memory-editor-content'), 'Answer in short paragraphs.')
    await user.selectOptions(screen.getByTestId('memory-editor-category'), 'other')
    await user.click(screen.getByTestId('memory-editor-save'))

    await vi.waitFor(() => expect(items()).toHaveLength(1))
    expect(items()[0]).toHaveAttribute('data-category', 'other')
    expect(items()[0]).toHaveAttribute('data-highlighted', 'true')
    expect(screen.queryByTestId('memory-editor')).toBeNull()
    expect(callsTo('memory:create')).toEqual([
      { content: 'Answer in short paragraphs.', category: 'other' }
    ])

    await user.click(screen.getByTestId('memory-create'))
    await user.type(screen.getByTestId('memory-editor-content'), 'answer in short paragraphs.')
    await user.click(screen.getByTestId('memory-editor-save'))

    expect(await screen.findByTestId('memory-notice')).toHaveTextContent(
      'This is already remembered.'
    )
    expect(items()).toHaveLength(1)
  })

  it('shows where a memory came from and opens its message in its thread', async () => {
    const trip = backend.addThread('Trip')
    const [, message] = backend.addMessages(trip.id, ['Hello', 'I drink oolong tea.'])
    const remembered = await backend.api.messages.remember({ id: message!.id })
    if (!remembered.ok) throw new Error('remember failed')
    const { user } = await openManager()
    const row = itemFor(remembered.data.memory.id)

    await user.click(within(row).getByTestId('memory-origin'))

    const origin = await within(row).findByTestId('memory-origin-panel')
    await vi.waitFor(() => expect(origin).toHaveTextContent('From message #2 (You) in “Trip”'))
    expect(origin).toHaveTextContent('Created · with “Remember this”')

    await user.click(within(origin).getByTestId('memory-origin-link'))

    expect(screen.queryByTestId('memory-manager')).toBeNull()
    expect(useThreadsStore.getState().selectedId).toBe(trip.id)
    await vi.waitFor(() => expect(useChatStore.getState().highlightedId).toBe(message!.id))
  })

  it('says when a memory was typed by hand rather than remembered from a message', async () => {
    const memory = await seed('Typed here.')
    const { user } = await openManager()

    await user.click(within(itemFor(memory.id)).getByTestId('memory-origin'))

    const origin = await screen.findByTestId('memory-origin-panel')
    await vi.waitFor(() => expect(origin).toHaveTextContent('Added by hand in the memory manager.'))
    expect(within(origin).queryByTestId('memory-origin-link')).toBeNull()
  })

  it('brings a linked memory into view with the filters cleared, or says it is gone', async () => {
    const older = await seed('Older memory.', 'fact')
    await seed('Newer memory.')
    const { user } = await openManager()
    await user.selectOptions(screen.getByTestId('memory-category-filter'), 'user_preference')
    await vi.waitFor(() => expect(items()).toHaveLength(1))

    act(() => useMemoryViewStore.getState().show(older.id))

    await vi.waitFor(() => expect(itemFor(older.id)).toHaveAttribute('data-highlighted', 'true'))
    expect(screen.getByTestId('memory-category-filter')).toHaveValue('')

    act(() => useMemoryViewStore.getState().show(999))

    expect(await screen.findByTestId('memory-notice')).toHaveTextContent(
      'That memory no longer exists.'
    )
  })
})

describe('memory status', () => {
  /**
   * What main reports with the embedding model loaded: renderer tests load no model, so the
   * status is scripted; `index` is changed in place by a test before it opens the manager.
   */
  let modelStatus: MemoryStatus
  beforeEach(() => {
    modelStatus = {
      model: {
        state: 'ready',
        id: 'Xenova/bge-small-zh-v1.5',
        dimension: 512,
        progress: [],
        error: null
      },
      index: {
        pendingMessages: 0,
        pendingMemories: 0,
        failed: 0,
        indexedMessages: 0,
        indexedMemories: 0,
        totalMessages: 0,
        totalMemories: 0,
        reembedding: false,
        itemsPerSecond: null,
        secondsLeft: null
      },
      warning: null
    }
    backend.script('memory:status', () => ok(modelStatus))
  })
  const status = (patch: Partial<MemoryStatus>): MemoryStatus => ({ ...modelStatus, ...patch })

  it('shows the model, indexing progress and live updates, in the manager and the sidebar', async () => {
    Object.assign(modelStatus.index, {
      indexedMessages: 40,
      totalMessages: 50,
      pendingMessages: 10,
      indexedMemories: 1,
      totalMemories: 1
    })
    await openManager()
    const panel = screen.getByTestId('memory-status-panel')
    const line = screen.getByTestId('memory-status')

    await vi.waitFor(() => expect(panel).toHaveTextContent('Indexing 10 more…'))
    expect(panel).toHaveTextContent('bge-small-zh-v1.5 · 512 dimensions')
    expect(panel).toHaveTextContent('40 of 50 messages indexed')
    expect(panel).toHaveTextContent('1 of 1 memory indexed')
    expect(line).toHaveAttribute('data-tone', 'busy')

    act(() =>
      backend.emit(
        'memory:status',
        status({
          model: {
            state: 'downloading',
            id: null,
            dimension: null,
            error: null,
            progress: [
              { file: 'onnx/model_quantized.onnx', loaded: 12_000_000, total: 24_000_000 },
              { file: 'tokenizer.json', loaded: 400_000, total: 400_000 }
            ]
          }
        })
      )
    )
    expect(line).toHaveTextContent('Downloading the embedding model… 51 %')
    expect(panel).toHaveTextContent('onnx/model_quantized.onnx: 12 MB of 24 MB')

    act(() =>
      backend.emit(
        'memory:status',
        status({
          model: { state: 'idle', id: null, dimension: null, error: null, progress: [] },
          warning: {
            code: 'no_model',
            message: 'No embedding model is configured; memory search uses full text only.'
          }
        })
      )
    )
    expect(line).toHaveAttribute('data-tone', 'degraded')
    expect(line).toHaveTextContent('No embedding model: words only')
    expect(screen.getByTestId('memory-status-warning')).toHaveTextContent(
      'No embedding model is set up: memory search matches words only, not meaning.'
    )
  })

  it('shows the indexing rate and the time left once the indexer has measured them', async () => {
    Object.assign(modelStatus.index, {
      totalMessages: 3_000,
      pendingMessages: 1_200,
      itemsPerSecond: 6.84,
      secondsLeft: 176
    })
    await openManager()
    const line = screen.getByTestId('memory-status')
    await vi.waitFor(() =>
      expect(line).toHaveTextContent('Indexing 1,200 more · 6.8 per second · about 3 min left')
    )
    expect(screen.getByTestId('memory-status-panel')).toHaveTextContent('about 3 min left')

    const indexing = (index: Partial<MemoryStatus['index']>) =>
      act(() =>
        backend.emit('memory:status', status({ index: { ...modelStatus.index, ...index } }))
      )
    indexing({ pendingMessages: 90_000, itemsPerSecond: 14.2, secondsLeft: 6_340 })
    expect(line).toHaveTextContent('Indexing 90,000 more · 14 per second · about 2 h left')
    indexing({ pendingMessages: 5, itemsPerSecond: 7, secondsLeft: 1 })
    expect(line).toHaveTextContent('Indexing 5 more · 7.0 per second · about 1 s left')
    await act(() => i18n.changeLanguage('zh-CN'))
    expect(line).toHaveTextContent('还有 5 项正在索引 · 每秒 7.0 项 · 约剩 1 秒')
  })

  it('sets the indexing threads: automatic is half the cores, each count up to the cores', async () => {
    vi.spyOn(navigator, 'hardwareConcurrency', 'get').mockReturnValue(4)
    const { user } = await openManager()
    await user.click(screen.getByText('Model settings'))
    const select = await screen.findByTestId('memory-indexing-threads')
    expect(select).toHaveValue('auto')
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent)
    ).toEqual(['Automatic: 2 (half the cores)', '1', '2', '3', '4'])
    expect(screen.getByText(/about 450 MB/)).toBeInTheDocument()

    await user.selectOptions(select, '3')
    await vi.waitFor(() =>
      expect(callsTo('memory:updateSettings')).toEqual([{ indexingThreads: 3 }])
    )
    expect(await screen.findByText('Saved.')).toBeInTheDocument()
    expect(select).toHaveValue('3')
    await user.selectOptions(select, 'auto')
    await vi.waitFor(() =>
      expect(callsTo('memory:updateSettings')).toEqual([
        { indexingThreads: 3 },
        { indexingThreads: null }
      ])
    )
  })

  it('saves the model folder and the download switch', async () => {
    const { user } = await openManager()
    await user.click(screen.getByText('Model settings'))

    await user.type(await screen.findByTestId('memory-model-folder'), '/data/models')
    await user.click(screen.getByTestId('memory-model-folder-save'))
    await user.click(screen.getByTestId('memory-allow-download'))

    await vi.waitFor(() =>
      expect(callsTo('memory:updateSettings')).toEqual([
        { modelFolder: '/data/models' },
        { allowDownload: false }
      ])
    )
    expect(await screen.findByText('Saved. The model is reloading.')).toBeInTheDocument()
  })

  it('lists both embedding models and switching one reloads the model', async () => {
    const { user } = await openManager()
    await user.click(screen.getByText('Model settings'))
    const select = await screen.findByTestId('memory-embedding-model')
    expect(select).toHaveValue('Xenova/multilingual-e5-small')
    expect(screen.getByText(/about 118 MB/)).toBeInTheDocument()

    await user.selectOptions(select, 'Xenova/bge-small-zh-v1.5')

    await vi.waitFor(() =>
      expect(callsTo('memory:updateSettings')).toEqual([
        { embeddingModel: 'Xenova/bge-small-zh-v1.5' }
      ])
    )
    expect(await screen.findByText('Saved. The model is reloading.')).toBeInTheDocument()
    expect(select).toHaveValue('Xenova/bge-small-zh-v1.5')
    expect(screen.getByText(/about 24 MB/)).toBeInTheDocument()
  })

  it('switches automatic extraction off without reloading the model', async () => {
    const { user } = await openManager()
    await user.click(screen.getByText('Model settings'))
    const toggle = await screen.findByTestId('memory-auto-extract')
    expect(toggle).toBeChecked()

    await user.click(toggle)

    await vi.waitFor(() =>
      expect(callsTo('memory:updateSettings')).toEqual([{ autoExtract: false }])
    )
    expect(await screen.findByText('Saved.')).toBeInTheDocument()
    expect(toggle).not.toBeChecked()
  })

  it('speaks Chinese', async () => {
    await seed('我喜欢喝乌龙茶，不加糖')
    await openManager()
    await act(() => i18n.changeLanguage('zh-CN'))

    expect(screen.getByTestId('open-memory')).toHaveTextContent('记忆')
    expect(items()[0]).toHaveTextContent('偏好')
    expect(screen.getByTestId('memory-status')).toHaveTextContent('语义召回已就绪')
    expect(screen.getByTestId('memory-search')).toHaveAttribute('placeholder', '搜索记忆')
  })
})
