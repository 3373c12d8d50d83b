/**
 * What the builder needs to know about a model: which tokenizer it uses and how large its
 * context window is. Families are matched by id prefix so dated snapshots ("gpt-4o-2024-11-20")
 * resolve without a table update. The user can override the window in the context config.
 */

export type EncodingName = 'o200k_base' | 'cl100k_base' | 'estimate'

interface ModelFamily {
  pattern: RegExp
  encoding: EncodingName
  contextWindow: number
}

// Order matters: the first match wins, so "gpt-4o" and "gpt-4.1" precede plain "gpt-4".
const FAMILIES: readonly ModelFamily[] = [
  { pattern: /^gpt-5/, encoding: 'o200k_base', contextWindow: 400_000 },
  { pattern: /^gpt-4\.1/, encoding: 'o200k_base', contextWindow: 1_047_576 },
  { pattern: /^gpt-4\.5/, encoding: 'o200k_base', contextWindow: 128_000 },
  { pattern: /^(gpt-4o|chatgpt-4o)/, encoding: 'o200k_base', contextWindow: 128_000 },
  { pattern: /^o1-(mini|preview)/, encoding: 'o200k_base', contextWindow: 128_000 },
  { pattern: /^o[134](-|$)/, encoding: 'o200k_base', contextWindow: 200_000 },
  { pattern: /^gpt-oss/, encoding: 'o200k_base', contextWindow: 131_072 },
  { pattern: /^gpt-4-(turbo|\d{4}-preview|1106)/, encoding: 'cl100k_base', contextWindow: 128_000 },
  { pattern: /^gpt-4-32k/, encoding: 'cl100k_base', contextWindow: 32_768 },
  { pattern: /^gpt-4(-|$)/, encoding: 'cl100k_base', contextWindow: 8_192 },
  { pattern: /^gpt-3\.5-turbo/, encoding: 'cl100k_base', contextWindow: 16_385 },
  { pattern: /^claude-/, encoding: 'estimate', contextWindow: 200_000 },
  { pattern: /^gemini-/, encoding: 'estimate', contextWindow: 1_048_576 }
]

/** Unknown models (often local ones) get a window most of them support; the config can raise it. */
const UNKNOWN_MODEL_CONTEXT_WINDOW = 32_768

/** The reply needs room too: a quarter of the window, at most 16k tokens. */
const MAX_OUTPUT_RESERVE = 16_384

export interface ModelInfo {
  model: string
  encoding: EncodingName
  contextWindow: number
  /** False when the model matched no family and the window is a guess. */
  known: boolean
}

export function describeModel(model: string): ModelInfo {
  const id = model.trim().toLowerCase()
  const family = FAMILIES.find((f) => f.pattern.test(id))
  return family
    ? { model, encoding: family.encoding, contextWindow: family.contextWindow, known: true }
    : { model, encoding: 'estimate', contextWindow: UNKNOWN_MODEL_CONTEXT_WINDOW, known: false }
}

export function encodingForModel(model: string): EncodingName {
  return describeModel(model).encoding
}

export function defaultOutputReserve(contextWindow: number): number {
  return Math.min(MAX_OUTPUT_RESERVE, Math.floor(contextWindow / 4))
}
