import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useChatStore } from './chatStore'

/**
 * The last message's request was too big for the model and was shrunk before sending: say what
 * was done (the inspector has the numbers), so a trimmed paste never goes unnoticed.
 */
export function SafetyNetNotice() {
  const { t } = useTranslation()
  const codes = useChatStore((state) => state.safetyNet)
  if (codes.length === 0) return null
  return (
    <div className="banner banner--notice" role="status" data-testid="notice-safety-net">
      <Icon name="info" />
      <div className="banner__body" data-codes={codes.join(' ')}>
        {codes.map((code) => t(`inspector.warnings.${code}`)).join(' ')}
      </div>
    </div>
  )
}
