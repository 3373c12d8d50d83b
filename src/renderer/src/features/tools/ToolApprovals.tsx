import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApprovalDecision, ToolApprovalRequest } from '@shared/tools'
import { useToolsStore } from './toolsStore'
import './tools.css'

const EMPTY: ToolApprovalRequest[] = []

const DECISIONS = [
  { decision: 'once', label: 'tools.allowOnce', testId: 'tool-allow-once' },
  { decision: 'always', label: 'tools.allowAlways', testId: 'tool-allow-always' },
  { decision: 'deny', label: 'tools.deny', testId: 'tool-deny' }
] as const satisfies readonly { decision: ApprovalDecision; label: string; testId: string }[]

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
            {DECISIONS.map(({ decision, label, testId }) => (
              <button
                key={decision}
                type="button"
                className={decision === 'once' ? 'button button--primary' : 'button'}
                data-testid={testId}
                onClick={() => void useToolsStore.getState().answer(request, decision)}
              >
                {t(label)}
              </button>
            ))}
          </div>
        </section>
      ))}
    </div>
  )
}
