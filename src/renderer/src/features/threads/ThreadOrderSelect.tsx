import { useTranslation } from 'react-i18next'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { useThreadStatsStore, type ThreadOrder } from './threadStatsStore'

const ORDERS: readonly ThreadOrder[] = ['recent', 'fullest', 'cost']

/** Recent activity, fullest context first, or most expensive first (those two also filter). */
export function ThreadOrderSelect({ shown, total }: { shown: number; total: number }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const order = useThreadStatsStore((state) => state.order)
  const setOrder = useThreadStatsStore((state) => state.setOrder)
  return (
    <div className="thread-order">
      <label className="thread-order__field">
        <span className="visually-hidden">{t('threadStats.sortLabel')}</span>
        <select
          data-testid="thread-order"
          value={order}
          onChange={(event) => setOrder(event.target.value as ThreadOrder)}
        >
          {ORDERS.map((value) => (
            <option key={value} value={value}>
              {t(`threadStats.sort.${value}`)}
            </option>
          ))}
        </select>
      </label>
      {shown < total && (
        <p className="thread-order__note" role="status" data-testid="thread-order-note">
          {t('threadStats.filtered', { count: total, total: format(total), shown: format(shown) })}
        </p>
      )}
    </div>
  )
}
