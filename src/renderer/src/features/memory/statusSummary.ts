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
        ? { tone: 'busy', text: t('memory.status.indexing', { count: pending }) }
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
