import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { SECTIONS, type BuiltContext, type StoredBuild } from '@shared/context'
import { ThreadSidebar } from '@renderer/features/threads/ThreadSidebar'
import { useThreadStatsStore } from '@renderer/features/threads/threadStatsStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { i18n } from '@renderer/i18n'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { sampleBuild } from './support/sampleBuild'
import { expectStillAfter } from '../support/poll'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

const renderSidebar = async () => {
  await useThreadsStore.getState().load()
  render(<ThreadSidebar />)
}

const row = (threadId: string) => {
  const item = screen
    .getAllByTestId('thread-item')
    .find((element) => element.dataset.threadId === threadId)
  if (!item) throw new Error(`no row for ${threadId}`)
  return item
}
const statsOf = (threadId: string) => within(row(threadId)).getByTestId('thread-stats')
const segmentsOf = (threadId: string) =>
  Object.fromEntries(
    within(row(threadId))
      .getAllByTestId('budget-segment')
      .map((segment) => [segment.dataset.section, Number(segment.dataset.used)])
  )
const sectionsOf = (context: BuiltContext) =>
  Object.fromEntries(SECTIONS.map((s) => [s, context.tokenStats.sections[s].used]))
const titles = () => screen.getAllByTestId('thread-title').map((title) => title.textContent)

const send = async (threadId: string, content: string) => {
  const result = await window.api.messages.send({ threadId, content })
  if (!result.ok) throw new Error(result.error.message)
}
const lastBuildOf = (threadId: string) => backend.buildsOf(threadId).at(-1)!
const built = (threadId: string, id: number, context: BuiltContext): StoredBuild => ({
  id,
  threadId,
  messageId: null,
  createdAt: 1_000 + id,
  context
})

