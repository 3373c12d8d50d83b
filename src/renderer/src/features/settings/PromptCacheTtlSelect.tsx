import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { AppSettings } from '@shared/domain'
import { useSettingsStore } from './settingsStore'
import './settings.css'

type Ttl = AppSettings['promptCacheTtl']

const isTtl = (value: string): value is Ttl => value === '5m' || value === '1h'

/**
 * How long Anthropic keeps the cached start of each request (`settings.promptCacheTtl`). Other
 * providers never see the markers, so the explanation says so, and what the longer TTL costs.
 */
export function PromptCacheTtlSelect() {
  const { t } = useTranslation()
  const id = useId()
  const explainId = useId()
  const ttl = useSettingsStore((state) => state.settings.promptCacheTtl)
  const setTtl = useSettingsStore((state) => state.setPromptCacheTtl)

  return (
    <div className="cache-ttl">
      <div className="cache-ttl__row">
        <label htmlFor={id}>{t('promptCache.label')}</label>
        <select
          id={id}
          data-testid="prompt-cache-ttl"
          aria-describedby={explainId}
          value={ttl}
          onChange={(event) => {
            if (isTtl(event.target.value)) void setTtl(event.target.value)
          }}
        >
          <option value="5m">{t('promptCache.option5m')}</option>
          <option value="1h">{t('promptCache.option1h')}</option>
        </select>
      </div>
      <p id={explainId} className="cache-ttl__explain" data-testid="prompt-cache-ttl-explain">
        {t('promptCache.explain')}
      </p>
    </div>
  )
}
