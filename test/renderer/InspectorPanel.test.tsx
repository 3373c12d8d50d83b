import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { RecallSummary } from '@shared/context'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { BudgetBar } from '@renderer/features/inspector/BudgetBar'
import { BuildMetadata } from '@renderer/features/inspector/BuildMetadata'
import { InspectorPanel } from '@renderer/features/inspector/InspectorPanel'
import { PayloadView } from '@renderer/features/inspector/PayloadView'
import { RecallExplain } from '@renderer/features/inspector/RecallExplain'
import { SectionLegend } from '@renderer/features/inspector/SectionLegend'
import { TraceList } from '@renderer/features/inspector/TraceList'
import { useInspectorStore } from '@renderer/features/inspector/inspectorStore'
import { i18n } from '@renderer/i18n'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { sampleBuild } from './support/sampleBuild'

/** Runs `check` with the interface in Chinese, and puts English back whatever it finds. */
async function inChinese(check: () => void): Promise<void> {
  await act(() => i18n.changeLanguage('zh-CN'))
  try {
    check()
  } finally {
    await act(() => i18n.changeLanguage('en'))
  }
}

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

const items = () => screen.getAllByTestId('trace-item')
const item = (id: string) => items().find((element) => element.dataset.id === id)!
const numeric = (element: HTMLElement, name: string) => Number(element.getAttribute(name))

describe('budget bar and section rows', () => {
  it('draws one segment per section, sized by what it used against the total budget', () => {
    const build = sampleBuild()
    render(<BudgetBar stats={build.tokenStats} />)

    const segments = screen.getAllByTestId('budget-segment')
    expect(segments.map((segment) => segment.dataset.section)).toEqual([
      'system',
      'summary',
      'retrieved',
      'recent',
      'input',
      'pinning',
      'attachments',
      'tools'
    ])
    const recent = segments.find((segment) => segment.dataset.section === 'recent')!
    expect(numeric(recent, 'data-used')).toBe(61_000)
    expect(parseFloat(recent.style.width)).toBeCloseTo((61_000 / 111_616) * 100, 5)
    expect(screen.getByText('62,298 of 111,616 tokens')).toBeInTheDocument()
    expect(screen.getByText('128,000-token window · 16,384 kept for the reply')).toBeInTheDocument()
  })

  it('says when the automatic budget stopped at the safety net, so its figures add up', async () => {
    const build = sampleBuild()
    render(<BudgetBar stats={{ ...build.tokenStats, budget: 108_800 }} />)
    expect(screen.getByText(/of 108,800 tokens/)).toBeInTheDocument()
    expect(
      screen.getByText(
        '128,000-token window · 16,384 kept for the reply · budget capped at 85 % by the safety net'
      )
    ).toBeInTheDocument()
    await inChinese(() => {
      expect(screen.getByText(/预算以安全网的 85 % 为上限/)).toBeInTheDocument()
    })
  })

  it('draws file chunks and tool schemas in their own colours', () => {
    const build = sampleBuild()
    build.tokenStats.sections.attachments = {
      share: 11_161,
      budget: 20_000,
      used: 18_000,
      items: 4
    }
    build.tokenStats.sections.tools = { share: 5_580, budget: 5_580, used: 2_400, items: 9 }
    render(<BudgetBar stats={build.tokenStats} />)
    const segment = (section: string) =>
      screen.getAllByTestId('budget-segment').find((s) => s.dataset.section === section)!
    expect(parseFloat(segment('attachments').style.width)).toBeCloseTo((18_000 / 111_616) * 100, 5)
    expect(segment('tools')).toHaveAttribute('title', 'Tools: 2,400 of 5,580 tokens')
  })

  it('widens to the total and marks the budget when a mandatory item goes over', () => {
    const build = sampleBuild()
    build.tokenStats.total = 200_000
    const { container } = render(<BudgetBar stats={build.tokenStats} />)

    const limit = container.querySelector<HTMLElement>('.budget-bar__limit')
    expect(parseFloat(limit!.style.left)).toBeCloseTo((111_616 / 200_000) * 100, 5)
  })

  it('lists used against budget and the item count for every section', () => {
    render(<SectionLegend stats={sampleBuild().tokenStats} />)

    const rows = screen.getAllByTestId('section-row')
    expect(rows).toHaveLength(8)
    const recent = rows.find((row) => row.dataset.section === 'recent')!
    expect(numeric(recent, 'data-used')).toBe(61_000)
    expect(numeric(recent, 'data-budget')).toBe(70_000)
    expect(recent).toHaveTextContent('Recent')
    expect(recent).toHaveTextContent('61,000 / 70,000')
    expect(recent).toHaveTextContent('3 items')
    const pinning = rows.find((row) => row.dataset.section === 'pinning')!
    expect(pinning).toHaveTextContent('48 / 48')
    expect(pinning).toHaveTextContent('1 item')
  })
})

