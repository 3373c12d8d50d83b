/**
 * What the builder needs to know about a model: which tokenizer it uses and how large its
 * context window is. Windows come from the maintained offline catalog `@pydantic/genai-prices`
 * (the same one providers/catalog.ts reads prices from; its matcher resolves dated snapshots
 * and aliases), so there is one model table in the code. The tokenizer is the one thing the
 * catalog does not record: the families below say which models count with which encoding. The
 * user's window (provider record or context config) always wins over both.
 */
import { calcPrice } from '@pydantic/genai-prices'
import type { ContextConfig } from '@shared/contextConfig'

export type EncodingName = 'o200k_base' | 'cl100k_base' | 'estimate'

interface TokenizerFamily {
  pattern: RegExp
  encoding: Exclude<EncodingName, 'estimate'>
}

// Order matters: the first match wins, so "gpt-4o" and "gpt-4.1" precede plain "gpt-4". Models
// matching none (Claude, Gemini, local models) have no public tokenizer here: estimated.
const TOKENIZER_FAMILIES: readonly TokenizerFamily[] = [
  { pattern: /^(gpt-5|gpt-4\.[15]|gpt-4o|chatgpt-4o|gpt-oss|o[134](-|$))/, encoding: 'o200k_base' },
  { pattern: /^(gpt-4|gpt-3\.5-turbo)/, encoding: 'cl100k_base' }
]

/** Unknown models (often local ones) get a window most of them support; the config can raise it. */
const UNKNOWN_MODEL_CONTEXT_WINDOW = 32_768

/** The reply needs room too: a quarter of the window, at most 16k tokens. */
const MAX_OUTPUT_RESERVE = 16_384

export interface ModelInfo {
  model: string
  encoding: EncodingName
  contextWindow: number
  /** False when the catalog gives no window for the model and the window is a guess. */
  known: boolean
}

// The catalog's matcher walks every provider's patterns; a build asks for the same model often.
const windows = new Map<string, number | null>()

/** The catalog's window for a model id ("openai/gpt-4o" as OpenRouter writes it, too). */
function catalogWindow(id: string): number | null {
  let window = windows.get(id)
  if (window === undefined) {
    const bare = id.slice(id.lastIndexOf('/') + 1)
    const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, bare)
    window = found?.model.context_window ?? null
    windows.set(id, window)
  }
  return window
}

export function describeModel(model: string): ModelInfo {
  const window = catalogWindow(model.trim().toLowerCase())
  return {
    model,
    encoding: encodingForModel(model),
    contextWindow: window ?? UNKNOWN_MODEL_CONTEXT_WINDOW,
    known: window !== null
  }
}

/** The window a configuration builds for: its own setting, else the catalog's for its model. */
export function contextWindowOf(config: Pick<ContextConfig, 'contextWindow' | 'model'>): number {
  return config.contextWindow ?? describeModel(config.model).contextWindow
}

export function encodingForModel(model: string): EncodingName {
  const id = model.trim().toLowerCase()
  return TOKENIZER_FAMILIES.find((family) => family.pattern.test(id))?.encoding ?? 'estimate'
}

export function defaultOutputReserve(contextWindow: number): number {
  return Math.min(MAX_OUTPUT_RESERVE, Math.floor(contextWindow / 4))
}
