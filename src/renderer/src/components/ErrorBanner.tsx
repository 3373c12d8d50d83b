import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from './Icon'

interface ErrorBannerProps {
  children: ReactNode
  onDismiss?: () => void
  /** An action that may fix the problem, e.g. retrying a load. */
  action?: { label: string; run: () => void }
}

/** Every error the user should read goes through here, so it looks and is announced the same way. */
export function ErrorBanner({ children, onDismiss, action }: ErrorBannerProps) {
  const { t } = useTranslation()
  return (
    <div className="banner banner--error" role="alert" data-testid="error-banner">
      <Icon name="alert" />
      <div className="banner__body">
        {children}
        {action && (
          <button type="button" className="banner__action" onClick={action.run}>
            {action.label}
          </button>
        )}
      </div>
      {onDismiss && (
        <button
          type="button"
          className="icon-button"
          onClick={onDismiss}
          aria-label={t('common.dismiss')}
          title={t('common.dismiss')}
        >
          <Icon name="close" />
        </button>
      )}
    </div>
  )
}