describe('metadata and warnings', () => {
  it('shows the counts and translates warnings by code, falling back to main’s English', () => {
    render(<BuildMetadata metadata={sampleBuild().metadata} />)

    const metadata = screen.getByTestId('build-metadata')
    expect(metadata).toHaveTextContent('Sent3')
    expect(metadata).toHaveTextContent('Dropped9,801')
    expect(metadata).toHaveTextContent('Summarised9,800')
    expect(metadata).toHaveTextContent('Retrieved1')
    // Words, not identifiers: how tokens were counted and which engine built the request.
    expect(metadata).toHaveTextContent(
      'summary used · gpt-4o · exact token count · standard engine'
    )
    const [known, unknown] = screen.getAllByTestId('build-warning')
    expect(known).toHaveAttribute('data-code', 'summary_truncated')
    expect(known).toHaveTextContent('The summary was shortened or left out to fit its budget.')
    expect(known).toHaveAttribute('title', 'The summary needs 1,300 tokens; it was cut to 1,200.')
    expect(unknown).toHaveTextContent('Something new happened.')
  })
})

/** A gated build's recall with nothing placed, as the inspector receives it. */
/** The inspector's line `testId` reads `en`, and `zh` once the UI is in Chinese. */
async function expectLine(testId: string, en: string, zh: string): Promise<void> {
  expect(screen.getByTestId(testId)).toHaveTextContent(en)
  await inChinese(() => {
    expect(screen.getByTestId(testId)).toHaveTextContent(zh)
  })
}

function recallOf(overrides: Partial<RecallSummary>): RecallSummary {
  return {
    scope: 'all',
    fillSpare: false,
    gates: { memory: 0.54, thread: 0.54, message: 0.62 },
    passed: 0,
    memories: { items: 0, tokens: 0 },
    thisThread: { items: 0, tokens: 0 },
    otherThreads: { items: 0, tokens: 0 },
    rejected: [],
    ...overrides
  }
}

describe('what recall left out', () => {
  it('says whether a candidate missed the gate or came past the search’s limit', async () => {
    const recall = recallOf({
      passed: 2,
      otherThreads: { items: 2, tokens: 412 },
      rejected: [
        { id: 'message:7', relevance: 0.631, gate: 0.62, overLimit: 2, preview: 'Kyoto in May' },
        { id: 'message:8', relevance: 0.63, gate: 0.62, overTokens: 1240, preview: 'Osaka' },
        { id: 'message:9', relevance: 0.58, gate: 0.62, preview: 'A trip to Lisbon' }
      ]
    })
    render(<RecallExplain build={{ ...sampleBuild(), recall }} />)
    const [past, spent, under] = screen.getAllByTestId('recall-rejected')
    expect(past).toHaveTextContent('relevance 0.63 ≥ gate 0.62, past this search’s limit of 2')
    expect(spent).toHaveTextContent(
      'relevance 0.63 ≥ gate 0.62, past this search’s allowance of 1,240 tokens'
    )
    expect(under).toHaveTextContent('relevance 0.58 < gate 0.62')
    expect(screen.getByText('The 3 best candidates left out')).toBeInTheDocument()
    await inChinese(() => {
      const [pastZh, spentZh] = screen.getAllByTestId('recall-rejected')
      expect(pastZh).toHaveTextContent('相关度 0.63 ≥ 门槛 0.62，但超出本次检索的 2 条上限')
      expect(spentZh).toHaveTextContent(
        '相关度 0.63 ≥ 门槛 0.62，但超出本次检索的 1,240 个 token 额度'
      )
    })
  })
})

