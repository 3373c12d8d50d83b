import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { BuiltContext } from '@shared/context'
import type { ContextConfigPatch } from '@shared/contextConfig'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { PREVIEW_DELAY_MS, useInspectorStore } from '@renderer/features/inspector/inspectorStore'
import { watchInspector } from '@renderer/features/inspector/watchInspector'
import { allAnswered, installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

type PreviewInput = { threadId: string; draft: string; whatIf?: ContextConfigPatch }

const inspector = () => useInspectorStore.getState()
const previewCalls = () =>
  backend.calls.filter((c) => c.channel === 'context:preview').map((c) => c.input as PreviewInput)
const lastPreviewCall = () => previewCalls().at(-1)
/** The input is always the last message of a build. */
const inputOf = (build: BuiltContext | null) => build?.messages.at(-1)?.content
/** Lets pending IPC answers (and, with fake timers, due timers) run. */
const settle = () => vi.advanceTimersByTimeAsync(0)

/** A thread open in the inspector with its first preview and settings loaded. */
async function openedThread(contents: string[] = []) {
  const thread = backend.addThread('Notes')
  const messages = backend.addMessages(thread.id, contents)
  inspector().openThread(thread.id, '')
  await vi.waitFor(() => {
    expect(inspector().preview).not.toBeNull()
    expect(inspector().config).not.toBeNull()
  })
  return { thread, messages }
}

describe('inspector store: live preview', () => {
  it('previews the draft of a thread as soon as it opens, with its settings and history', async () => {
    const { thread } = await openedThread(['hello'])

    expect(previewCalls()).toEqual([{ threadId: thread.id, draft: '' }])
    expect(inspector().config?.effective.percentages.recent).toBe(40)
    expect(inspector().builds).toEqual([])
    expect(inspector().preview?.trace.map((entry) => entry.kind)).toEqual([
      'system',
      'message',
      'input'
    ])
  })

  it('coalesces keystrokes into one preview of the latest draft', async () => {
    vi.useFakeTimers()
    const { thread } = await openedThread()
    const { setDraft } = inspector()

    setDraft('H')
    await vi.advanceTimersByTimeAsync(40)
    setDraft('He')
    await vi.advanceTimersByTimeAsync(40)
    setDraft('Hel')
    await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS - 81)
    expect(previewCalls()).toHaveLength(1)

    await vi.advanceTimersByTimeAsync(1)
    await backend.settled()

    expect(previewCalls().slice(1)).toEqual([{ threadId: thread.id, draft: 'Hel' }])
    expect(inputOf(inspector().preview)).toBe('Hel')
  })

  it('keeps up with a steady typist instead of waiting for a pause', async () => {
    vi.useFakeTimers()
    await openedThread()
    const text = 'a steady stream of keys'

    for (let length = 1; length <= text.length; length++) {
      inspector().setDraft(text.slice(0, length))
      await vi.advanceTimersByTimeAsync(30)
    }
    // 23 keystrokes over 690 ms: about one preview per delay, each of the text typed so far.
    const typing = previewCalls().slice(1)
    expect(typing.length).toBeGreaterThanOrEqual(5)
    expect(typing.length).toBeLessThanOrEqual(Math.ceil((text.length * 30) / PREVIEW_DELAY_MS))
    for (const call of typing) expect(text.startsWith(call.draft)).toBe(true)

    await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS)
    await backend.settled()
    expect(inputOf(inspector().preview)).toBe(text)
  })

  it('drops an answer that arrives after a newer one', async () => {
    await openedThread()
    const release = backend.hold('context:preview')
    inspector().setDraft('old text')
    inspector().refresh()
    inspector().setDraft('new text')
    inspector().refresh()
    await vi.waitFor(() => expect(inputOf(inspector().preview)).toBe('new text'))

    release()
    await vi.waitFor(() => expect(previewCalls()).toHaveLength(3))
    await allAnswered(backend, 'context:preview')

    expect(inputOf(inspector().preview)).toBe('new text')
  })

  it('drops an answer for a thread that is no longer open', async () => {
    const { thread: first } = await openedThread(['from the first thread'])
    const second = backend.addThread('Second')
    backend.addMessages(second.id, ['from the second thread'])
    const release = backend.hold('context:preview')
    inspector().refresh()

    inspector().openThread(second.id, '')
    await vi.waitFor(() => expect(inspector().preview).not.toBeNull())
    release()
    await allAnswered(backend, 'context:preview')

    expect(previewCalls().map((call) => call.threadId)).toEqual([first.id, first.id, second.id])
    expect(inspector().threadId).toBe(second.id)
    expect(inspector().preview?.messages.map((m) => m.content)).toContain('from the second thread')
  })

  it('keeps the last preview and reports a failure that is not about the settings', async () => {
    await openedThread()
    const shown = inspector().preview
    backend.failNext('context:preview', { code: 'internal', message: 'Bridge down' })

    inspector().refresh()

    await vi.waitFor(() => expect(inspector().error).toBe('Bridge down'))
    expect(inspector().preview).toBe(shown)
    expect(inspector().configError).toBeNull()
  })
})

