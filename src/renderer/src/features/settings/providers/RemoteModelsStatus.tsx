import { useTranslation } from 'react-i18next'
import type { RemoteModels } from './providersStore'

/** What the provider said when asked for its models: the ids, or its error in its own words. */
export function RemoteModelsStatus({ result }: { result: RemoteModels }) {
  const { t } = useTranslation()
  if (result.ok) {
    return (
      <p
        className="providers__test providers__test--ok"
        data-testid="provider-remote-models"
        data-ok="true"
        role="status"
      >
        {result.models.length === 0
          ? t('providers.remoteModelsNone')
          : t('providers.remoteModels', {
              count: result.models.length,
              models: result.models.slice(0, 8).join(', ')
            })}
      </p>
    )
  }
  const { error } = result
  return (
    <p
      className="providers__test providers__test--failed"
      data-testid="provider-remote-models"
      data-ok="false"
      data-kind={error?.kind}
      role="alert"
    >
      {t('providers.remoteModelsFailed', {
        kind: error ? t(`chat.errorKinds.${error.kind}`) : t('providers.remoteModelsAppError'),
        message: result.message
      })}
      {error?.status !== undefined && t('providers.httpStatus', { status: error.status })}
    </p>
  )
}