describe('a relevance just under its gate', () => {
  it('shows a third decimal rather than "0.66 < gate 0.66"', () => {
    const recall = recallOf({
      rejected: [
        { id: 'message:3', relevance: 0.657, gate: 0.66, preview: 'Why the borrow checker' }
      ]
    })
    render(<RecallExplain build={{ ...sampleBuild(), recall }} />)
    expect(screen.getByTestId('recall-rejected')).toHaveTextContent('relevance 0.657 < gate 0.660')
  })
})

describe('a name nothing mentions', () => {
  const recall = (absentNames?: string[]) =>
    recallOf({
      gates: { memory: 0.54, thread: 0.54, message: 0.7 },
      rejected: [{ id: 'message:7', relevance: 0.634, gate: 0.7, preview: 'Painting on weekends' }],
      ...(absentNames && { absentNames })
    })

  it('says which names no candidate mentions and the bar other threads needed', async () => {
    render(<RecallExplain build={{ ...sampleBuild(), recall: recall(['Caroline']) }} />)
    await expectLine(
      'recall-absent-names',
      'Nothing found mentions “Caroline”, so messages from other threads needed relevance 0.70',
      '找到的内容都没有提到 “Caroline”，因此其他对话的消息须达到相关度 0.70'
    )
  })

  it('says nothing of names when the question had none that were missing', () => {
    render(<RecallExplain build={{ ...sampleBuild(), recall: recall() }} />)
    expect(screen.getByTestId('recall-summary')).toBeInTheDocument()
    expect(screen.queryByTestId('recall-absent-names')).toBeNull()
    expect(screen.queryByTestId('recall-conversation-best')).toBeNull()
  })
})

describe('a conversation that already holds it', () => {
  it('says how relevant this conversation’s best was, the bar other threads needed', async () => {
    const recall = recallOf({
      gates: { memory: 0.54, thread: 0.54, message: 0.812 },
      rejected: [{ id: 'message:9', relevance: 0.77, gate: 0.812, preview: 'After work I run' }],
      conversationBest: 0.812
    })
    render(<RecallExplain build={{ ...sampleBuild(), recall }} />)
    await expectLine(
      'recall-conversation-best',
      'This conversation already holds a message of relevance 0.81, so messages from other threads needed as much',
      '本对话中已有相关度 0.81 的消息，因此其他对话的消息也须达到这一相关度'
    )
  })
})

describe('a question about the user', () => {
  it('says how other threads’ messages were weighed by who wrote them', async () => {
    const recall = recallOf({
      rejected: [{ id: 'message:4', relevance: 0.544, gate: 0.62, preview: 'Look for cushioned' }],
      aboutTheUser: { own: 0.02, reply: 0.14 }
    })
    render(<RecallExplain build={{ ...sampleBuild(), recall }} />)
    await expectLine(
      'recall-about-the-user',
      'You asked about yourself: in other threads your own messages counted 0.02 more relevant and the assistant’s replies 0.14 less, and replies did not come along with your messages',
      '你问的是你自己的事：其他对话中你自己的消息相关度加 0.02，助手的回复减 0.14，回复也不随你的消息一起带上'
    )
  })

  it('says nothing of it for a question that is not about the user', () => {
    render(<RecallExplain build={{ ...sampleBuild(), recall: recallOf({}) }} />)
    expect(screen.getByTestId('recall-summary')).toBeInTheDocument()
    expect(screen.queryByTestId('recall-about-the-user')).toBeNull()
  })
})

