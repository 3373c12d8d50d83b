import { useTranslation } from 'react-i18next'
import type { ReplyInfo } from '@shared/domain'
import { formatCost } from '@renderer/lib/formatCost'
import { useFormatNumber } from '@renderer/lib/formatNumber'

/**
 * A reply's prompt split the way it was billed: served from the provider's cache, written to
 * it, and uncached; with the cost of each part when the model has a price. Providers that report
 * no caching (Ollama) show everything as uncached, which is what they charge for.
 */
export function ReplyCostLine({ reply }: { reply: ReplyInfo }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  const usage = reply.usage
  if (!usage) return null
  const uncached = Math.max(0, usage.promptTokens - usage.cacheReadTokens - usage.cacheWriteTokens)
  const parts = reply.costParts
  return (
    <div className="message__cost" data-testid="reply-cost">
      <span data-testid="reply-cost-cache">
        {t('cost.footer', {
          read: formatNumber(usage.cacheReadTokens),
          write: formatNumber(usage.cacheWriteTokens),
          uncached: formatNumber(uncached)
        })}
      </span>
      {parts && (
        <span data-testid="reply-cost-parts">
          {t('cost.parts', {
            input: formatCost(parts.input),
            read: formatCost(parts.cacheRead),
            write: formatCost(parts.cacheWrite),
            output: formatCost(parts.output)
          })}
        </span>
      )}
    </div>
  )
}
