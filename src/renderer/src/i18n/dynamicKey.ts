/**
 * Looks up a key built at run time (`inspector.sections.${section}`). i18next's typed keys
 * expand the translation tree once per member of a template key; with as many strings as the
 * app has, TypeScript gives up on some of those calls (TS2589). Such a key is looked up as a
 * plain string instead; a `defaultValue` covers a key this version has no sentence for.
 */
export function translateKey(
  t: unknown,
  key: string,
  options: Record<string, unknown> = {}
): string {
  return (t as (key: string, options: Record<string, unknown>) => string)(key, options)
}
