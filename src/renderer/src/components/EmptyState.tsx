import type { ReactNode } from 'react'
import { Icon, type IconName } from './Icon'

interface EmptyStateProps {
  icon: IconName
  title: string
  children: ReactNode
  /** Optional call to action, e.g. a button that fills the emptiness. */
  action?: ReactNode
}

export function EmptyState({ icon, title, children, action }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <span className="empty-state__mark" aria-hidden="true">
        <Icon name={icon} />
      </span>
      <h2 className="empty-state__title">{title}</h2>
      <p className="empty-state__body">{children}</p>
      {action}
    </div>
  )
}
