import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { ThreadToolsPicker } from '@renderer/features/tools/ThreadToolsPicker'
import { ModelSelect, ThreadUsage } from './ModelSelect'
import { useChatStore } from './chatStore'

interface ChatHeaderProps {
  title: string | null
  messageCount: number | null
}

/** The open thread's title (also the window title) and the inspector toggle. */
export function ChatHeader({ title, messageCount }: ChatHeaderProps) {
  const { t } = useTranslation()
  const inspectorOpen = useSettingsStore((state) => state.settings.inspectorOpen)
  const setInspectorOpen = useSettingsStore((state) => state.setInspectorOpen)
  const threadId = useChatStore((state) => state.threadId)
  const showProviders = useProvidersStore((state) => state.show)

  useEffect(() => {
    document.title = title ? t('app.windowTitle', { title }) : t('app.name')
  }, [title, t])

  return (
    <header className="chat-header">
      <div className="chat-header__titles">
        <h1 className="chat-header__title" data-testid="chat-title" title={title ?? undefined}>
          {title ?? t('app.name')}
        </h1>
        {messageCount !== null && (
          <span className="chat-header__subtitle" data-testid="chat-message-count">
            {t('chat.messageCount', { count: messageCount })}
          </span>
        )}
      </div>
      <div className="chat-header__actions">
        {threadId && <ThreadUsage threadId={threadId} />}
        {threadId && <ModelSelect threadId={threadId} />}
        {threadId && <ThreadToolsPicker threadId={threadId} />}
        <button
          type="button"
          className="icon-button chat-header__toggle"
          data-testid="open-provider-settings"
          aria-label={t('settingsPage.open')}
          title={t('settingsPage.open')}
          onClick={showProviders}
        >
          <Icon name="settings" />
          <span className="chat-header__button-label">{t('settingsPage.open')}</span>
        </button>
        <button
          type="button"
          className="icon-button chat-header__toggle"
          data-testid="inspector-toggle"
          aria-pressed={inspectorOpen}
          aria-controls="inspector-panel"
          aria-label={inspectorOpen ? t('chat.hideInspector') : t('chat.showInspector')}
          title={inspectorOpen ? t('chat.hideInspector') : t('chat.showInspector')}
          onClick={() => void setInspectorOpen(!inspectorOpen)}
        >
          <Icon name="panel" />
          <span className="chat-header__button-label chat-header__button-label--inspector">
            {t('chat.inspector')}
          </span>
        </button>
      </div>
    </header>
  )
}