describe('inspector store: what-if settings', () => {
  it('previews unsaved settings, then drops them on reset', async () => {
    vi.useFakeTimers()
    await openedThread()

    inspector().changeWhatIf({ totalBudget: 300, percentages: { recent: 35 } })
    await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS)
    await backend.settled()

    expect(lastPreviewCall()?.whatIf).toEqual({ totalBudget: 300, percentages: { recent: 35 } })
    expect(inspector().preview?.tokenStats.budget).toBe(300)
    expect(inspector().preview?.tokenStats.sections.recent.share).toBe(105)

    inspector().resetWhatIf()
    await settle()
    await backend.settled()

    expect(lastPreviewCall()).not.toHaveProperty('whatIf')
    expect(inspector().whatIf).toEqual({})
    // The default model's window (gpt-4o: 128,000) less what it keeps for the reply (16,384),
    // at most the safety net's 85 % of the window.
    expect(inspector().preview?.tokenStats.budget).toBe(108_800)
  })

  it('forgets a change that puts a value back to what it was', async () => {
    await openedThread()

    inspector().changeWhatIf({ percentages: { recent: 30 }, pinning: false })
    inspector().changeWhatIf({ percentages: { recent: 40 } })
    inspector().changeWhatIf({ pinning: true })

    expect(inspector().whatIf).toEqual({})
  })

  it('shows a refused what-if next to the inputs and keeps the last good preview', async () => {
    vi.useFakeTimers()
    await openedThread()
    const good = inspector().preview

    inspector().changeWhatIf({ percentages: { recent: 90 } })
    await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS)
    await backend.settled()

    expect(inspector().configError).toMatch(/add up to 150 %, at most 100 %/)
    expect(inspector().preview).toBe(good)
    expect(inspector().error).toBeNull()

    inspector().changeWhatIf({ percentages: { recent: 35 } })
    await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS)
    await backend.settled()

    expect(inspector().configError).toBeNull()
    // 35 % of the default 108,800-token budget.
    expect(inspector().preview?.tokenStats.sections.recent.share).toBe(38_080)
  })

  it('names the setting when main rejects a value in the what-if itself', async () => {
    vi.useFakeTimers()
    await openedThread()
    backend.failNext('context:preview', {
      code: 'invalid_input',
      message: 'Invalid input',
      issues: [{ path: 'whatIf.totalBudget', message: 'must be at least 1' }]
    })

    inspector().changeWhatIf({ totalBudget: 0 })
    await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS)

    expect(inspector().configError).toBe('totalBudget: must be at least 1')
  })

  it('saves the what-if for the thread, then previews with the stored settings', async () => {
    const { thread } = await openedThread()
    inspector().changeWhatIf({ totalBudget: 500 })

    await expect(inspector().saveConfig('thread')).resolves.toBe(true)

    expect(backend.threadConfig(thread.id)).toEqual({ totalBudget: 500 })
    expect(backend.globalConfig()).toEqual({})
    expect(inspector().whatIf).toEqual({})
    expect(inspector().config?.effective.totalBudget).toBe(500)
    await vi.waitFor(() => expect(inspector().preview?.tokenStats.budget).toBe(500))
    expect(lastPreviewCall()).not.toHaveProperty('whatIf')
  })

  it('saves the what-if as the default for every thread', async () => {
    await openedThread()
    inspector().changeWhatIf({ pinning: false })

    await expect(inspector().saveConfig('global')).resolves.toBe(true)

    expect(backend.globalConfig()).toEqual({ pinning: false })
    expect(inspector().config?.effective.pinning).toBe(false)
  })

  it('keeps the what-if and says why when a save is refused', async () => {
    await openedThread()
    inspector().changeWhatIf({ totalBudget: 700 })
    backend.failNext('context:updateConfig', {
      code: 'invalid_input',
      message: 'percentages: the sections add up to 120 %, at most 100 %'
    })

    await expect(inspector().saveConfig('thread')).resolves.toBe(false)

    expect(inspector().configError).toBe('percentages: the sections add up to 120 %, at most 100 %')
    expect(inspector().whatIf).toEqual({ totalBudget: 700 })
    expect(inspector().saving).toBe(false)
  })
})

