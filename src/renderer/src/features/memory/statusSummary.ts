import type { useTranslation } from 'react-i18next'
import type { MemoryStatus } from '@shared/domain'
import { looseT } from '../../i18n/dynamicKey'

type T = ReturnType<typeof useTranslation>['t']

/** ok: meaning-based recall works; busy: it will once loading or indexing ends; degraded: words only. */
type StatusTone = 'ok' | 'busy' | 'degraded'

/** Over every file of the one-time download, 0–100. */
export function downloadPercent(progress: MemoryStatus['model']['progress']): number {
  const total = progress.reduce((sum, file) => sum + file.total, 0)
  const loaded = progress.reduce((sum, file) => sum + file.loaded, 0)
  return total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0
}

export const pendingItems = (status: MemoryStatus): number =>
  status.index.pendingMessages + status.index.pendingMemories

/** The time left in the largest unit that keeps it a small number, rounded up. */
function timeLeft(seconds: number): { key: 'seconds' | 'minutes' | 'hours'; count: number } {
  if (seconds < 90) return { key: 'seconds', count: Math.max(1, Math.ceil(seconds)) }
  if (seconds < 90 * 60) return { key: 'minutes', count: Math.ceil(seconds / 60) }
  return { key: 'hours', count: Math.ceil(seconds / 3600) }
}

/** "Indexing 1,200 more", with the rate and the time left once the indexer has measured them. */
function indexingText(status: MemoryStatus, pending: number, t: ReturnType<typeof looseT>): string {
  const { itemsPerSecond: rate, secondsLeft } = status.index
  if (!rate || secondsLeft === null) return t('memory.status.indexing', { count: pending })
  const left = timeLeft(secondsLeft)
  return t('memory.status.indexingRate', {
    count: pending,
    rate: rate < 10 ? rate.toFixed(1) : Math.round(rate),
    left: t(`memory.status.timeLeft.${left.key}`, { count: left.count })
  })
}

/** One line for the sidebar and the manager's headline. */
export function summarizeStatus(
  status: MemoryStatus,
  typed: T
): { tone: StatusTone; text: string } {
  // Plain-string lookups: typed `t()` over a switch of keys hits TS2589 (i18n/dynamicKey.ts).
  const t = looseT(typed)
  switch (status.model.state) {
    case 'ready': {
      const pending = pendingItems(status)
      return pending > 0
        ? { tone: 'busy', text: indexingText(status, pending, t) }
        : { tone: 'ok', text: t('memory.status.ready') }
    }
    case 'loading':
      return { tone: 'busy', text: t('memory.status.loading') }
    case 'downloading':
      return {
        tone: 'busy',
        text: t('memory.status.downloading', { percent: downloadPercent(status.model.progress) })
      }
    case 'idle':
      return { tone: 'degraded', text: t('memory.status.idle') }
    case 'unavailable':
      return { tone: 'degraded', text: t('memory.status.unavailable') }
  }
}
