import type { MemoryWarning } from '@shared/context'
import type { useTranslation } from 'react-i18next'

type T = ReturnType<typeof useTranslation>['t']

/**
 * A degraded memory search in the UI language: main sends a code with its numbers and error
 * text (a build's `upstream` warning, `MemoryStatus.warning`). A code this version does not
 * know falls back to main's English sentence.
 */
export function describeMemoryWarning(warning: MemoryWarning, t: T): string {
  // A key built from a code: i18next's typed keys cannot check it (and, with as many keys as
  // the app has, the attempt exceeds TypeScript's instantiation depth), so it is looked up as a
  // plain string; the default value covers a code this version has no sentence for.
  const lookup = t as unknown as (key: string, options: Record<string, unknown>) => string
  return lookup(`memory.warnings.${warning.code}`, {
    ms: warning.ms,
    reason: warning.reason,
    defaultValue: warning.message
  })
}
