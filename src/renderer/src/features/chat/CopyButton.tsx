import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'

type CopyState = 'idle' | 'copied' | 'failed'

interface CopyButtonProps {
  /** Read at click time, so a streaming message or a highlighted block copies what is shown. */
  getText: () => string
  /** What is copied, for the tooltip and screen readers ("Copy message", "Copy code"). */
  label: string
  testId: string
  className?: string
}

/** Copies text to the clipboard and says so in words for a moment ("Copied"), or that it failed. */
export function CopyButton({ getText, label, testId, className = '' }: CopyButtonProps) {
  const { t } = useTranslation()
  const [state, setState] = useState<CopyState>('idle')

  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 1_500)
    return () => clearTimeout(timer)
  }, [state])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(getText())
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  const shown = state === 'idle' ? t('chat.copy') : t(`chat.copyState.${state}`)

  return (
    <button
      type="button"
      className={`button button--small copy-button ${className}`}
      data-testid={testId}
      data-state={state}
      aria-label={state === 'idle' ? label : shown}
      title={label}
      onClick={() => void copy()}
    >
      <Icon name={state === 'copied' ? 'check' : 'copy'} />
      <span aria-live="polite">{shown}</span>
    </button>
  )
}
