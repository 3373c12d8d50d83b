import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { ok } from '@shared/result'
import { i18n } from '@renderer/i18n'
import { HistoryDialog } from '@renderer/features/history/HistoryDialog'
import { useHistoryStore } from '@renderer/features/history/historyStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend
const IMPORT_ID = '00000000-0000-4000-8000-0000000000aa'

beforeEach(async () => {
  backend = await installFakeBackend()
  useHistoryStore.setState({
    importView: { state: 'idle' },
    exportView: { state: 'idle' },
    error: null
  })
  backend.api.history.import = async () =>
    ok({ started: true as const, importId: IMPORT_ID, fileName: 'conversations.json' })
})

describe('the import dialog', () => {
  it('shows progress, then a summary naming what was left out and why, in English and Chinese', async () => {
    const stop = useHistoryStore.getState().watch()
    render(<HistoryDialog onClose={() => {}} />)
    await userEvent.click(screen.getByTestId('import-with-branches'))
    await userEvent.click(screen.getByTestId('import-choose'))
    await screen.findByTestId('import-progress')
    act(() =>
      backend.emit('history:progress', {
        importId: IMPORT_ID,
        conversations: 12,
        messages: 340,
        bytesRead: 50,
        totalBytes: 100
      })
    )
    expect(screen.getByTestId('import-progress-counts')).toHaveTextContent(
      '12 conversations, 340 messages so far'
    )
    const summary = {
      format: 'chatgpt' as const,
      threads: 14,
      messages: 400,
      forks: 2,
      memories: 0,
      skipped: { system: 12, branch: 0, tool: 3 },
      placeholders: 1,
      cancelled: false,
      error: null
    }
    act(() => backend.emit('history:done', { importId: IMPORT_ID, summary }))
    const shown = await screen.findByTestId('import-summary')
    expect(shown).toHaveTextContent('Format: ChatGPT export')
    expect(shown).toHaveTextContent('Added 14 conversations (2 of them branches) with 400 messages')
    expect(shown).toHaveTextContent('1 image or attachment was kept as a named placeholder')
    const reasons = screen.getByTestId('import-summary-skipped').querySelectorAll('li')
    expect([...reasons].map((li) => li.dataset.reason)).toEqual(['system', 'tool'])
    await act(() => i18n.changeLanguage('zh-CN'))
    expect(screen.getByTestId('import-summary-skipped')).toHaveTextContent(
      '12 条对话中从未显示的系统提示和自定义指令'
    )
    await act(() => i18n.changeLanguage('en'))
    stop()
  })
})
