import { ContextConfigPatchSchema, type ContextConfigPatch } from '@shared/contextConfig'

/**
 * A `--config '<json>'` what-if, as the eval and the cache replay take it: a context config
 * patch, validated as settings validate it. Throws a sentence naming what is wrong.
 */
export function parseConfigPatch(text: string): ContextConfigPatch {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`--config is not JSON: ${(error as Error).message}`)
  }
  const parsed = ContextConfigPatchSchema.safeParse(value)
  if (!parsed.success) throw new Error(`--config: ${parsed.error.message}`)
  return parsed.data
}
