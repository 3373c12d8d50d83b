import fc from 'fast-check'
import type { z } from 'zod'

/** Text that has broken parsers, SQL, FTS and JSON before: NUL, lone surrogates, syntax. */
export const HOSTILE_STRINGS = [
  '\0',
  'a\0b',
  '\0'.repeat(40),
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '\u202Eevil',
  '__proto__',
  'constructor',
  'prototype',
  '" OR 1=1 --',
  "'); DROP TABLE messages; --",
  'NEAR("a" "b")',
  '*',
  '"',
  '%_\\',
  '{{ version }}',
  '../../etc/passwd',
  '你好\0世界',
  ' '
]

/** Where generated values should point: real rows, so handlers go past their lookups. */
export interface Anchors {
  uuids: string[]
  ids: number[]
  /** Existing non-UUID keys, such as a provider id. */
  strings: string[]
  /** A base URL that refuses connections (never a real host). */
  url: string
}

type Def = {
  type: string
  shape?: Record<string, z.ZodType>
  innerType?: z.ZodType
  element?: z.ZodType
  options?: z.ZodType[]
  entries?: Record<string, string>
  values?: unknown[]
  keyType?: z.ZodType
  valueType?: z.ZodType
  in?: z.ZodType
  format?: string
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/**
 * Values shaped like what `schema` accepts (mostly valid, so handlers run), with hostile
 * strings, boundary numbers and, now and then, an extra or prototype-polluting key.
 */
export function arbitraryFor(schema: z.ZodType, anchors: Anchors): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  const bounds = schema as unknown as {
    maxLength?: number | null
    minValue?: number
    maxValue?: number
    isInt?: boolean
    format?: string | null
  }
  switch (def.type) {
    case 'string':
      return stringFor(bounds.format ?? null, bounds.maxLength, anchors)
    case 'number':
      return numberFor(bounds, anchors)
    case 'boolean':
      return fc.boolean()
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!))
    case 'literal':
      return fc.constantFrom(...def.values!)
    case 'undefined':
      return fc.constant(undefined)
    case 'null':
      return fc.constant(null)
    case 'optional':
    case 'default':
      return fc.option(arbitraryFor(def.innerType!, anchors), { nil: undefined, freq: 3 })
    case 'nullable':
      return fc.option(arbitraryFor(def.innerType!, anchors), { nil: null, freq: 3 })
    case 'pipe':
      return arbitraryFor(def.in!, anchors)
    case 'array':
      return fc.array(arbitraryFor(def.element!, anchors), { maxLength: 3 })
    case 'union':
      return fc.oneof(...def.options!.map((option) => arbitraryFor(option, anchors)))
    case 'record':
      return fc.dictionary(
        fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('__proto__', 'constructor')),
        arbitraryFor(def.valueType!, anchors),
        { maxKeys: 3 }
      )
    case 'object':
      return objectFor(def.shape!, anchors)
    default:
      return fc.anything()
  }
}

function stringFor(
  format: string | null,
  max: number | null | undefined,
  anchors: Anchors
): fc.Arbitrary<string> {
  if (format === 'uuid') return fc.oneof(fc.constantFrom(...anchors.uuids), fc.uuid())
  if (format === 'url') return fc.constantFrom(anchors.url, `${anchors.url}/v1`, 'ftp://x', 'x')
  const limit = max ?? 1_000
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...anchors.strings) },
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({
      unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      maxLength: 4
    }),
    fc.constantFrom(...HOSTILE_STRINGS),
    // Words, so long text does not hit the tokenizer's worst case (a separate issue).
    fc.constantFrom(limit, limit + 1).map((n) => 'lorem ipsum '.repeat(n).slice(0, n))
  )
}

function numberFor(
  bounds: { minValue?: number; maxValue?: number; isInt?: boolean },
  anchors: Anchors
): fc.Arbitrary<number> {
  const min = Number.isFinite(bounds.minValue) ? bounds.minValue! : -1e9
  const max = Number.isFinite(bounds.maxValue) ? bounds.maxValue! : 1e9
  return fc.oneof(
    fc.constantFrom(...anchors.ids),
    bounds.isInt ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }),
    fc.constantFrom(min, max, min - 1, max + 1, 0, -1, 2 ** 53, -0, NaN, Infinity)
  )
}

function objectFor(shape: Record<string, z.ZodType>, anchors: Anchors): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(
    Object.entries(shape).map(([key, value]) => [key, arbitraryFor(value, anchors)])
  )
  return fc
    .tuple(
      fc.record(fields),
      fc.constantFrom(null, 'extra', '__proto__', 'constructor'),
      fc.nat(20)
    )
    .map(([value, extra, dice]) => {
      const object = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
      )
      // Mostly clean objects, so handlers run; sometimes one key the contract does not allow.
      if (extra && dice === 0) return { ...object, ...JSON.parse(`{"${extra}": {"polluted": 1}}`) }
      return object
    })
}