describe('inspector store: following the chat', () => {
  it('follows the open thread, its draft, its sends and the builds main reports', async () => {
    const thread = backend.addThread('Notes')
    backend.addMessages(thread.id, ['an older message'])
    await useChatStore.getState().open(thread.id)
    const stop = watchInspector()
    await vi.waitFor(() => expect(inspector().preview).not.toBeNull())

    useChatStore.getState().setDraft(thread.id, 'what would be sent')
    await vi.waitFor(() => expect(inputOf(inspector().preview)).toBe('what would be sent'))

    await useChatStore.getState().send('what would be sent')

    await vi.waitFor(() => expect(inspector().builds).toHaveLength(1))
    const [sent] = backend.buildsOf(thread.id)
    expect(inspector().builds[0]).toEqual(sent)
    expect(inputOf(sent!.context)).toBe('what would be sent')
    // The message is now history and the composer is empty: the preview says so at once.
    await vi.waitFor(() => expect(inputOf(inspector().preview)).toBe(''))
    expect(inspector().preview?.trace.filter((entry) => entry.kind === 'message')).toHaveLength(2)
    stop()
  })

  it('previews again when a message is pinned or excluded', async () => {
    const thread = backend.addThread('Notes')
    const [first, second] = backend.addMessages(thread.id, ['keep this', 'forget this'])
    await useChatStore.getState().open(thread.id)
    const stop = watchInspector()
    await vi.waitFor(() => expect(inspector().preview).not.toBeNull())
    const decisionOf = (id: number) =>
      inspector().preview?.trace.find((entry) => entry.id === String(id))?.decision

    await useChatStore.getState().setFlags(first!.id, { pinned: true })
    await useChatStore.getState().setFlags(second!.id, { excluded: true })

    await vi.waitFor(() => expect(decisionOf(second!.id)).toBe('excluded_by_user'))
    expect(decisionOf(first!.id)).toBe('pinned')
    stop()
  })

  it('starts over on another thread and ignores builds of other threads', async () => {
    const first = backend.addThread('First')
    const second = backend.addThread('Second')
    await useChatStore.getState().open(first.id)
    const stop = watchInspector()
    await vi.waitFor(() => expect(inspector().config).not.toBeNull())
    inspector().changeWhatIf({ totalBudget: 400 })

    await useChatStore.getState().open(second.id)

    expect(inspector().threadId).toBe(second.id)
    expect(inspector().whatIf).toEqual({})
    await useChatStore.getState().send('in the second thread')
    await vi.waitFor(() => expect(inspector().builds).toHaveLength(1))
    backend.emit('context:built', {
      ...backend.buildsOf(second.id)[0]!,
      id: 999,
      threadId: first.id
    })
    expect(inspector().builds).toHaveLength(1)
    stop()
  })

  it('shows a sent build instead of the preview until asked to go back', async () => {
    const { thread } = await openedThread()
    await useChatStore.getState().open(thread.id)
    await useChatStore.getState().send('first')
    const [build] = backend.buildsOf(thread.id)
    inspector().addBuild(build!)

    inspector().showBuild(build!.id)
    expect(inspector().selectedBuildId).toBe(build!.id)

    inspector().changeWhatIf({ totalBudget: 900 })
    expect(inspector().selectedBuildId).toBeNull()
  })
})
