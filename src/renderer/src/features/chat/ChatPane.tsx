import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@renderer/components/EmptyState'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import { Icon } from '@renderer/components/Icon'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { selectSelectedThread, useThreadsStore } from '@renderer/features/threads/threadsStore'
import { ToolApprovals } from '@renderer/features/tools/ToolApprovals'
import { ChatHeader } from './ChatHeader'
import { Composer } from './Composer'
import { ContextGauge } from './ContextGauge'
import { MessageList } from './MessageList'
import { SafetyNetNotice } from './SafetyNetNotice'
import { useChatStore } from './chatStore'
import { useAnsweringModel } from './threadModel'
import { Welcome } from '@renderer/features/welcome/Welcome'
import './chat.css'

/** The middle column: whatever thread the sidebar has selected, and the composer for it. */
export function ChatPane() {
  const { t } = useTranslation()
  const selected = useThreadsStore(selectSelectedThread)
  const selectedId = useThreadsStore((state) => state.selectedId)
  const createThread = useThreadsStore((state) => state.create)
  const threadId = useChatStore((state) => state.threadId)
  const status = useChatStore((state) => state.status)
  // Seqs count a thread's messages, so the count is right before older pages are loaded.
  const messageCount = useChatStore((state) =>
    state.hasOlder ? (state.messages.at(-1)?.seq ?? 0) : state.messages.length
  )
  const loadError = useChatStore((state) => state.loadError)
  const sendError = useChatStore((state) => state.sendError)
  const lastOutcome = useChatStore((state) => state.lastOutcome)
  const flagError = useChatStore((state) => state.flagError)
  const buildError = useChatStore((state) => state.buildError)
  const { reload, dismissSendError, dismissFlagError } = useChatStore.getState()
  const providersLoaded = useProvidersStore((state) => state.loaded)
  const hasProvider = useProvidersStore((state) => state.providers.length > 0)

  useEffect(() => {
    void useChatStore.getState().open(selectedId)
  }, [selectedId])

  const body = (() => {
    if (!threadId && providersLoaded && !hasProvider) return <Welcome />
    if (!threadId) {
      return (
        <EmptyState
          icon="chat"
          title={t('chat.noThreadTitle')}
          action={
            <button
              type="button"
              className="button button--primary"
              onClick={() => void createThread()}
            >
              <Icon name="plus" />
              {t('threads.newThread')}
            </button>
          }
        >
          {t('chat.noThreadBody')}
        </EmptyState>
      )
    }
    if (status === 'loading' || status === 'idle') {
      return <p className="chat__loading">{t('chat.loading')}</p>
    }
    if (status === 'error') {
      return (
        <div className="chat__status">
          <ErrorBanner action={{ label: t('common.retry'), run: () => void reload() }}>
            {t('chat.loadFailed', { message: loadError })}
          </ErrorBanner>
        </div>
      )
    }
    if (messageCount === 0) {
      return (
        <EmptyState icon="chat" title={t('chat.emptyThreadTitle')}>
          {t('chat.emptyThreadBody')}
        </EmptyState>
      )
    }
    return <MessageList key={threadId} />
  })()

  return (
    <main className="chat">
      <ChatHeader
        title={selected ? selected.title || t('threads.untitled') : null}
        messageCount={threadId && status === 'ready' ? messageCount : null}
      />
      <div className="chat__body">{body}</div>
      {threadId && (
        <div className="chat__footer">
          <NoModelNotice threadId={threadId} sentWithout={lastOutcome === 'no_model_configured'} />
          <SafetyNetNotice />
          {buildError && (
            <ErrorBanner>{t('chat.buildFailed', { message: buildError })}</ErrorBanner>
          )}
          {flagError && (
            <ErrorBanner onDismiss={dismissFlagError}>
              {t('chat.flagFailed', { message: flagError })}
            </ErrorBanner>
          )}
          {sendError && (
            <ErrorBanner onDismiss={dismissSendError}>
              {t('chat.sendFailed', { message: sendError })}
            </ErrorBanner>
          )}
          <ToolApprovals threadId={threadId} />
          <ContextGauge key={`gauge-${threadId}`} threadId={threadId} />
          <Composer key={threadId} threadId={threadId} />
        </div>
      )}
    </main>
  )
}

/**
 * Shown while no model would answer this thread (before or after a message was sent without
 * one), and gone as soon as one would: offers the provider settings and mentions a local Ollama.
 */
function NoModelNotice({ threadId, sentWithout }: { threadId: string; sentWithout: boolean }) {
  const answering = useAnsweringModel(threadId)
  return answering === 'none' ? <NoModelBanner sentWithout={sentWithout} /> : null
}

function NoModelBanner({ sentWithout }: { sentWithout: boolean }) {
  const { t } = useTranslation()
  const ollama = useProvidersStore((state) => state.ollama)
  const show = useProvidersStore((state) => state.show)

  useEffect(() => {
    if (useProvidersStore.getState().ollama === null) {
      void useProvidersStore.getState().detectOllama()
    }
  }, [])

  return (
    <div className="banner banner--notice" role="status" data-testid="notice-no-model">
      <Icon name="info" />
      <div className="banner__body">
        <span className="banner__title">{t('chat.noModelTitle')}</span>
        {sentWithout ? t('chat.noModelBody') : t('chat.noModelBefore')}
        {ollama?.found && (
          <span data-testid="notice-ollama">
            {' '}
            {t('chat.noModelOllama', { count: ollama.models.length })}
          </span>
        )}
      </div>
      <button type="button" className="button" data-testid="notice-no-model-action" onClick={show}>
        {t('chat.noModelAction')}
      </button>
    </div>
  )
}
