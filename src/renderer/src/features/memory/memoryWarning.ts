import type { MemoryWarning } from '@shared/context'
import type { useTranslation } from 'react-i18next'
import { translateKey } from '@renderer/i18n/dynamicKey'

type T = ReturnType<typeof useTranslation>['t']

/**
 * A degraded memory search in the UI language: main sends a code with its numbers and error
 * text (a build's `upstream` warning, `MemoryStatus.warning`). A code this version does not
 * know falls back to main's English sentence.
 */
export function describeMemoryWarning(warning: MemoryWarning, t: T): string {
  return translateKey(t, `memory.warnings.${warning.code}`, {
    ms: warning.ms,
    reason: warning.reason,
    defaultValue: warning.message
  })
}
