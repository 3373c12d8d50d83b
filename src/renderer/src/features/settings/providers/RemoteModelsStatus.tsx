import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import type { RemoteModels } from './providersStore'

interface RemoteModelsStatusProps {
  result: RemoteModels
  /** The ids the provider already has. */
  added: readonly string[]
  onAdd: (modelId: string) => void
  busy: boolean
}

/**
 * What the provider said when asked for its models: each id with one button that adds it, or
 * the provider's error in its own words.
 */
export function RemoteModelsStatus({ result, added, onAdd, busy }: RemoteModelsStatusProps) {
  const { t } = useTranslation()
  if (result.ok) {
    return (
      <div
        className="providers__remote"
        data-testid="provider-remote-models"
        data-ok="true"
        role="status"
      >
        <p className="providers__remote-head">
          {result.models.length === 0
            ? t('providers.remoteModelsNone')
            : t('providers.remoteModels', { count: result.models.length })}
        </p>
        {result.models.length > 0 && (
          <ul className="providers__remote-list">
            {result.models.map((id) => {
              const isAdded = added.includes(id)
              return (
                <li key={id} className="providers__remote-model" data-testid="remote-model">
                  <span className="providers__remote-id">{id}</span>
                  {isAdded ? (
                    <span className="providers__remote-added">
                      <Icon name="check" />
                      {t('providers.modelAdded')}
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="button button--small"
                      data-testid="remote-model-add"
                      data-model-id={id}
                      disabled={busy}
                      aria-label={t('providers.addThisModel', { model: id })}
                      onClick={() => onAdd(id)}
                    >
                      <Icon name="plus" />
                      {t('providers.addModelShort')}
                    </button>
                  )}
                </li>
              )
            })}
          </ul>
        )}
      </div>
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
