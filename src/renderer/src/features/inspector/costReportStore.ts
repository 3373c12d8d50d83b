import { useEffect, useState } from 'react'
import type { ThreadCostReport } from '@shared/costReport'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'

export type CostReportState =
  | { status: 'loading' }
  | { status: 'ready'; report: ThreadCostReport }
  | { status: 'error'; message: string }

/**
 * The thread's cost report, asked again after every finished reply; an older answer that
 * arrives after a newer request started is dropped.
 */
export function useCostReport(threadId: string): CostReportState {
  const [state, setState] = useState<CostReportState>({ status: 'loading' })
  useEffect(() => {
    const reads = latestRequest()
    const load = () => {
      const ticket = reads.start()
      call(window.api.chat.costReport({ threadId })).then(
        (report) => ticket.isLatest() && setState({ status: 'ready', report }),
        (cause: unknown) =>
          ticket.isLatest() && setState({ status: 'error', message: describeError(cause) })
      )
    }
    load()
    const stop = window.api.on('chat:done', (done) => {
      if (done.threadId === threadId) load()
    })
    return () => {
      reads.supersede()
      stop()
    }
  }, [threadId])
  return state
}
