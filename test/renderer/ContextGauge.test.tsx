import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { SECTIONS, type BuiltContext, type StoredBuild } from '@shared/context'
import { ContextGauge } from '@renderer/features/chat/ContextGauge'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { readGauge } from '@renderer/features/chat/gaugeReading'
import { useInspectorStore } from '@renderer/features/inspector/inspectorStore'
import { i18n } from '@renderer/i18n'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { sampleBuild } from './support/sampleBuild'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

const gauge = () => screen.getByTestId('context-gauge')
const gaugeSegments = () => within(screen.getByTestId('gauge-bar')).getAllByTestId('budget-segment')
const usedOf = (element: HTMLElement) => Number(element.dataset.used)

/** The segments' numbers, per section, as the user's screen reader and tests read them. */
const shownSections = () =>
  Object.fromEntries(gaugeSegments().map((s) => [s.dataset.section, usedOf(s)]))
const sectionsOf = (context: BuiltContext) =>
  Object.fromEntries(SECTIONS.map((s) => [s, context.tokenStats.sections[s].used]))

async function openGauge(messages: string[] = ['first message']) {
  const thread = backend.addThread('Gauge')
  backend.addMessages(thread.id, messages)
  await useChatStore.getState().open(thread.id)
  render(<ContextGauge threadId={thread.id} />)
  await vi.waitFor(() => expect(gauge()).toBeInTheDocument())
  return thread
}

/** A model with an 8,000-token window, 2,000 of it kept for the reply (the user's setting). */
const smallWindow = async () => {
  const saved = await backend.main.context.updateConfig({
    scope: 'global',
    patch: { contextWindow: 8_000, outputReserve: 2_000 }
  })
  if (!saved.ok) throw new Error(saved.error.message)
}

const stored = (threadId: string, id: number, createdAt: number, context: BuiltContext) =>
  ({ id, threadId, messageId: null, createdAt, context }) satisfies StoredBuild

