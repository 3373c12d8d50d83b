/**
 * Last request wins, store by store: main answers late and out of order (the fake backend
 * handles a call at once but holds its answer), and a slower, older answer must never
 * replace what a newer one put on screen.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { MemoryStatus } from '@shared/domain'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useInspectorStore } from '@renderer/features/inspector/inspectorStore'
import { useExtractedStore } from '@renderer/features/memory/extractedStore'
import { useMemoryListStore } from '@renderer/features/memory/memoryListStore'
import { useMemoryStatusStore } from '@renderer/features/memory/memoryStatusStore'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { SEARCH_DEBOUNCE_MS, useSearchStore } from '@renderer/features/threads/searchStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import type { ProviderInput } from '@shared/providers'
import { allAnswered, handledCalls, installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

/** Waits until main has handled one more call on `channel` than it had when `mark` was taken. */
const mark = (channel: string) => {
  const before = backend.handled(channel)
  return () => handledCalls(backend, channel, before + 1)
}

const memories = () => useMemoryListStore.getState()
const contents = () => memories().items.map((memory) => memory.content)

describe('memory manager list', () => {
  beforeEach(async () => {
    await backend.main.memory.create({
      content: 'Prefers oolong tea',
      category: 'user_preference'
    })
    await backend.main.memory.create({ content: 'Release due 30 June', category: 'task' })
  })

  it("shows the new filter's result, never the previous filter's, whatever order they arrive in", async () => {
    await memories().load()
    const releaseAll = backend.holdAnswer('memory:list')
    memories().setCategory('user_preference')
    // The rows on screen are now the previous result: the list says so.
    expect(memories().pending).toBe(true)
    memories().setCategory('task')
    await vi.waitFor(() => expect(memories().pending).toBe(false))
    expect(contents()).toEqual(['Release due 30 June'])

    releaseAll()
    await allAnswered(backend, 'memory:list')
    expect(contents()).toEqual(['Release due 30 June'])
    expect(memories().category).toBe('task')
  })

  it('keeps the newest search when an older one answers last', async () => {
    vi.useFakeTimers()
    await memories().load()
    const releaseOld = backend.holdAnswer('memory:list')
    memories().setQuery('oolong')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)
    memories().setQuery('release')
    expect(memories().pending).toBe(true)
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)
    expect(contents()).toEqual(['Release due 30 June'])

    releaseOld()
    await vi.advanceTimersByTimeAsync(0)
    expect(contents()).toEqual(['Release due 30 June'])
    expect(memories().pending).toBe(false)
  })

  it('does not page on from the previous filter while the new one is on its way', async () => {
    for (let i = 0; i < 120; i++) {
      await backend.main.memory.create({ content: `Fact number ${i}`, category: 'fact' })
    }
    await memories().load()
    expect(memories().items).toHaveLength(100)
    const release = backend.hold('memory:list')
    memories().setCategory('task')
    // "Show more" is still under the pointer; it must not append task rows to fact rows.
    await memories().loadMore()
    release()
    await vi.waitFor(() => expect(memories().pending).toBe(false))
    await allAnswered(backend, 'memory:list')

    expect(contents()).toEqual(['Release due 30 June'])
    expect(memories().total).toBe(1)
  })
})

describe('thread search', () => {
  it('keeps the full-text and semantic results of the newest query when older ones answer last', async () => {
    vi.useFakeTimers()
    const thread = backend.addThread('Notes')
    backend.addMessages(thread.id, ['about tea', 'about coffee'])
    const releaseText = backend.holdAnswer('search:query')
    const releaseSemantic = backend.holdAnswer('memory:search')
    useSearchStore.getState().setQuery('tea')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)
    useSearchStore.getState().setQuery('coffee')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)
    await backend.settled()
    const newest = useSearchStore.getState()
    expect(newest.status).toBe('ready')
    expect(newest.semanticStatus).toBe('ready')

    releaseText()
    releaseSemantic()
    await vi.advanceTimersByTimeAsync(0)
    expect(useSearchStore.getState().hits).toBe(newest.hits)
    expect(useSearchStore.getState().semanticHits).toBe(newest.semanticHits)
    expect(useSearchStore.getState().query).toBe('coffee')
  })
})

describe('thread list', () => {
  it('keeps the newest list when an older one answers last', async () => {
    backend.addThread('First')
    await useThreadsStore.getState().load()
    const releaseOld = backend.holdAnswer('threads:list')
    const oldHandled = mark('threads:list')
    const old = useThreadsStore.getState().load()
    await oldHandled()
    backend.addThread('Second')
    await useThreadsStore.getState().load()
    expect(useThreadsStore.getState().threads.map((t) => t.title)).toEqual(['Second', 'First'])

    releaseOld()
    await old
    expect(useThreadsStore.getState().threads.map((t) => t.title)).toEqual(['Second', 'First'])
  })
})

describe('messages of the open thread', () => {
  it('keeps the newest list after going to another thread and back', async () => {
    const notes = backend.addThread('Notes')
    backend.addMessages(notes.id, ['first'])
    const other = backend.addThread('Other')
    const releaseOld = backend.holdAnswer('messages:list')
    const firstHandled = mark('messages:list')
    const firstVisit = useChatStore.getState().open(notes.id)
    await firstHandled()
    await useChatStore.getState().open(other.id)
    // Sent from elsewhere: main has read this thread, and its copy follows what main stores.
    const sent = await backend.main.messages.send({ threadId: notes.id, content: 'second' })
    expect(sent.ok).toBe(true)
    await useChatStore.getState().open(notes.id)
    expect(useChatStore.getState().messages.map((m) => m.content)).toEqual(['first', 'second'])

    releaseOld()
    await firstVisit
    expect(useChatStore.getState().messages.map((m) => m.content)).toEqual(['first', 'second'])
  })
})

