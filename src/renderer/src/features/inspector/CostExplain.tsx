import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PrefixPoint, ReplyCost, ThreadCostReport } from '@shared/costReport'
import { SECTIONS } from '@shared/context'
import { call, describeError } from '@renderer/lib/call'
import { formatCost } from '@renderer/lib/formatCost'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { useCostReport } from './costReportStore'
import { selectSentBuild, useInspectorStore } from './inspectorStore'
import './costExplain.css'

/**
 * Why the shown request cost what it did: its prompt served from the cache, written to it and
 * uncached, each part's cost, where it first differed from the previous request (which is where
 * the cache stopped helping), and the thread's total with the what-if without cache-aware order.
 */
export function CostExplain({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const state = useCostReport(threadId)
  const selected = useInspectorStore(selectSentBuild)
  if (state.status === 'loading') return null
  if (state.status === 'error') {
    return <p className="cost-explain__error">{t('cost.failed', { message: state.message })}</p>
  }
  const { report } = state
  if (report.replies.length === 0) return null
  const reply = selected
    ? report.replies.find((r) => r.buildId === selected.id)
    : report.replies.at(-1)
  return (
    <section className="cost-explain" data-testid="cost-explain">
      {reply && <ReplyCostTable reply={reply} />}
      {reply && <PrefixExplain reply={reply} />}
      {/* A new reply changes the thread's cost: an earlier what-if no longer applies. */}
      <ThreadTotals key={report.replies.length} report={report} threadId={threadId} />
    </section>
  )
}

function ReplyCostTable({ reply }: { reply: ReplyCost }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const { usage, parts } = reply
  const rows = [
    { key: 'served', tokens: usage.cacheReadTokens, cost: parts?.cacheRead },
    { key: 'written', tokens: usage.cacheWriteTokens, cost: parts?.cacheWrite },
    { key: 'uncached', tokens: reply.uncachedTokens, cost: parts?.input },
    { key: 'output', tokens: usage.completionTokens, cost: parts?.output }
  ] as const
  return (
    <table
      className="cost-explain__table"
      data-testid="cost-parts"
      data-message-id={reply.messageId}
    >
      <caption>{t('cost.title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('cost.part')}</th>
          <th scope="col">{t('cost.tokens')}</th>
          <th scope="col">{t('cost.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-testid={`cost-part-${row.key}`}>
            <th scope="row">{t(`cost.${row.key}`)}</th>
            <td>{formatNumber(row.tokens)}</td>
            <td>{row.cost === undefined ? '—' : `$${formatCost(row.cost)}`}</td>
          </tr>
        ))}
        <tr data-testid="cost-part-total">
          <th scope="row">{t('cost.total')}</th>
          <td>{formatNumber(usage.promptTokens + usage.completionTokens)}</td>
          <td>{parts ? `$${formatCost(parts.total)}` : '—'}</td>
        </tr>
      </tbody>
      {!parts && (
        <tfoot>
          <tr>
            <td colSpan={3}>{t('cost.unpriced')}</td>
          </tr>
        </tfoot>
      )}
    </table>
  )
}

function usePlace() {
  const { t } = useTranslation()
  return (point: PrefixPoint) => {
    const section = (SECTIONS as readonly string[]).includes(point.section)
      ? t(`inspector.sections.${point.section as (typeof SECTIONS)[number]}`)
      : t('cost.otherSection')
    return point.seq !== null
      ? t('cost.whereMessage', { section, seq: point.seq })
      : t('cost.whereItem', { section })
  }
}

function PrefixExplain({ reply }: { reply: ReplyCost }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const place = usePlace()
  const divergence = reply.divergence
  if (!divergence) {
    return <p className="cost-explain__prefix">{t('cost.firstRequest')}</p>
  }
  const where = divergence.first ? place(divergence.first) : null
  return (
    <div
      className={`cost-explain__prefix${reply.cacheMissed ? ' cost-explain__prefix--miss' : ''}`}
      data-testid="cost-prefix"
      data-missed={reply.cacheMissed}
      data-section={divergence.first?.section ?? ''}
    >
      <p>
        {t('cost.prefixShared', {
          shared: formatNumber(divergence.sharedMessages),
          total: formatNumber(divergence.totalMessages),
          tokens: formatNumber(divergence.sharedTokens)
        })}
      </p>
      {where === null ? (
        <p>{t('cost.samePrefix')}</p>
      ) : (
        <p data-testid="cost-miss-location">
          {reply.cacheMissed ? t('cost.missAt', { where }) : t('cost.differsAt', { where })}{' '}
          {divergence.previous
            ? t('cost.previously', { where: place(divergence.previous) })
            : t('cost.previousEnded')}
        </p>
      )}
    </div>
  )
}

function ThreadTotals({ report, threadId }: { report: ThreadCostReport; threadId: string }) {
  const { t } = useTranslation()
  const { totals } = report
  const [whatIf, setWhatIf] = useState<WhatIfState>({ status: 'idle' })

  const ask = async () => {
    setWhatIf({ status: 'running' })
    try {
      const full = await call(window.api.chat.costReport({ threadId, whatIf: true }))
      setWhatIf({ status: 'ready', result: full.whatIf })
    } catch (cause) {
      setWhatIf({ status: 'error', message: describeError(cause) })
    }
  }

  return (
    <div className="cost-explain__thread" data-testid="cost-thread">
      <span className="cost-explain__label">{t('cost.thread')}</span>
      {totals.cost === null ? (
        <p>{t('cost.threadUnpriced')}</p>
      ) : (
        <p data-testid="cost-thread-total">
          {t('cost.threadCost', {
            cost: formatCost(totals.cost),
            count: report.replies.length - totals.unpricedReplies
          })}{' '}
          {totals.savings !== null &&
            (totals.savings >= 0
              ? t('cost.savings', { amount: formatCost(totals.savings) })
              : t('cost.savingsNegative', { amount: formatCost(-totals.savings) }))}
        </p>
      )}
      {whatIf.status === 'ready' && whatIf.result && (
        <p data-testid="cost-what-if">
          {t('cost.whatIf', { cost: formatCost(whatIf.result.cost), count: whatIf.result.turns })}
        </p>
      )}
      {whatIf.status === 'error' && (
        <p className="cost-explain__error">{t('cost.failed', { message: whatIf.message })}</p>
      )}
      {totals.cost !== null && (whatIf.status === 'idle' || whatIf.status === 'running') && (
        <button
          type="button"
          className="button message__action"
          data-testid="cost-what-if-ask"
          disabled={whatIf.status === 'running'}
          onClick={() => void ask()}
        >
          {whatIf.status === 'running' ? t('cost.whatIfRunning') : t('cost.whatIfAsk')}
        </button>
      )}
    </div>
  )
}

type WhatIfState =
  | { status: 'idle' | 'running' }
  | { status: 'ready'; result: ThreadCostReport['whatIf'] }
  | { status: 'error'; message: string }
