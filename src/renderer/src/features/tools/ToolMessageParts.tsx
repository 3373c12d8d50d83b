import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Message, ToolCall } from '@shared/domain'
import { MarkdownContent } from '@renderer/features/chat/MarkdownContent'
import { call, describeError } from '@renderer/lib/call'

/** Long outputs show their start; the whole stored text is one click away. */
const PREVIEW_CHARS = 2_000

/** The calls a model reply asked for, with their arguments exactly as sent. */
export function ToolCallList({ calls }: { calls: readonly ToolCall[] }) {
  const { t } = useTranslation()
  return (
    <ul className="tool-calls">
      {calls.map((c) => (
        <li key={c.id} data-testid="tool-call" data-tool={c.name}>
          <span>{t('tools.callTitle', { tool: c.name })}</span>
          <pre>{c.arguments}</pre>
        </li>
      ))}
    </ul>
  )
}

/**
 * A tool's output: untrusted, so rendered by the sanitized Markdown renderer and labelled as
 * data. "Show full output" reads the stored result from main, word for word, whatever the
 * compressor sent in its place.
 */
export function ToolResult({ message }: { message: Message }) {
  const { t } = useTranslation()
  const [full, setFull] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const long = message.content.length > PREVIEW_CHARS
  const shown = full ?? (long ? message.content.slice(0, PREVIEW_CHARS) : message.content)
  return (
    <div className="tool-result" data-testid="tool-result">
      <p className="tool-result__note">
        {t('tools.resultTitle')} · {t('tools.resultNote')}
      </p>
      <MarkdownContent text={shown} />
      {long && full === null && (
        <p className="tool-result__more">
          {t('tools.truncatedPreview', {
            shown: PREVIEW_CHARS,
            total: message.content.length
          })}{' '}
          <button
            type="button"
            className="button"
            data-testid="tool-result-full"
            onClick={() =>
              void call(window.api.tools.output({ messageId: message.id })).then(
                (stored) => setFull(stored.content),
                (failure: unknown) => setError(describeError(failure))
              )
            }
          >
            {t('tools.showFull')}
          </button>
        </p>
      )}
      {full !== null && (
        <button type="button" className="button" onClick={() => setFull(null)}>
          {t('tools.hideFull')}
        </button>
      )}
      {error && <p role="alert">{t('tools.fullFailed', { error })}</p>}
    </div>
  )
}
