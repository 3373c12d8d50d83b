/**
 * Lookups that i18next's typed keys cannot take. Typed `t()` expands the translation tree (and
 * parses each string's interpolations) per call; with as many strings as the app has,
 * TypeScript gives up on some calls (TS2589), notably template keys like
 * `inspector.sections.${section}` and functions that call `t` many times over a union of
 * keys. Such code looks keys up as plain strings; a `defaultValue` covers a key this version
 * has no sentence for, and the e2e tests show every label.
 */
export type LooseT = (key: string, options?: Record<string, unknown>) => string

export function looseT(t: unknown): LooseT {
  return t as LooseT
}

export function translateKey(
  t: unknown,
  key: string,
  options: Record<string, unknown> = {}
): string {
  return looseT(t)(key, options)
}
