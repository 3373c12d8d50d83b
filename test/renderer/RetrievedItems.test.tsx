import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { BuildWarning, MemoryWarning, RetrievedOrigin, TraceEntry } from '@shared/context'
import type { MemoryCategory } from '@shared/domain'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { BuildMetadata } from '@renderer/features/inspector/BuildMetadata'
import { TraceList } from '@renderer/features/inspector/TraceList'
import { useMemoryViewStore } from '@renderer/features/memory/memoryViewStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { i18n } from '@renderer/i18n'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'
import { sampleBuild } from './support/sampleBuild'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

/** A retrieved entry as main's memoryRecall and the builder produce it (origin: from memory). */
const retrieved = (
  id: string,
  source: string,
  score: number,
  preview: string,
  origin?: RetrievedOrigin
): TraceEntry => ({
  id,
  kind: 'memory',
  section: 'retrieved',
  tokens: 12,
  decision: 'included',
  score,
  source,
  ...(origin && { origin }),
  preview
})
const fromMemory = (category: MemoryCategory): RetrievedOrigin => ({ kind: 'memory', category })
const fromMessage = (seq: number, threadTitle: string | null): RetrievedOrigin => ({
  kind: 'message',
  seq,
  threadTitle
})

const renderTrace = (...entries: TraceEntry[]) => {
  const build = sampleBuild()
  build.trace = entries
  render(<TraceList build={build} editable />)
  return userEvent.setup()
}

const itemFor = (id: string) => {
  const item = screen.getAllByTestId('trace-item').find((element) => element.dataset.id === id)
  if (!item) throw new Error(`no trace item ${id}`)
  return item
}

describe("the inspector's retrieved items", () => {
  it('show a two-decimal score and their source in the UI language', async () => {
    renderTrace(
      retrieved(
        'memory:3',
        'memory · fact',
        0.4567,
        'My sister lives in Lyon.',
        fromMemory('fact')
      ),
      retrieved('message:12', 'message #4 in “Trip”', 1, 'Book the ferry', fromMessage(4, 'Trip')),
      retrieved('m9', 'fts', 0.3, 'From a search port that is not memory')
    )

    expect(itemFor('memory:3')).toHaveTextContent('My sister lives in Lyon.')
    expect(itemFor('memory:3')).toHaveTextContent('score 0.46 · memory · Fact')
    expect(itemFor('message:12')).toHaveTextContent('score 1.00 · message #4 in “Trip”')
    // An id that names nothing the app can open is shown as text, not as a link.
    expect(itemFor('m9')).toHaveTextContent('score 0.30 · fts')
    expect(within(itemFor('m9')).queryByTestId('trace-source-link')).toBeNull()

    await act(() => i18n.changeLanguage('zh-CN'))

    expect(itemFor('memory:3')).toHaveTextContent('得分 0.46 · 记忆 · 事实')
    expect(itemFor('message:12')).toHaveTextContent('“Trip”中的第 4 条消息')
  })

  it('open a memory in the memory manager', async () => {
    const user = renderTrace(
      retrieved('memory:3', 'memory · fact', 0.5, 'Lyon', fromMemory('fact'))
    )

    await user.click(within(itemFor('memory:3')).getByTestId('trace-source-link'))

    expect(useMemoryViewStore.getState()).toMatchObject({ open: true, focusId: 3 })
  })

  it('open a recalled message in its own thread, found with messages.locate', async () => {
    const trip = backend.addThread('Trip')
    const [, ferry] = backend.addMessages(trip.id, ['Hello', 'Book the ferry'])
    useMemoryViewStore.getState().show()
    const user = renderTrace(
      retrieved(
        `message:${ferry!.id}`,
        'message #2 in “Trip”',
        0.9,
        'Book the ferry',
        fromMessage(2, 'Trip')
      )
    )

    await user.click(within(itemFor(`message:${ferry!.id}`)).getByTestId('trace-source-link'))

    await vi.waitFor(() => expect(useThreadsStore.getState().selectedId).toBe(trip.id))
    expect(backend.calls.find((c) => c.channel === 'messages:locate')?.input).toEqual({
      id: ferry!.id
    })
    expect(useChatStore.getState().reveal).toEqual({ threadId: trip.id, messageId: ferry!.id })
    expect(useMemoryViewStore.getState().open).toBe(false)
  })

  it('say so when the recalled message is gone', async () => {
    const user = renderTrace(
      retrieved('message:404', 'message #1 in “Old”', 0.7, 'Gone', fromMessage(1, 'Old'))
    )

    await user.click(within(itemFor('message:404')).getByTestId('trace-source-link'))

    expect(await within(itemFor('message:404')).findByRole('alert')).toHaveTextContent(
      'Could not open it: This message no longer exists.'
    )
    expect(useThreadsStore.getState().selectedId).toBeNull()
  })
})

describe('memory search warnings in the build', () => {
  // What main records (hybridSearch.ts, memorySearch.ts): a code with its numbers, and English.
  const upstream = (memory?: MemoryWarning): BuildWarning => ({
    code: 'upstream',
    message: memory?.message ?? 'Something this version does not know.',
    ...(memory && { memory })
  })
  const cases: [MemoryWarning, string, string][] = [
    [
      { code: 'no_model', message: 'No embedding model is configured.' },
      'No embedding model is set up: memory search matches words only, not meaning.',
      '未配置嵌入模型：记忆检索只按文字匹配，不理解语义。'
    ],
    [
      { code: 'downloading', message: 'The embedding model is being downloaded.' },
      'The embedding model is being downloaded: memory search matches words only for now.',
      '正在下载嵌入模型：记忆检索暂时只按文字匹配。'
    ],
    [
      {
        code: 'unavailable',
        message: 'The embedding model could not be loaded.',
        reason: 'no such file: model.onnx'
      },
      'The embedding model could not be loaded (no such file: model.onnx): memory search matches words only.',
      '无法加载嵌入模型（no such file: model.onnx）：记忆检索只按文字匹配。'
    ],
    [
      { code: 'embed_slow', message: 'The query could not be embedded in time.', ms: 320 },
      'Your text could not be embedded within 320 ms: memory search matched words only.',
      '未能在 320 毫秒内为你的文字生成向量：本次记忆检索只按文字匹配。'
    ],
    [
      { code: 'search_timeout', message: 'Memory search took over 500 ms.', ms: 500 },
      'Memory search took over 500 ms and was skipped: this request has no memories.',
      '记忆检索超过 500 毫秒，已跳过：本次请求不含记忆。'
    ],
    [
      { code: 'search_failed', message: 'Memory search failed.', reason: 'database is locked' },
      'Memory search failed (database is locked): this request has no memories.',
      '记忆检索失败（database is locked）：本次请求不含记忆。'
    ]
  ]

  it('say what happened in either language, with main’s English in the tooltip', async () => {
    const metadata = sampleBuild().metadata
    metadata.warnings = [...cases.map(([memory]) => upstream(memory)), upstream()]
    render(<BuildMetadata metadata={metadata} />)
    const shown = () => screen.getAllByTestId('build-warning')

    expect(shown().map((warning) => warning.textContent)).toEqual([
      ...cases.map(([, english]) => english),
      'Memory search did not run normally; hover for the details.'
    ])
    expect(shown()[0]).toHaveAttribute('title', cases[0]![0].message)

    await act(() => i18n.changeLanguage('zh-CN'))

    expect(shown().map((warning) => warning.textContent)).toEqual([
      ...cases.map(([, , chinese]) => chinese),
      '记忆检索未正常完成，悬停查看详情。'
    ])
  })
})
