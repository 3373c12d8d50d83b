import { useTranslation } from 'react-i18next'
import type { ConnectionTestResult } from '@shared/providers'

/** The outcome of "Test connection": the latency (and models listed), or the error's kind. */
export function ConnectionTestStatus({ result }: { result: ConnectionTestResult }) {
  const { t } = useTranslation()

  return (
    <p
      className={`providers__test providers__test--${result.ok ? 'ok' : 'failed'}`}
      data-testid="provider-test-result"
      data-ok={result.ok ? 'true' : 'false'}
      role="status"
    >
      {result.ok
        ? result.models
          ? t('providers.testModels', {
              ms: result.latencyMs,
              models: result.models.slice(0, 8).join(', ')
            })
          : t('providers.testOk', { ms: result.latencyMs })
        : t('providers.testFailed', {
            kind: t(`chat.errorKinds.${result.error.kind}`),
            message: result.error.message
          })}
    </p>
  )
}
