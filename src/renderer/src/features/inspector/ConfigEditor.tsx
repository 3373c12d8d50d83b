import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { defaultTotalBudget, type TokenStats } from '@shared/context'
import {
  BUDGETED_SECTIONS,
  RECALL_SCOPES,
  type BudgetedSection,
  type ContextConfigPatch
} from '@shared/contextConfig'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { translateKey } from '@renderer/i18n/dynamicKey'
import { useInspectorStore } from './inspectorStore'
import { NumberField } from './NumberField'
import { budgetForm, isEmptyPatch, percentageSum } from './whatIf'

/**
 * The budget settings as a what-if: every change previews at once without being stored, and
 * is kept only when the user saves it for this thread or as the default for all threads.
 */
export function ConfigEditor({ stats }: { stats: TokenStats | null }) {
  const { t, i18n } = useTranslation()
  const format = useFormatNumber()
  const ids = useId()
  const config = useInspectorStore((state) => state.config)
  const whatIf = useInspectorStore((state) => state.whatIf)
  const configError = useInspectorStore((state) => state.configError)
  const saving = useInspectorStore((state) => state.saving)
  const { changeWhatIf, resetWhatIf, saveConfig } = useInspectorStore.getState()

  if (!config) return <p className="inspector__hint">{t('inspector.config.loading')}</p>

  const form = budgetForm(config.effective, whatIf)
  const sum = percentageSum(form.percentages)
  const dirty = !isEmptyPatch(whatIf)
  const automaticTotal = stats ? defaultTotalBudget(stats.contextWindow, stats.outputReserve) : null
  const overrides = overrideNames(config.thread, t, i18n.language)
  const sumText =
    sum > 100
      ? t('inspector.config.sumOver', { sum: format(sum) })
      : sum < 100
        ? t('inspector.config.sumHeadroom', { sum: format(sum), free: format(100 - sum) })
        : t('inspector.config.sum', { sum: format(sum) })

  return (
    <form className="config" onSubmit={(event) => event.preventDefault()}>
      <fieldset className="config__group">
        <legend className="config__legend">{t('inspector.config.percentages')}</legend>
        {BUDGETED_SECTIONS.map((section) => {
          const value = form.percentages[section]
          return (
            <div key={section} className="config__row" data-section={section}>
              <span className="config__swatch" aria-hidden="true" />
              <label className="config__label" htmlFor={`${ids}-${section}`}>
                {t(`inspector.sections.${section}`)}
              </label>
              <span className="config__input-wrap">
                <NumberField
                  id={`${ids}-${section}`}
                  className="config__input"
                  data-testid="percentage-input"
                  data-section={section}
                  min={0}
                  max={100}
                  step="any"
                  aria-invalid={value < 0 || value > 100 || sum > 100}
                  value={value}
                  onValue={(next) => changeWhatIf({ percentages: percentagePatch(section, next) })}
                />
                <span className="config__unit">%</span>
              </span>
              <span className="config__share">
                {stats &&
                  t('inspector.config.shareTokens', {
                    tokens: format(stats.sections[section].share)
                  })}
              </span>
            </div>
          )
        })}
        <p
          className="config__sum"
          data-testid="percentage-sum"
          data-sum={sum}
          data-invalid={sum > 100 ? 'true' : 'false'}
        >
          {sumText}
        </p>
      </fieldset>

      <div className="config__field">
        <label className="config__legend" htmlFor={`${ids}-total`}>
          {t('inspector.config.totalBudget')}
        </label>
        <span className="config__input-wrap">
          <NumberField
            id={`${ids}-total`}
            className="config__input config__input--wide"
            data-testid="total-budget-input"
            min={1}
            step={1}
            placeholder={
              automaticTotal === null
                ? undefined
                : t('inspector.config.totalAuto', { tokens: format(automaticTotal) })
            }
            aria-describedby={`${ids}-total-hint`}
            aria-invalid={
              form.totalBudget !== null &&
              (!Number.isInteger(form.totalBudget) || form.totalBudget < 1)
            }
            value={form.totalBudget}
            onValue={(next) => changeWhatIf({ totalBudget: next })}
          />
          <span className="config__unit">{t('inspector.config.tokensUnit')}</span>
        </span>
        <span className="config__hint" id={`${ids}-total-hint`}>
          {t('inspector.config.totalHint')}
        </span>
      </div>

      <ConfigSwitch
        testId="pinning-toggle"
        checked={form.pinning}
        label={t('inspector.config.pinning')}
        hint={t('inspector.config.pinningHint')}
        onChange={(checked) => changeWhatIf({ pinning: checked })}
      />
      <ConfigSwitch
        testId="chunked-window-toggle"
        checked={form.windowPolicy === 'chunked'}
        label={t('inspector.config.chunkedWindow')}
        hint={t('inspector.config.chunkedWindowHint')}
        onChange={(checked) =>
          changeWhatIf({ window: { policy: checked ? 'chunked' : 'sliding' } })
        }
      />

      <fieldset className="config__group" data-testid="recall-settings">
        <legend className="config__legend">{t('inspector.recall.scopeLegend')}</legend>
        {RECALL_SCOPES.map((scope) => (
          <label key={scope} className="config__radio">
            <input
              type="radio"
              name={`${ids}-recall-scope`}
              data-testid="recall-scope"
              value={scope}
              checked={form.recallScope === scope}
              onChange={() => changeWhatIf({ recall: { scope } })}
            />
            <span className="config__switch-text">
              <span>{t(`inspector.recall.scope.${scope}`)}</span>
              <span className="config__hint">{t(`inspector.recall.scopeHint.${scope}`)}</span>
            </span>
          </label>
        ))}
        <ConfigSwitch
          testId="fill-spare-toggle"
          checked={form.fillSpare}
          label={t('inspector.recall.fillSpare')}
          hint={t('inspector.recall.fillSpareHint')}
          onChange={(checked) => changeWhatIf({ recall: { fillSpare: checked } })}
        />
      </fieldset>

      {configError && (
        <p className="config__error" role="alert" data-testid="config-error">
          {configError}
        </p>
      )}
      {dirty && (
        <div className="config__unsaved">
          <span>{t('inspector.config.unsaved')}</span>
          <button
            type="button"
            className="button button--small"
            data-testid="whatif-reset"
            disabled={saving}
            onClick={resetWhatIf}
          >
            {t('inspector.config.reset')}
          </button>
        </div>
      )}

      <div className="config__actions">
        <button
          type="button"
          className="button button--small"
          data-testid="save-global-config"
          disabled={!dirty || saving}
          onClick={() => void saveConfig('global')}
        >
          {t('inspector.config.saveGlobal')}
        </button>
        <button
          type="button"
          className="button button--small button--primary"
          data-testid="save-thread-config"
          disabled={!dirty || saving}
          onClick={() => void saveConfig('thread')}
        >
          {t('inspector.config.saveThread')}
        </button>
      </div>
      {overrides && (
        <p className="config__hint" data-testid="thread-overrides">
          {t('inspector.config.threadOverrides', { fields: overrides })}
        </p>
      )}
    </form>
  )
}

