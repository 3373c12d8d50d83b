import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HIGHLIGHT_MS, useChatStore } from '@renderer/features/chat/chatStore'
import { SEARCH_DEBOUNCE_MS, useSearchStore } from '@renderer/features/threads/searchStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { i18n } from '@renderer/i18n'
import { ok } from '@shared/result'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

const titles = () => useThreadsStore.getState().threads.map((thread) => thread.title)

describe('threads store', () => {
  it('lists threads with the most recent activity first, whatever order they arrive in', async () => {
    backend.addThread('Older', { updatedAt: 1_000 })
    backend.addThread('Newest', { updatedAt: 3_000 })
    backend.addThread('Middle', { updatedAt: 2_000 })
    // Main sorts too; the store must not depend on it.
    const sorted = await backend.api.threads.list()
    if (!sorted.ok) throw new Error('fake backend failed')
    vi.spyOn(backend.api.threads, 'list').mockResolvedValueOnce(ok([...sorted.data].reverse()))

    await useThreadsStore.getState().load()

    expect(titles()).toEqual(['Newest', 'Middle', 'Older'])
  })

  it('creates a thread, puts it on top and selects it', async () => {
    backend.addThread('Existing')
    await useThreadsStore.getState().load()

    const created = await useThreadsStore.getState().create()

    expect(titles()[0]).toBe('')
    expect(useThreadsStore.getState().selectedId).toBe(created?.id)
  })

  it('renames a thread', async () => {
    const thread = backend.addThread('Draft')
    await useThreadsStore.getState().load()

    await expect(useThreadsStore.getState().rename(thread.id, 'Trip to Kyoto')).resolves.toBe(true)

    expect(titles()).toEqual(['Trip to Kyoto'])
  })

  it('keeps the old title and records the reason when a rename is rejected', async () => {
    const thread = backend.addThread('Draft')
    await useThreadsStore.getState().load()

    await expect(useThreadsStore.getState().rename(thread.id, '   ')).resolves.toBe(false)

    expect(titles()).toEqual(['Draft'])
    expect(useThreadsStore.getState().renameError).toEqual({
      threadId: thread.id,
      message: 'Title cannot be empty'
    })
  })

  it('deleting the selected thread removes it and clears the selection', async () => {
    const keep = backend.addThread('Keep')
    const drop = backend.addThread('Drop')
    await useThreadsStore.getState().load()
    useThreadsStore.getState().select(drop.id)

    await useThreadsStore.getState().remove(drop.id)

    expect(titles()).toEqual(['Keep'])
    expect(useThreadsStore.getState().selectedId).toBeNull()
    expect(backend.messagesOf(keep.id)).toEqual([])
  })

  it('shows a failed delete and keeps the thread', async () => {
    const thread = backend.addThread('Precious')
    await useThreadsStore.getState().load()
    backend.failNext('threads:delete', { code: 'storage_error', message: 'Database is locked' })

    await useThreadsStore.getState().remove(thread.id)

    expect(titles()).toEqual(['Precious'])
    expect(useThreadsStore.getState().error).toBe('Database is locked')
  })

  it('refreshes the list when main reports a change', async () => {
    const unwatch = useThreadsStore.getState().watch()
    await vi.waitFor(() => expect(useThreadsStore.getState().status).toBe('ready'))

    const thread = backend.addThread('Made elsewhere')
    backend.emit('threads:changed', { threadId: thread.id })

    await vi.waitFor(() => expect(titles()).toEqual(['Made elsewhere']))
    unwatch()
  })
})