describe('the context gauge by the composer', () => {
  it('follows the live preview of the draft: the inspector’s very build, not a second count', async () => {
    const thread = await openGauge()
    expect(gauge()).toHaveAttribute('data-source', 'next')
    const before = usedOf(gauge())

    act(() => useChatStore.getState().setDraft(thread.id, 'a much longer draft '.repeat(30)))

    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'draft'))
    await vi.waitFor(() => expect(usedOf(gauge())).toBeGreaterThan(before))
    const preview = useInspectorStore.getState().preview!
    expect(usedOf(gauge())).toBe(preview.tokenStats.total)
    expect(shownSections()).toEqual(sectionsOf(preview))
    expect(screen.getByTestId('gauge-numbers')).toHaveTextContent(
      `${preview.tokenStats.total.toLocaleString('en')} / ${preview.tokenStats.budget.toLocaleString('en')}`
    )
    // One preview call per change feeds the gauge (and the inspector, when it is open).
    expect(backend.calls.filter((c) => c.channel === 'context:preview').length).toBeLessThan(4)
  })

  it('shows the last sent build once the draft is sent, with the stored build’s numbers', async () => {
    const thread = await openGauge()
    act(() => useChatStore.getState().setDraft(thread.id, 'what is in my context?'))
    await act(() => useChatStore.getState().send('what is in my context?'))

    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'sent'))
    const sent = backend.buildsOf(thread.id).at(-1)!
    expect(usedOf(gauge())).toBe(sent.context.tokenStats.total)
    expect(shownSections()).toEqual(sectionsOf(sent.context))
  })

  it('does not go back to an older build when events arrive out of order', async () => {
    const thread = await openGauge()
    const newer = sampleBuild()
    const older = sampleBuild()
    older.tokenStats = { ...older.tokenStats, total: 5 }

    act(() => backend.emit('context:built', stored(thread.id, 900, 2_000, newer)))
    act(() => backend.emit('context:built', stored(thread.id, 899, 1_000, older)))

    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'sent'))
    expect(usedOf(gauge())).toBe(newer.tokenStats.total)
  })

  it('shows per-section numbers and warnings on keyboard focus, in words', async () => {
    const thread = await openGauge()
    const build = sampleBuild()
    build.metadata.warnings.push({ code: 'request_shrunk', message: 'rebuilt' })
    build.trace.push(
      { id: 'm8', kind: 'memory', section: 'retrieved', tokens: 30, decision: 'dropped_budget' },
      { id: 'm9', kind: 'memory', section: 'retrieved', tokens: 40, decision: 'dropped_budget' }
    )
    act(() => backend.emit('context:built', stored(thread.id, 901, 3_000, build)))
    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'sent'))

    await userEvent.setup().tab()
    expect(screen.getByTestId('gauge-button')).toHaveFocus()
    const details = screen.getByTestId('gauge-details')
    const rows = within(details).getAllByTestId('gauge-section')
    expect(rows.map((row) => [row.dataset.section, usedOf(row)])).toEqual(
      SECTIONS.map((s) => [s, build.tokenStats.sections[s].used])
    )
    expect(rows.find((r) => r.dataset.section === 'recent')).toHaveTextContent('61,000 / 70,000')
    // 85 % of the 128,000-token window falls inside this 111,616-token budget: it is marked.
    expect(screen.getByTestId('gauge-bar-marker').style.left).toBe(`${(108_800 / 111_616) * 100}%`)
    expect(screen.getByTestId('gauge-totals')).toHaveTextContent('safety net at 108,800 (85 %)')
    const notes = screen.getByTestId('gauge-notes')
    expect(notes).toHaveTextContent('Summary in use: it stands for 9,800 older messages.')
    expect(notes).toHaveTextContent('2 memories left out for lack of room.')
    // A code this version does not know falls back to main's English sentence.
    expect(notes).not.toHaveTextContent('inspector.warnings')
    expect(notes).toHaveTextContent('Safety net active: the request is rebuilt')
    expect(screen.getByTestId('gauge-button')).toHaveAttribute('aria-expanded', 'true')

    fireEvent.keyDown(screen.getByTestId('gauge-button'), { key: 'Escape' })
    expect(screen.queryByTestId('gauge-details')).toBeNull()
  })

  it('counts memories and recalled messages apart, and says what budget was left free', async () => {
    const thread = await openGauge()
    const build = sampleBuild()
    build.tokenStats.free = 4_321
    build.recall = {
      scope: 'all',
      fillSpare: false,
      gates: { memory: 0.54, thread: 0.54, message: 0.62 },
      passed: 3,
      rejected: [],
      memories: { items: 1, tokens: 12 },
      thisThread: { items: 0, tokens: 0 },
      otherThreads: { items: 2, tokens: 80 }
    }
    act(() => backend.emit('context:built', stored(thread.id, 902, 3_000, build)))
    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'sent'))
    await userEvent.setup().tab()
    const notes = screen.getByTestId('gauge-notes')
    expect(notes).toHaveTextContent(
      'Recalled: 1 from memories, 0 from earlier in this thread, 2 from other threads'
    )
    expect(notes).toHaveTextContent('4,321 tokens of the budget left free')
  })

  it('opens the inspector at the section that was clicked, on the build the gauge shows', async () => {
    const thread = await openGauge()
    act(() => backend.emit('context:built', stored(thread.id, 902, 3_000, sampleBuild())))
    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'sent'))
    const user = userEvent.setup()

    // By keyboard: the gauge, then its section rows (system, summary, retrieved), Enter.
    await user.tab()
    await user.tab()
    await user.tab()
    await user.tab()
    expect(document.activeElement).toHaveAttribute('data-section', 'retrieved')
    await user.keyboard('{Enter}')

    await vi.waitFor(() =>
      expect(backend.calls).toContainEqual({
        channel: 'settings:update',
        input: { inspectorOpen: true }
      })
    )
    const state = useInspectorStore.getState()
    expect(state.focus?.section).toBe('retrieved')
    expect(state.selectedBuildId).toBe(902)

    // A click on the bar itself opens the segment under the pointer.
    const summary = gaugeSegments().find((s) => s.dataset.section === 'summary')!
    await user.click(summary)
    expect(useInspectorStore.getState().focus?.section).toBe('summary')
    expect(screen.queryByTestId('gauge-details')).toBeNull()
  })

  it('warns before the 85 % safety net acts, and says what gives way', async () => {
    await smallWindow()
    const thread = await openGauge()
    // The net acts at 6,800 tokens of the 8,000-token window; a 6,200-token draft is near.
    act(() => useChatStore.getState().setDraft(thread.id, ' word'.repeat(6_200)))

    const alert = await vi.waitFor(() => screen.getByTestId('gauge-alert'))
    // One warning, and the colour state and the percentage say the same.
    expect(alert.dataset.kind).toMatch(/^(near|over)$/)
    expect(alert).toHaveTextContent('older messages and memories give way')
    expect(gauge()).toHaveAttribute('data-state', alert.dataset.kind)
    expect(screen.getByTestId('gauge-percent').textContent).toMatch(/^\d+ %$/)
  })

  it('offers to attach a draft larger than the input’s share as a file', async () => {
    await smallWindow()
    const thread = await openGauge()
    act(() => useChatStore.getState().setDraft(thread.id, 'log line\n'.repeat(3_000)))
    const attach = await vi.waitFor(() => screen.getByTestId('gauge-attach-draft'))
    expect(attach).toHaveTextContent('Attach as a file')
    await userEvent.setup().click(attach)
    await vi.waitFor(() =>
      expect(backend.calls.find((call) => call.channel === 'files:attach')?.input).toMatchObject({
        threadId: thread.id,
        scope: 'message',
        name: 'pasted-text.txt'
      })
    )
    expect(useChatStore.getState().drafts[thread.id]).toBe('')
  })

  it('does not offer it for a short draft', async () => {
    const thread = await openGauge()
    act(() => useChatStore.getState().setDraft(thread.id, 'a short question'))
    await vi.waitFor(() => expect(gauge()).toHaveAttribute('data-source', 'draft'))
    expect(screen.queryByTestId('gauge-attach-draft')).toBeNull()
  })

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh-CN')
    await openGauge()
    expect(screen.getByTestId('gauge-button')).toHaveAccessibleName(/下一次请求的上下文/)
    await userEvent.setup().hover(gauge())
    expect(screen.getByTestId('gauge-details')).toHaveTextContent('下一次请求（草稿为空）')
  })
})

