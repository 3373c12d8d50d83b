import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { ToolApprovalRequest } from '@shared/tools'
import { useToolsStore } from './toolsStore'
import './tools.css'

const EMPTY: ToolApprovalRequest[] = []

/** Pretty JSON when the arguments parse; the model's exact text when they do not. */
function formatArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** The open thread's calls waiting for consent, each with its arguments in full. */
export function ToolApprovals({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const pending = useToolsStore((state) => state.approvals[threadId] ?? EMPTY)
  useEffect(() => void useToolsStore.getState().loadPending(threadId), [threadId])
  if (pending.length === 0) return null
  return (
    <div className="tool-approvals">
      {pending.map((request) => (
        <section
          key={request.callId}
          className="tool-approval"
          data-testid="tool-approval"
          data-tool={request.toolName}
          aria-label={t('tools.approvalTitle', {
            tool: request.toolName,
            source: request.sourceName
          })}
        >
          <p className="tool-approval__title">
            {t('tools.approvalTitle', { tool: request.toolName, source: request.sourceName })}
          </p>
          <p className="tool-approval__label">{t('tools.approvalArgs')}</p>
          <pre className="tool-approval__args" data-testid="tool-approval-args">
            {formatArguments(request.arguments)}
          </pre>
          <div className="tool-approval__actions">
            <button
              type="button"
              className="button button--primary"
              data-testid="tool-allow-once"
              onClick={() => void useToolsStore.getState().answer(request, 'once')}
            >
              {t('tools.allowOnce')}
            </button>
            <button
              type="button"
              className="button"
              data-testid="tool-allow-always"
              onClick={() => void useToolsStore.getState().answer(request, 'always')}
            >
              {t('tools.allowAlways')}
            </button>
            <button
              type="button"
              className="button"
              data-testid="tool-deny"
              onClick={() => void useToolsStore.getState().answer(request, 'deny')}
            >
              {t('tools.deny')}
            </button>
          </div>
        </section>
      ))}
    </div>
  )
}