describe('chat store', () => {
  it('opens a thread with all its messages in order', async () => {
    const thread = backend.addThread('Notes')
    backend.addMessages(thread.id, ['first', 'second', 'third'])

    await useChatStore.getState().open(thread.id)

    const state = useChatStore.getState()
    expect(state.status).toBe('ready')
    expect(state.messages.map((message) => message.content)).toEqual(['first', 'second', 'third'])
  })

  it('ignores a slow answer for a thread that is no longer open', async () => {
    const slow = backend.addThread('Slow')
    backend.addMessages(slow.id, ['from the slow thread'])
    const fast = backend.addThread('Fast')
    backend.addMessages(fast.id, ['from the fast thread'])
    const release = backend.hold('messages:list')

    const opening = useChatStore.getState().open(slow.id)
    await useChatStore.getState().open(fast.id)
    release()
    await opening

    expect(useChatStore.getState().messages.map((message) => message.content)).toEqual([
      'from the fast thread'
    ])
  })

  it('appends a sent message, clears the draft and says no model is configured', async () => {
    const thread = backend.addThread('Notes')
    await useChatStore.getState().open(thread.id)
    useChatStore.getState().setDraft(thread.id, 'hello')

    await expect(useChatStore.getState().send('hello')).resolves.toBe(true)

    const state = useChatStore.getState()
    expect(state.messages.map((message) => message.content)).toEqual(['hello'])
    expect(state.lastOutcome).toBe('no_model_configured')
    expect(state.drafts[thread.id]).toBe('')
    expect(backend.messagesOf(thread.id)).toHaveLength(1)
  })

  it('says why no context was built for a message that was stored anyway', async () => {
    const thread = backend.addThread('Notes')
    // A thread setting that no longer fits a changed default: the sum is over 100.
    backend.setThreadConfig(thread.id, { percentages: { recent: 90 } })
    await useChatStore.getState().open(thread.id)

    await expect(useChatStore.getState().send('hello')).resolves.toBe(true)

    expect(useChatStore.getState().messages.map((message) => message.content)).toEqual(['hello'])
    expect(useChatStore.getState().buildError).toMatch(/at most 100 %/)
    expect(backend.buildsOf(thread.id)).toEqual([])
  })

  it('keeps the draft and shows why when sending fails', async () => {
    const thread = backend.addThread('Notes')
    await useChatStore.getState().open(thread.id)
    useChatStore.getState().setDraft(thread.id, 'do not lose me')
    backend.failNext('messages:send', { code: 'storage_error', message: 'Disk is full' })

    await expect(useChatStore.getState().send('do not lose me')).resolves.toBe(false)

    const state = useChatStore.getState()
    expect(state.drafts[thread.id]).toBe('do not lose me')
    expect(state.sendError).toBe('Disk is full')
    expect(state.messages).toEqual([])
    expect(state.lastOutcome).toBeNull()
  })

  it('keeps drafts per thread', async () => {
    const a = backend.addThread('A')
    const b = backend.addThread('B')
    useChatStore.getState().setDraft(a.id, 'draft for A')
    await useChatStore.getState().open(b.id)
    await useChatStore.getState().open(a.id)

    expect(useChatStore.getState().drafts[a.id]).toBe('draft for A')
  })

  it('keeps a message’s flags and says why when main refuses a change', async () => {
    const thread = backend.addThread('Notes')
    const [message] = backend.addMessages(thread.id, ['pin me'])
    await useChatStore.getState().open(thread.id)
    backend.failNext('messages:setFlags', { code: 'not_found', message: 'Message not found' })

    await expect(useChatStore.getState().setFlags(message!.id, { pinned: true })).resolves.toBe(
      false
    )

    expect(useChatStore.getState().messages[0]!.pinned).toBe(false)
    expect(useChatStore.getState().flagError).toBe('Message not found')
    await useChatStore.getState().setFlags(message!.id, { pinned: true })
    expect(useChatStore.getState().messages[0]!.pinned).toBe(true)
    expect(useChatStore.getState().flagError).toBeNull()
  })

  it('highlights a revealed message briefly', async () => {
    vi.useFakeTimers()
    const thread = backend.addThread('Notes')
    const [message] = backend.addMessages(thread.id, ['needle'])
    useChatStore.getState().revealMessage(thread.id, message!.id)
    await useChatStore.getState().open(thread.id)
    expect(useChatStore.getState().reveal).toEqual({ threadId: thread.id, messageId: message!.id })

    useChatStore.getState().completeReveal(message!.id)
    expect(useChatStore.getState().highlightedId).toBe(message!.id)

    vi.advanceTimersByTime(HIGHLIGHT_MS)
    expect(useChatStore.getState().highlightedId).toBeNull()
  })
})

describe('search store', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('searches once the typing pauses, with the trimmed text', async () => {
    vi.useFakeTimers()
    const thread = backend.addThread('Recipes')
    backend.addMessages(thread.id, ['dumplings need a hot pan'])
    const { setQuery } = useSearchStore.getState()

    setQuery('d')
    setQuery('dum')
    setQuery('dumplings ')
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1)
    expect(backend.calls.filter((c) => c.channel === 'search:query')).toHaveLength(0)

    await vi.advanceTimersByTimeAsync(1)

    const searches = backend.calls.filter((c) => c.channel === 'search:query')
    expect(searches.map((c) => c.input)).toEqual([{ query: 'dumplings' }])
    expect(useSearchStore.getState().hits).toHaveLength(1)
    expect(useSearchStore.getState().status).toBe('ready')
  })

  it('does not search for blank text and forgets earlier results', async () => {
    vi.useFakeTimers()
    backend.addThread('Recipes')
    useSearchStore.getState().setQuery('recipes')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)
    expect(useSearchStore.getState().hits).toHaveLength(1)

    useSearchStore.getState().setQuery('   ')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)

    expect(backend.calls.filter((c) => c.channel === 'search:query')).toHaveLength(1)
    expect(useSearchStore.getState()).toMatchObject({ hits: [], status: 'idle' })
  })
})

describe('settings store', () => {
  it('persists the inspector state', async () => {
    await useSettingsStore.getState().load()

    await useSettingsStore.getState().setInspectorOpen(false)

    expect(useSettingsStore.getState().settings.inspectorOpen).toBe(false)
    expect(backend.settings.inspectorOpen).toBe(false)
  })

  it('rolls back and explains when saving fails', async () => {
    await useSettingsStore.getState().load()
    backend.failNext('settings:update', { code: 'storage_error', message: 'Read-only disk' })

    await useSettingsStore.getState().setLocale('zh-CN')

    // Back to what is stored: a new store follows the system.
    expect(useSettingsStore.getState().settings.locale).toBe('system')
    expect(useSettingsStore.getState().error).toEqual({ kind: 'save', message: 'Read-only disk' })
    expect(i18n.language).toBe('en')
  })

  it('keeps working with defaults when settings cannot be read', async () => {
    backend.failNext('settings:get', { code: 'internal', message: 'Bridge down' })

    await useSettingsStore.getState().load()

    expect(useSettingsStore.getState().settings).toEqual({
      locale: 'system',
      inspectorOpen: true,
      systemPrompt: '',
      defaultModel: null,
      promptCacheTtl: '5m',
      theme: 'system'
    })
    expect(useSettingsStore.getState().error?.kind).toBe('load')
  })
})
