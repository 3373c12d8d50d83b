import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { SummaryStatusNotice } from '@renderer/features/summaries/SummaryStatusNotice'
import type { SummaryAutomationStatus } from '@shared/summaryCompression'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend

/** A thread's automatic-summary status with nothing scheduled, running or failed; `change` on top. */
const summaryStatus = (
  threadId: string,
  change: Partial<SummaryAutomationStatus>
): SummaryAutomationStatus => ({
  threadId,
  failures: 0,
  paused: false,
  lastError: null,
  stale: false,
  scheduled: false,
  running: false,
  ...change
})

beforeEach(async () => {
  backend = await installFakeBackend()
})

describe('the summary status notice', () => {
  it('says automatic summaries stopped, with why, and Retry resumes them', async () => {
    const thread = backend.addThread('Parser')
    let retried = 0
    backend.api.summary.status = async () => ({
      ok: true,
      data: summaryStatus(thread.id, {
        paused: true,
        failures: 3,
        lastError: 'the key was refused'
      })
    })
    backend.api.summary.retry = async () => {
      retried += 1
      return { ok: true, data: summaryStatus(thread.id, {}) }
    }
    render(<SummaryStatusNotice threadId={thread.id} />)
    const notice = await screen.findByTestId('summary-paused')
    expect(notice).toHaveTextContent('stopped after 3 failures in a row')
    expect(notice).toHaveTextContent('the key was refused')
    fireEvent.click(screen.getByTestId('summary-retry'))
    await waitFor(() => expect(screen.queryByTestId('summary-paused')).toBeNull())
    expect(retried).toBe(1)
  })

  it('shows a stale summary as out of date until it is rewritten', async () => {
    const thread = backend.addThread('Parser')
    const summary = {
      threadId: thread.id,
      content: 'We use the table-driven parser.',
      lastMessageSeq: 8,
      version: 2,
      source: 'model' as const,
      updatedAt: 1,
      staleSinceSeq: 3
    }
    backend.setSummary(summary)
    render(<SummaryStatusNotice threadId={thread.id} />)
    expect(await screen.findByTestId('summary-stale')).toHaveTextContent('message #3 changed')
    // The rewritten version is current again: it carries no staleSinceSeq.
    backend.emit('summary:changed', {
      threadId: thread.id,
      content: 'We use the hand-written parser.',
      lastMessageSeq: 8,
      version: 3,
      source: 'model',
      updatedAt: 2
    })
    await waitFor(() => expect(screen.queryByTestId('summary-stale')).toBeNull())
  })
})
