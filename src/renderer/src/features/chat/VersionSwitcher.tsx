import { useTranslation } from 'react-i18next'

interface VersionSwitcherProps {
  /** What has versions: a regenerated reply, or a message edited and resent. */
  of: 'reply' | 'turn'
  /** 0-based index of the version shown. */
  index: number
  count: number
  onChange: (index: number) => void
}

/** ‹ n/m › between the versions of a regenerated reply or an edited message; all stay stored. */
export function VersionSwitcher({ of, index, count, onChange }: VersionSwitcherProps) {
  const { t } = useTranslation()
  return (
    <div
      className="version-switcher"
      data-of={of}
      role="group"
      aria-label={t(of === 'turn' ? 'chat.versions.turnLabel' : 'chat.versions.label')}
    >
      <button
        type="button"
        className="icon-button version-switcher__step"
        data-testid="version-previous"
        aria-label={t('chat.versions.previous')}
        title={t('chat.versions.previous')}
        disabled={index === 0}
        onClick={() => onChange(index - 1)}
      >
        ‹
      </button>
      <span className="version-switcher__position" data-testid="version-position">
        {t('chat.versions.position', { n: index + 1, m: count })}
      </span>
      <button
        type="button"
        className="icon-button version-switcher__step"
        data-testid="version-next"
        aria-label={t('chat.versions.next')}
        title={t('chat.versions.next')}
        disabled={index === count - 1}
        onClick={() => onChange(index + 1)}
      >
        ›
      </button>
    </div>
  )
}