describe('the per-thread bars in the sidebar', () => {
  it('draws each thread’s last stored build, section by section, with its total in words', async () => {
    const a = backend.addThread('Long one')
    const b = backend.addThread('Short one')
    const never = backend.addThread('Never sent')
    await send(a.id, 'tell me everything about budgets '.repeat(50))
    await send(b.id, 'hi')

    await renderSidebar()

    for (const thread of [a, b]) {
      const stored = lastBuildOf(thread.id)
      expect(segmentsOf(thread.id)).toEqual(sectionsOf(stored.context))
      expect(statsOf(thread.id)).toHaveAttribute(
        'data-used',
        String(stored.context.tokenStats.total)
      )
      const { total, budget } = stored.context.tokenStats
      expect(statsOf(thread.id)).toHaveTextContent(
        `Last request ${total.toLocaleString('en')} of ${budget.toLocaleString('en')} tokens`
      )
    }
    expect(statsOf(never.id)).toHaveTextContent('Nothing sent yet')
  })

  it('follows the build event of a send, and never goes back to an older build', async () => {
    const thread = backend.addThread('Live')
    await send(thread.id, 'first')
    await renderSidebar()
    const first = lastBuildOf(thread.id)

    await act(() => send(thread.id, 'a second message, much longer than the first '.repeat(20)))
    const second = lastBuildOf(thread.id)
    await vi.waitFor(() =>
      expect(statsOf(thread.id)).toHaveAttribute('data-build-id', String(second.id))
    )
    expect(segmentsOf(thread.id)).toEqual(sectionsOf(second.context))

    // Events overtaking each other: the older build arrives last and is ignored.
    const newest = sampleBuild()
    act(() => backend.emit('context:built', built(thread.id, 500, newest)))
    act(() => backend.emit('context:built', built(thread.id, 499, first.context)))
    expect(statsOf(thread.id)).toHaveAttribute('data-build-id', '500')
    expect(segmentsOf(thread.id)).toEqual(sectionsOf(newest))

    // A list answer that left main before that event does not take the row back either.
    const stale = useThreadsStore.getState().threads.map((item) => ({ ...item }))
    act(() => useThreadStatsStore.getState().fromList(stale))
    expect(statsOf(thread.id)).toHaveAttribute('data-build-id', '500')
  })

  it('shows the breakdown, the cost so far and the summary’s time on hover and on focus', async () => {
    const thread = backend.addThread('Priced')
    await send(thread.id, 'how much does this cost?')
    const usage = { promptTokens: 10, completionTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }
    backend.addReply(thread.id, 'a', { usage, cost: 0.25 })
    backend.addReply(thread.id, 'b', { usage, cost: 0.0042 })
    backend.addReply(thread.id, 'c', { usage, cost: null })
    backend.setSummary({
      threadId: thread.id,
      content: 'A summary.',
      lastMessageSeq: 1,
      version: 1,
      source: 'model',
      updatedAt: Date.UTC(2025, 0, 15, 9, 30)
    })
    await renderSidebar()
    const stored = lastBuildOf(thread.id)

    fireEvent.mouseEnter(row(thread.id))
    const card = screen.getByTestId('thread-stats-card')
    const sections = within(card).getAllByTestId('thread-stats-section')
    expect(sections.map((s) => s.textContent)).toEqual(
      SECTIONS.map(
        (s) =>
          `${i18n.t(`inspector.sections.${s}`)}: ${stored.context.tokenStats.sections[s].used.toLocaleString('en')}`
      )
    )
    expect(within(card).getByTestId('thread-stats-cost')).toHaveTextContent(
      'Cost so far: $0.25 (+1 replies without a price)'
    )
    expect(within(card).getByTestId('thread-stats-summary')).toHaveTextContent(
      'Summary last updated'
    )
    fireEvent.mouseLeave(row(thread.id))
    expect(screen.queryByTestId('thread-stats-card')).toBeNull()

    // Keyboard: focusing the row describes it with the same card.
    const main = within(row(thread.id)).getByRole('button', { name: /Priced/ })
    act(() => main.focus())
    expect(main).toHaveAccessibleDescription(/Cost so far: \$0\.25/)
    act(() => main.blur())
    expect(screen.queryByTestId('thread-stats-card')).toBeNull()
  })

  it('orders by fullest context or by cost, leaving out threads without that figure', async () => {
    const small = backend.addThread('Small')
    const big = backend.addThread('Big')
    const cheap = backend.addThread('Cheap')
    const unsent = backend.addThread('Unsent')
    await send(small.id, 'hi')
    await send(big.id, 'a long question about the import '.repeat(80))
    // Worded apart from Big's question, so recall brings none of it into this request.
    await send(cheap.id, 'a middle-sized request '.repeat(10))
    const usage = { promptTokens: 10, completionTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }
    backend.addReply(small.id, 'pricey', { usage, cost: 1.5 })
    backend.addReply(cheap.id, 'cheap', { usage, cost: 0.01 })
    await renderSidebar()
    const user = userEvent.setup()
    expect(titles()).toContain('Unsent')

    await user.selectOptions(screen.getByTestId('thread-order'), 'fullest')
    expect(titles()).toEqual(['Big', 'Cheap', 'Small'])
    expect(screen.getByTestId('thread-order-note')).toHaveTextContent(
      'Showing 3 of 4 threads (those with data).'
    )

    await user.selectOptions(screen.getByTestId('thread-order'), 'cost')
    expect(titles()).toEqual(['Small', 'Cheap'])

    await user.selectOptions(screen.getByTestId('thread-order'), 'recent')
    expect(titles()).toHaveLength(4)
    expect(unsent.id).toBeTruthy()
  })

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh-CN')
    const thread = backend.addThread('中文')
    await send(thread.id, '你好')
    await renderSidebar()
    const { total, budget } = lastBuildOf(thread.id).context.tokenStats
    expect(statsOf(thread.id)).toHaveTextContent(
      `上次请求用了 ${budget.toLocaleString('zh-CN')} 个 token 中的 ${total.toLocaleString('zh-CN')} 个`
    )
    expect(screen.getByRole('option', { name: '上下文最满' })).toBeInTheDocument()
  })
})

describe('a 1,000-thread sidebar', () => {
  it('opens with one list request and no per-thread request, also while scrolling and hovering', async () => {
    const threads = Array.from({ length: 1000 }, (_, i) =>
      backend.addThread(`Thread ${i}`, { updatedAt: 10_000 + i })
    )
    for (const thread of threads.slice(0, 100)) await send(thread.id, `message for ${thread.title}`)
    backend.calls.length = 0

    await renderSidebar()
    expect(screen.getAllByTestId('thread-item')).toHaveLength(1000)
    expect(screen.getAllByTestId('thread-stats-bar')).toHaveLength(100)

    const list = screen.getByRole('navigation', { name: 'Threads' })
    for (const top of [2_000, 20_000, 60_000]) {
      list.scrollTop = top
      fireEvent.scroll(list)
    }
    for (const thread of [threads[0]!, threads[500]!, threads[999]!]) {
      fireEvent.mouseEnter(row(thread.id))
      fireEvent.mouseLeave(row(thread.id))
    }
    // What is checked is that nothing is asked: an absence, which polling cannot show, so a
    // short window lets any request the scroll or hover would wrongly make go out first.
    await expectStillAfter(50, () =>
      expect(backend.calls.map((call) => call.channel)).toEqual(['threads:list'])
    )
  }, 60_000)
})