describe('what the gauge reads from a build', () => {
  const withWarning = (code: 'request_shrunk' | 'input_trimmed'): BuiltContext => {
    const build = sampleBuild()
    build.metadata.warnings = [{ code, message: '' }]
    return build
  }

  it('says a draft would be rebuilt smaller, naming how many messages give way', () => {
    const reading = readGauge('draft', withWarning('request_shrunk'), null)!
    expect(reading.alert).toEqual({
      kind: 'wouldShrink',
      limit: 108_800,
      dropped: sampleBuild().metadata.droppedMessageCount
    })
  })

  it('says a draft would be trimmed to its ends, with what is sent of it', () => {
    const build = withWarning('input_trimmed')
    const input = build.trace.find((entry) => entry.id === 'input')!
    expect(readGauge('draft', build, null)!.alert).toEqual({
      kind: 'wouldTrim',
      sent: input.tokens
    })
  })

  const withTotal = (total: number): BuiltContext => {
    const build = sampleBuild()
    build.tokenStats = { ...build.tokenStats, total }
    return build
  }

  it('reads ok, near and over from the budget, with one matching warning', () => {
    const { budget } = sampleBuild().tokenStats
    const ok = readGauge('draft', withTotal(Math.floor(budget * 0.5)), null)!
    expect([ok.state, ok.alert]).toEqual(['ok', null])
    // 99 % of the budget but far below the safety net: still a warning (it used to say nothing).
    const near = readGauge('draft', withTotal(Math.floor(budget * 0.99)), null)!
    expect(near.state).toBe('near')
    expect(near.alert).toMatchObject({ kind: 'near', percent: 99 })
    // Over the budget while under the safety net: "over", never "near" beside an over-budget total.
    const over = readGauge('draft', withTotal(Math.ceil(budget * 1.1)), null)!
    expect(over.state).toBe('over')
    expect(over.alert).toMatchObject({ kind: 'over', percent: 110 })
  })

  it('never warns about a request that was already sent; it reports what the net did instead', () => {
    const sent = stored('t', 1, 1, withWarning('request_shrunk'))
    const reading = readGauge('', null, sent)!
    expect(reading.source).toBe('sent')
    expect(reading.alert).toBeNull()
    expect(reading.safetyNet).toEqual(['request_shrunk'])
  })
})
