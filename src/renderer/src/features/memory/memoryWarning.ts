import type { useTranslation } from 'react-i18next'

type T = ReturnType<typeof useTranslation>['t']

/**
 * Main explains a degraded memory search in English: the build's `upstream` warnings and
 * `MemoryStatus.warning` (src/main/services/memoryService.ts, src/main/context/memorySearch.ts).
 * Each known sentence is recognised here and said in the UI language, saying whether the
 * request got memories found by words only or none at all. Null for a sentence this version
 * does not know, so the caller can fall back to main's English.
 */
export function translateMemoryWarning(message: string, t: T): string | null {
  let match: RegExpMatchArray | null
  if ((match = message.match(/^Memory search took over (\d+) ms/))) {
    return t('memory.warnings.timeout', { ms: match[1] })
  }
  if ((match = message.match(/^Memory search failed \((.*)\); /))) {
    return t('memory.warnings.failed', { reason: match[1] })
  }
  if (message.startsWith('No embedding model is configured')) return t('memory.warnings.noModel')
  if (message.startsWith('The embedding model is still loading'))
    return t('memory.warnings.loading')
  if (message.startsWith('The embedding model is being downloaded')) {
    return t('memory.warnings.downloading')
  }
  if ((match = message.match(/^The embedding model could not be loaded \((.*)\); /))) {
    return t('memory.warnings.unavailable', { reason: match[1] })
  }
  if (message.startsWith('The embedding model is preparing its index')) {
    return t('memory.warnings.indexing')
  }
  if ((match = message.match(/^The query could not be embedded within (\d+) ms/))) {
    return t('memory.warnings.slow', { ms: match[1] })
  }
  if ((match = message.match(/^The query could not be embedded \((.*)\); /))) {
    return t('memory.warnings.embedFailed', { reason: match[1] })
  }
  return null
}