describe('trace', () => {
  it('groups candidates by section, newest message first, with translated decisions', () => {
    render(<TraceList build={sampleBuild()} editable />)

    expect(items().map((element) => element.dataset.id)).toEqual([
      'system',
      'summary',
      'm1',
      'm2',
      '9805',
      '9804',
      '9803',
      '9802',
      '9801',
      'input',
      'pinning'
    ])
    const badge = (id: string) => item(id).querySelector('.decision')!
    expect(badge('9805')).toHaveTextContent('included')
    expect(badge('9803')).toHaveTextContent('pinned')
    expect(badge('9802')).toHaveTextContent('excluded by you')
    expect(badge('9801')).toHaveTextContent('dropped: budget')
    expect(badge('m2')).toHaveTextContent('duplicate')
    expect(item('9801')).toHaveAttribute('data-decision', 'dropped_budget')
    expect(item('9805')).toHaveAttribute('data-tokens', '60927')
    expect(item('9805')).toHaveTextContent('#9,805 · Tool')
    expect(item('9805')).toHaveTextContent('60,927')
    expect(item('9804')).toHaveTextContent('tool-call group of 2')
    expect(item('m1')).toHaveTextContent('The user prefers pnpm over npm.')
    expect(item('m1')).toHaveTextContent('score 0.81 · memory')
    expect(item('summary')).toHaveTextContent('Thread summary')
    expect(item('summary')).toHaveTextContent('truncated from 1300 tokens')
  })

  it('shows a collapsed range as one row', () => {
    render(<TraceList build={sampleBuild()} editable />)

    const [range] = screen.getAllByTestId('collapsed-range')
    expect(range).toHaveTextContent('Messages #1–#9,800: 9,800 covered by the summary')
    expect(range).toHaveAttribute('data-decision', 'covered_by_summary')
  })

  it('mounts long sections a page at a time', async () => {
    const build = sampleBuild()
    build.trace = Array.from({ length: 250 }, (_, index) => ({
      id: String(index + 1),
      kind: 'message' as const,
      section: 'recent' as const,
      tokens: 5,
      decision: 'included' as const,
      seq: index + 1,
      role: 'user' as const
    }))
    render(<TraceList build={build} editable />)
    expect(items()).toHaveLength(100)
    expect(items()[0]).toHaveAttribute('data-id', '250')

    await userEvent.setup().click(screen.getByRole('button', { name: 'Show 100 more' }))

    expect(items()).toHaveLength(200)
    expect(screen.getByRole('button', { name: 'Show 50 more' })).toBeInTheDocument()
  })

  it('scrolls the chat to a message when its item is clicked', async () => {
    const thread = backend.addThread('Notes')
    const [message] = backend.addMessages(thread.id, ['Find me in the chat'])
    await useChatStore.getState().open(thread.id)
    const build = sampleBuild()
    build.trace.push({
      id: String(message!.id),
      kind: 'message',
      section: 'recent',
      tokens: 8,
      decision: 'included',
      seq: 1,
      role: 'user'
    })
    render(<TraceList build={build} editable />)

    // The row shows the stored message's words, which the trace itself does not carry.
    expect(item(String(message!.id))).toHaveTextContent('Find me in the chat')
    await userEvent
      .setup()
      .click(within(item(String(message!.id))).getByRole('button', { name: /#1/ }))

    expect(useChatStore.getState().reveal).toEqual({ threadId: thread.id, messageId: message!.id })
  })
})

describe('payload', () => {
  it('shows every message exactly as sent, whitespace and tool calls included', () => {
    const build = sampleBuild()
    render(<PayloadView messages={build.messages} />)

    const messages = screen.getAllByTestId('payload-message')
    expect(messages.map((message) => message.dataset.role)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'tool',
      'user'
    ])
    expect(messages[2]!.querySelector('pre')!.textContent).toBe('Please read  src/a.ts\n\n  twice')
    expect(messages[3]).toHaveTextContent('calls read_file (call_1)')
    expect(messages[3]).toHaveTextContent('{"path":"src/a.ts"}')
    expect(messages[4]).toHaveTextContent('result of call_1')
  })

  it('copies the messages as JSON', async () => {
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    const build = sampleBuild()
    render(<PayloadView messages={build.messages} />)

    await user.click(screen.getByTestId('payload-copy'))

    expect(writeText).toHaveBeenCalledWith(JSON.stringify(build.messages, null, 2))
    expect(screen.getByTestId('payload-copy')).toHaveTextContent('Copied')
  })
})

describe('inspector panel', () => {
  async function openPanel(contents: string[]) {
    const thread = backend.addThread('Notes')
    const messages = backend.addMessages(thread.id, contents)
    await useChatStore.getState().open(thread.id)
    const user = userEvent.setup()
    render(<InspectorPanel />)
    await screen.findAllByTestId('trace-item')
    return { thread, messages, user }
  }

  it('is resized from its edge with the keyboard, and remembers the width', async () => {
    const user = userEvent.setup()
    render(<InspectorPanel />)
    const panel = screen.getByTestId('inspector-panel')
    const edge = screen.getByRole('separator', { name: 'Resize the inspector' })
    expect(panel.style.width).toBe('360px')

    edge.focus()
    await user.keyboard('{ArrowLeft}{ArrowLeft}')

    expect(panel.style.width).toBe('392px')
    expect(edge).toHaveAttribute('aria-valuenow', '392')
    expect(localStorage.getItem('inspector.width')).toBe('392')
  })

  it('says which thread to open when none is', () => {
    render(<InspectorPanel />)
    expect(screen.getByTestId('inspector-panel')).toHaveTextContent('No thread open')
  })

  it('shows the live preview of the draft as the user types', async () => {
    const { thread } = await openPanel(['first message'])
    const source = screen.getByTestId('inspector-source')
    expect(source).toHaveAttribute('data-source', 'preview')
    // Nothing typed: the preview says it is of the next request, not the last one sent.
    expect(source).toHaveTextContent('Preview of the next request (your draft is empty)')
    const inputTokens = () => numeric(item('input'), 'data-tokens')
    const before = inputTokens()

    act(() => useChatStore.getState().setDraft(thread.id, 'a much longer draft than before'))
    expect(source).toHaveTextContent('Live preview of your draft')

    await vi.waitFor(() => expect(inputTokens()).toBeGreaterThan(before))
    const inputRow = screen
      .getAllByTestId('section-row')
      .find((row) => row.dataset.section === 'input')!
    expect(numeric(inputRow, 'data-used')).toBe(inputTokens())
  })

  it('pins and excludes from the trace, and the chat and the next preview follow', async () => {
    const { messages, user } = await openPanel(['pin me', 'leave me out'])
    const [pinned, excluded] = messages

    await user.click(within(item(String(pinned!.id))).getByTestId('trace-pin'))
    await vi.waitFor(() =>
      expect(item(String(pinned!.id))).toHaveAttribute('data-decision', 'pinned')
    )
    await user.click(within(item(String(excluded!.id))).getByTestId('trace-exclude'))
    await vi.waitFor(() =>
      expect(item(String(excluded!.id))).toHaveAttribute('data-decision', 'excluded_by_user')
    )

    const flagCalls = backend.calls.filter((call) => call.channel === 'messages:setFlags')
    expect(flagCalls.map((call) => call.input)).toEqual([
      { id: pinned!.id, pinned: true },
      { id: excluded!.id, excluded: true }
    ])
    const chat = useChatStore.getState().messages
    expect(chat.find((m) => m.id === pinned!.id)?.pinned).toBe(true)
    expect(chat.find((m) => m.id === excluded!.id)?.excluded).toBe(true)
    expect(within(item(String(pinned!.id))).getByTestId('trace-pin')).toHaveAttribute(
      'aria-pressed',
      'true'
    )
  })

  it('shows the exact payload of the draft', async () => {
    const { thread, user } = await openPanel(['earlier'])
    act(() => useChatStore.getState().setDraft(thread.id, 'line one\n  line two'))
    await vi.waitFor(() =>
      expect(useInspectorStore.getState().preview?.messages.at(-1)?.content).toBe(
        'line one\n  line two'
      )
    )

    await user.click(screen.getByTestId('payload-toggle'))

    const last = screen.getAllByTestId('payload-message').at(-1)!
    expect(last).toHaveAttribute('data-role', 'user')
    expect(last.querySelector('pre')!.textContent).toBe('line one\n  line two')
  })

  it('edits the attachments and tools shares and the window policy as a what-if', async () => {
    const { user } = await openPanel(['a', 'b'])
    await user.click(screen.getByTestId('tab-settings'))
    const share = (section: string) =>
      screen.getAllByTestId('percentage-input').find((input) => input.dataset.section === section)!
    expect(share('attachments')).toHaveValue(10)
    expect(share('tools')).toHaveValue(5)

    fireEvent.change(share('attachments'), { target: { value: '25' } })
    expect(screen.getByTestId('percentage-sum')).toHaveTextContent('Sum 115 %: at most 100 %')
    fireEvent.change(share('recent'), { target: { value: '25' } })
    expect(screen.getByTestId('percentage-sum')).toHaveTextContent('Sum 100 %')

    const toggle = screen.getByTestId('chunked-window-toggle')
    expect(toggle).toBeChecked()
    await user.click(toggle)
    expect(toggle).not.toBeChecked()
    await vi.waitFor(() => {
      const previews = backend.calls.filter((call) => call.channel === 'context:preview')
      expect(previews.at(-1)?.input).toMatchObject({
        whatIf: { percentages: { attachments: 25, recent: 25 }, window: { policy: 'sliding' } }
      })
    })
    await user.click(toggle)
    await vi.waitFor(() => {
      const previews = backend.calls.filter((call) => call.channel === 'context:preview')
      expect(previews.at(-1)?.input).toMatchObject({
        whatIf: { percentages: { attachments: 25, recent: 25 } }
      })
      expect((previews.at(-1)?.input as { whatIf: object }).whatIf).not.toHaveProperty('window')
    })
  })

  it('edits the budget as a what-if, flags an invalid sum and resets', async () => {
    const { user } = await openPanel(['a', 'b'])
    await user.click(screen.getByTestId('tab-settings'))
    const recent = screen
      .getAllByTestId('percentage-input')
      .find((input) => input.dataset.section === 'recent')!
    expect(recent).toHaveValue(40)
    expect(screen.getByTestId('percentage-sum')).toHaveTextContent('Sum 100 %')
    expect(screen.queryByTestId('whatif-reset')).toBeNull()
    expect(screen.getByTestId('save-thread-config')).toBeDisabled()

    fireEvent.change(recent, { target: { value: '90' } })

    expect(screen.getByTestId('percentage-sum')).toHaveAttribute('data-invalid', 'true')
    expect(screen.getByTestId('percentage-sum')).toHaveTextContent('Sum 150 %: at most 100 %')
    expect(await screen.findByTestId('config-error')).toHaveTextContent('at most 100 %')
    expect(screen.getByTestId('inspector-source')).toHaveTextContent(
      'Live preview with unsaved budget settings'
    )

    fireEvent.change(recent, { target: { value: '35' } })
    fireEvent.change(screen.getByTestId('total-budget-input'), { target: { value: '2000' } })
    await vi.waitFor(() => expect(screen.queryByTestId('config-error')).toBeNull())
    await vi.waitFor(() =>
      expect(numeric(screen.getByTestId('budget-bar'), 'data-budget')).toBe(2_000)
    )
    expect(screen.getByTestId('percentage-sum')).toHaveTextContent('Sum 95 %: 5 % left unallocated')

    await user.click(screen.getByTestId('whatif-reset'))

    expect(recent).toHaveValue(40)
    expect(screen.getByTestId('total-budget-input')).toHaveValue(null)
    // The default model's window (gpt-4o: 128,000) less what it keeps for the reply (16,384),
    // at most the safety net's 85 %: what the placeholder says is what the build uses.
    expect(screen.getByTestId('total-budget-input')).toHaveAttribute('placeholder', 'Auto: 108,800')
    await vi.waitFor(() =>
      expect(numeric(screen.getByTestId('budget-bar'), 'data-budget')).toBe(108_800)
    )
  })

  it('saves the settings for the thread and names what the thread overrides', async () => {
    const { thread, user } = await openPanel(['a'])
    await user.click(screen.getByTestId('tab-settings'))

    await user.click(screen.getByTestId('pinning-toggle'))
    await user.click(screen.getByTestId('save-thread-config'))

    expect(backend.threadConfig(thread.id)).toEqual({ pinning: false })
    expect(screen.getByTestId('pinning-toggle')).not.toBeChecked()
    expect(screen.getByTestId('save-thread-config')).toBeDisabled()
    expect(screen.getByTestId('thread-overrides')).toHaveTextContent(
      'This thread has its own settings for: current-goal block.'
    )
  })

  it('shows the last request as sent while the draft is empty, the live preview once typed', async () => {
    const { thread, user } = await openPanel(['a'])
    await act(() => useChatStore.getState().send('second message'))
    const source = screen.getByTestId('inspector-source')
    await vi.waitFor(() => expect(source).toHaveAttribute('data-source', 'sent'))
    expect(source).toHaveTextContent('Last request as sent')
    const [sent] = backend.buildsOf(thread.id)
    const used = () => numeric(screen.getByTestId('budget-bar'), 'data-used')
    const lastPayload = () => screen.getAllByTestId('payload-message').at(-1)
    expect(used()).toBe(sent!.context.tokenStats.total)
    // A sent request is a record: nothing to pin or exclude in it.
    expect(screen.queryByTestId('trace-pin')).toBeNull()

    act(() => useChatStore.getState().setDraft(thread.id, 'a much longer new question than before'))
    await vi.waitFor(() => expect(source).toHaveAttribute('data-source', 'preview'))
    expect(source).toHaveTextContent('Live preview of your draft')
    await vi.waitFor(() => expect(used()).toBeGreaterThan(sent!.context.tokenStats.total))
    expect(screen.getAllByTestId('trace-pin').length).toBeGreaterThan(0)

    // Emptied again: back to the request as it was sent.
    act(() => useChatStore.getState().setDraft(thread.id, ''))
    await vi.waitFor(() => expect(source).toHaveAttribute('data-source', 'sent'))
    await user.click(screen.getByTestId('payload-toggle'))
    expect(lastPayload()).toHaveTextContent('second message')

    await act(() => i18n.changeLanguage('zh-CN'))
    expect(source).toHaveTextContent('上次发送的请求')
  })

  it('lists the sent builds, shows one, and goes back to the last sent request', async () => {
    const { thread, user } = await openPanel(['a'])
    await act(() => useChatStore.getState().send('second message'))
    await act(() => useChatStore.getState().send('third message'))
    await user.click(screen.getByTestId('tab-history'))

    const history = await screen.findAllByTestId('history-item')
    expect(history).toHaveLength(2)
    // System prompt, 'a', 'second message' and the input.
    expect(history[0]).toHaveTextContent('4 messages')
    await user.click(history[1]!)

    const source = screen.getByTestId('inspector-source')
    expect(source).toHaveAttribute('data-source', 'history')
    expect(source).toHaveTextContent('Sent build')
    await user.click(screen.getByTestId('payload-toggle'))
    expect(screen.getAllByTestId('payload-message').at(-1)).toHaveTextContent('second message')
    await user.click(screen.getByTestId('tab-items'))
    expect(screen.queryByTestId('trace-pin')).toBeNull()

    await user.click(screen.getByTestId('back-to-preview'))

    expect(screen.getByTestId('inspector-source')).toHaveAttribute('data-source', 'sent')
    act(() => useChatStore.getState().setDraft(thread.id, 'next'))
    await vi.waitFor(() =>
      expect(screen.getByTestId('inspector-source')).toHaveAttribute('data-source', 'preview')
    )
    expect(screen.getAllByTestId('trace-pin').length).toBeGreaterThan(0)
  })

  it('speaks Chinese', async () => {
    await openPanel(['你好'])
    await act(() => i18n.changeLanguage('zh-CN'))

    expect(screen.getByTestId('inspector-source')).toHaveTextContent('下一次请求的预览（草稿为空）')
    expect(screen.getByTestId('tab-items')).toHaveTextContent('条目')
    expect(screen.getByTestId('payload-toggle')).toHaveTextContent('请求内容')
    expect(item('input').querySelector('.decision')).toHaveTextContent('已包含')
    expect(screen.getByTestId('budget-bar').previousElementSibling).toHaveTextContent(
      '上下文窗口 128,000 · 为回复保留 16,384'
    )
  })
})
