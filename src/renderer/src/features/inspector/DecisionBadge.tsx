import { useTranslation } from 'react-i18next'
import type { Decision } from '@shared/context'

export function DecisionBadge({ decision }: { decision: Decision }) {
  const { t } = useTranslation()
  return (
    <span className="decision" data-decision={decision}>
      {t(`inspector.decisions.${decision}`)}
    </span>
  )
}
