import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ModelRef, UsageTotals } from '@shared/providers'
import { modelOfThread } from '@shared/threadSettings'
import { ModelOptions } from '@renderer/features/settings/providers/ModelOptions'
import {
  modelOptionValue,
  parseModelOptionValue
} from '@renderer/features/settings/providers/modelOptionValue'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { selectSelectedThread, useThreadsStore } from '@renderer/features/threads/threadsStore'
import { call, describeError } from '@renderer/lib/call'
import { formatCost } from '@renderer/lib/formatCost'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { latestRequest } from '@renderer/lib/latestRequest'
import { useChatStore } from './chatStore'

/** The open thread's model: its own, or the default (the first option). */
export function ModelSelect({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const providers = useProvidersStore((state) => state.providers)
  const loaded = useProvidersStore((state) => state.loaded)
  const thread = useThreadsStore(selectSelectedThread)
  const defaultModel = useSettingsStore((state) => state.settings.defaultModel)
  const [error, setError] = useState<string | null>(null)
  const [override, setOverride] = useState<{ threadId: string; value: string } | null>(null)
  // A slower answer to an earlier choice (a failure that would undo it) never wins over a newer one.
  const choices = useRef(latestRequest())

  useEffect(() => {
    if (!loaded) void useProvidersStore.getState().load()
  }, [loaded])

  const own = modelOfThread(thread?.id === threadId ? thread.settings : undefined)
  const stored = modelOptionValue(own)
  const value = override?.threadId === threadId ? override.value : stored
  const nameOf = (ref: ModelRef | null) => {
    if (!ref) return t('chat.modelNone')
    const provider = providers.find((candidate) => candidate.id === ref.providerId)
    return provider ? `${provider.name} · ${ref.modelId}` : ref.modelId
  }

  const choose = async (next: string) => {
    setOverride({ threadId, value: next })
    const ref = parseModelOptionValue(next)
    const ticket = choices.current.start()
    try {
      await call(
        window.api.threads.setModel({
          threadId,
          providerId: ref?.providerId ?? null,
          modelId: ref?.modelId ?? null
        })
      )
      if (ticket.isLatest()) setError(null)
    } catch (cause) {
      if (!ticket.isLatest()) return
      setOverride(null)
      setError(describeError(cause))
    }
  }

  return (
    <label className="chat-header__model" title={error ?? t('chat.modelLabel')}>
      <select
        aria-label={t('chat.modelLabel')}
        data-testid="thread-model-select"
        value={value}
        onChange={(event) => void choose(event.target.value)}
      >
        <option value="">{t('chat.modelDefault', { model: nameOf(defaultModel) })}</option>
        <ModelOptions providers={providers} />
      </select>
    </label>
  )
}

/** The thread's tokens (and cost where known) over all its model replies. */
export function ThreadUsage({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const messages = useChatStore((state) => state.messages)
  const [totals, setTotals] = useState<UsageTotals | null>(null)

  useEffect(() => {
    let current = true
    call(window.api.chat.usage({ threadId }))
      .then((next) => current && setTotals(next))
      .catch(() => current && setTotals(null))
    return () => {
      current = false
    }
  }, [threadId, messages])

  if (!totals || totals.replies === 0) return null
  const tokens = formatNumber(totals.promptTokens + totals.completionTokens)
  return (
    <span
      className="chat-header__usage"
      data-testid="thread-usage"
      title={t('chat.usage.title', {
        prompt: formatNumber(totals.promptTokens),
        completion: formatNumber(totals.completionTokens),
        read: formatNumber(totals.cacheReadTokens),
        write: formatNumber(totals.cacheWriteTokens)
      })}
    >
      {totals.cost !== null
        ? t('chat.usage.threadCost', { tokens, cost: formatCost(totals.cost) })
        : t('chat.usage.thread', { tokens })}
    </span>
  )
}