/** An on/off setting with its label and the sentence that explains it. */
function ConfigSwitch(props: {
  testId: string
  checked: boolean
  label: string
  hint: string
  onChange: (checked: boolean) => void
}) {
  return (
    <label className="config__switch">
      <input
        type="checkbox"
        role="switch"
        data-testid={props.testId}
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <span className="config__switch-text">
        <span>{props.label}</span>
        <span className="config__hint">{props.hint}</span>
      </span>
    </label>
  )
}

/** An empty percentage box leaves the share as it was until a number is typed. */
function percentagePatch(
  section: BudgetedSection,
  value: number | null
): ContextConfigPatch['percentages'] {
  return value === null ? {} : { [section]: value }
}

/** "Recent %, total budget": what this thread sets itself, so saving a default won't change it. */
function overrideNames(
  thread: ContextConfigPatch | null,
  t: ReturnType<typeof useTranslation>['t'],
  language: string
): string | null {
  if (!thread || isEmptyPatch(thread)) return null
  const names = new Set<string>()
  for (const key of Object.keys(thread) as (keyof ContextConfigPatch)[]) {
    if (key === 'percentages') {
      for (const section of BUDGETED_SECTIONS) {
        if (thread.percentages?.[section] !== undefined) {
          names.add(`${translateKey(t, `inspector.sections.${section}`)} %`)
        }
      }
    } else if (key === 'totalBudget') names.add(translateKey(t, 'inspector.config.fieldTotal'))
    else if (key === 'pinning') names.add(translateKey(t, 'inspector.config.fieldPinning'))
    else if (key === 'window') names.add(translateKey(t, 'inspector.config.fieldWindow'))
    else if (key === 'recall') names.add(translateKey(t, 'inspector.recall.field'))
    else names.add(translateKey(t, 'inspector.config.fieldOther'))
  }
  return names.size === 0
    ? null
    : new Intl.ListFormat(language, { type: 'conjunction' }).format([...names])
}