describe('inspector', () => {
  it('keeps the newest preview when an older one answers last', async () => {
    const thread = backend.addThread('Notes')
    useInspectorStore.getState().openThread(thread.id, '')
    await vi.waitFor(() => expect(useInspectorStore.getState().preview).not.toBeNull())
    const releaseOld = backend.holdAnswer('context:preview')
    useInspectorStore.setState({ draft: 'older draft' })
    useInspectorStore.getState().refresh()
    useInspectorStore.setState({ draft: 'newer draft' })
    useInspectorStore.getState().refresh()
    const input = () => useInspectorStore.getState().preview?.messages.at(-1)?.content
    await vi.waitFor(() => expect(input()).toBe('newer draft'))

    releaseOld()
    await allAnswered(backend, 'context:preview')
    expect(input()).toBe('newer draft')
  })

  it("keeps the settings and the history of a thread's latest visit", async () => {
    const notes = backend.addThread('Notes')
    const other = backend.addThread('Other')
    const releaseOld = backend.holdAnswer('context:getConfig')
    const firstHandled = mark('context:getConfig')
    useInspectorStore.getState().openThread(notes.id, '')
    await firstHandled()
    useInspectorStore.getState().openThread(other.id, '')
    // Saved elsewhere (another window, the default for every thread) between the visits.
    backend.setThreadConfig(notes.id, { percentages: { summary: 5, recent: 45 } })
    useInspectorStore.getState().openThread(notes.id, '')
    const recent = () => useInspectorStore.getState().config?.thread?.percentages?.recent
    await vi.waitFor(() => expect(recent()).toBe(45))

    releaseOld()
    await allAnswered(backend, 'context:getConfig')
    expect(recent()).toBe(45)
  })
})

describe('settings', () => {
  it('keeps every change on screen when their answers arrive in reverse order', async () => {
    await useSettingsStore.getState().load()
    const releaseFirst = backend.holdAnswer('settings:update')
    const first = useSettingsStore.getState().setInspectorOpen(false)
    await useSettingsStore.getState().setPromptCacheTtl('1h')
    releaseFirst()
    await first

    expect(useSettingsStore.getState().settings).toMatchObject({
      inspectorOpen: false,
      promptCacheTtl: '1h'
    })
  })

  it('rolls back only the change that failed, not a newer one', async () => {
    await useSettingsStore.getState().load()
    const releaseFirst = backend.holdAnswer('settings:update')
    backend.failNext('settings:update', { code: 'storage_error', message: 'Disk full' })
    const first = useSettingsStore.getState().setInspectorOpen(false)
    await useSettingsStore.getState().setPromptCacheTtl('1h')
    releaseFirst()
    await first

    expect(useSettingsStore.getState().settings).toMatchObject({
      inspectorOpen: true,
      promptCacheTtl: '1h'
    })
    expect(useSettingsStore.getState().error?.message).toBe('Disk full')
    expect(backend.settings).toMatchObject({ inspectorOpen: true, promptCacheTtl: '1h' })
  })
})

describe('providers', () => {
  const provider = (name: string): ProviderInput => ({ kind: 'openai', name, models: [] })

  it('keeps the newest list when change events overtake each other', async () => {
    const stop = useProvidersStore.getState().watch()
    const releaseOld = backend.holdAnswer('providers:list')
    const oneHandled = mark('providers:list')
    // Each save makes main announce providers:changed.
    backend.addProvider(provider('one'))
    await oneHandled()
    backend.addProvider(provider('two'))
    const names = () => useProvidersStore.getState().providers.map((p) => p.name)
    await vi.waitFor(() => expect(names()).toEqual(['one', 'two']))

    releaseOld()
    await allAnswered(backend, 'providers:list')
    expect(names()).toEqual(['one', 'two'])
    stop()
  })
})

describe('memory status', () => {
  it('keeps a status event that is newer than a status read still on its way', async () => {
    const stop = useMemoryStatusStore.getState().watch()
    await vi.waitFor(() => expect(useMemoryStatusStore.getState().status).not.toBeNull())
    const releaseOld = backend.holdAnswer('memory:status')
    await useMemoryStatusStore.getState().saveSettings({ modelFolder: '/models' })
    const fresh: MemoryStatus = {
      ...useMemoryStatusStore.getState().status!,
      index: { ...useMemoryStatusStore.getState().status!.index, pendingMessages: 3 }
    }
    backend.emit('memory:status', fresh)

    releaseOld()
    await allAnswered(backend, 'memory:status')
    expect(useMemoryStatusStore.getState().status).toBe(fresh)
    stop()
  })
})

describe('memories kept on their own, under their message', () => {
  it('shows the newest text when two edits are read back in reverse order', async () => {
    const stop = useExtractedStore.getState().watch()
    const created = await backend.main.memory.create({ content: 'Takes oat milk' })
    if (!created.ok) throw new Error(created.error.message)
    const { id } = created.data.memory
    backend.emit('memory:extracted', { threadId: 'thread', messageId: 7, changes: [created.data] })
    const releaseOld = backend.holdAnswer('memory:origin')
    const soyHandled = mark('memory:origin')
    await backend.api.memory.update({ id, content: 'Takes soy milk' })
    await soyHandled()
    await backend.api.memory.update({ id, content: 'Takes no milk' })
    const note = () => useExtractedStore.getState().byMessage[7]?.[0]?.content
    await vi.waitFor(() => expect(note()).toBe('Takes no milk'))

    releaseOld()
    await allAnswered(backend, 'memory:origin')
    expect(note()).toBe('Takes no milk')
    stop()
  })
})
