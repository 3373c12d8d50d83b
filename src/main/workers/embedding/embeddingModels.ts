/**
 * What the app knows about each sentence-embedding model it can run, and where a model's files
 * come from. Pure data and path logic; the worker and the services both read it.
 */
import {
  BGE_MODEL_ID,
  DEFAULT_EMBEDDING_MODEL_ID,
  E5_MODEL_ID,
  type EmbeddingModelId
} from '@shared/embeddingModelIds'

type Pooling = 'mean' | 'cls'

export interface EmbeddingModelSpec {
  /** The transformers.js / Hugging Face id, also the folder name under a models root. */
  id: string
  pooling: Pooling
  /**
   * bge-small-zh-v1.5's tokenizer does not lowercase, so capitalised English words become
   * [UNK] ("I", "Coffee"); lowercasing first keeps them in the vocabulary.
   */
  lowercase: boolean
  /** Which ONNX file: `q8` reads onnx/model_quantized.onnx. */
  dtype: 'q8' | 'fp32'
  /**
   * The raw cosine at which this model calls two texts related. Raw cosines are not comparable
   * across models (bge puts unrelated English pairs near 0.6), so `minSimilarity` is applied to
   * a calibrated value that maps this point to 0.6 (see `calibratedSimilarity`).
   */
  relatedCosine: number
  /**
   * In a build (memory search with `fillBudget`), the calibrated similarity from which the
   * vector list alone ranks an item by its fused rank; under it, a vector-only hit is placed as
   * fill (nearest first, after every supported hit) and still sent when budget is left. 0.6,
   * "related", suits bge; e5 calls most same-language text related, so its weak vector-only
   * hits crowded out the evidence the text found (docs/EVALUATION.md, issue #10's re-rank).
   * Interactive searches keep `minSimilarity` (0.6 by default) for every model.
   */
  rankFloor: number
  /**
   * The raw cosine from which a new memory is taken to restate an existing one (and updates it
   * instead of being added). e5 scores distinct facts of the same wording at 0.94-0.96
   * ("我对花生过敏。" / "我对猫毛过敏。"), so its bar sits higher than bge's.
   */
  duplicateCosine: number
  /** Characters embedded per text at most; the tokenizer also truncates at 512 tokens. */
  maxChars: number
  /**
   * What of a text longer than the model's 512-token window is embedded: `head` its start (the
   * characters past `maxChars`, then the tokenizer, cut the rest); `head+tail` its first and
   * last halves, measured better for e5 (docs/MEMORY.md, "Long messages").
   */
  longText: 'head' | 'head+tail'
  /** Per-language centering (workers/embedding/centering.ts), or none. Part of the space's identity. */
  centering: 'lang-v1' | null
  /**
   * Text put before a search query and before a stored item (message, memory) when they are
   * embedded, for models trained that way (e5: `query: ` / `passage: `); null for none.
   */
  prefixes: { query: string; passage: string } | null
}

/** Which side of a search a text is: the question, or an item stored to be found. */
export type EmbedRole = 'query' | 'passage'

export const DEFAULT_MODEL_ID: EmbeddingModelId = DEFAULT_EMBEDDING_MODEL_ID

const KNOWN: Record<string, Omit<EmbeddingModelSpec, 'id'>> = {
  [E5_MODEL_ID]: {
    pooling: 'mean',
    // XLM-R's vocabulary keeps case, and e5 was trained on cased text.
    lowercase: false,
    dtype: 'q8',
    // e5's cosines sit high: a question and the memory that answers it mostly score 0.83-0.90,
    // unrelated pairs 0.70-0.80 (docs/MEMORY.md has the measurements).
    relatedCosine: 0.8,
    rankFloor: 0.75,
    duplicateCosine: 0.97,
    // Long enough that head+tail sees the real end of most messages.
    maxChars: 8000,
    longText: 'head+tail',
    centering: null,
    prefixes: { query: 'query: ', passage: 'passage: ' }
  },
  [BGE_MODEL_ID]: {
    pooling: 'mean',
    lowercase: true,
    dtype: 'q8',
    // After centering, paraphrases of one statement mostly score 0.25-0.6 and unrelated
    // pairs 0.0-0.2 (docs/MEMORY.md has the measurements).
    relatedCosine: 0.2,
    rankFloor: 0.6,
    duplicateCosine: 0.92,
    maxChars: 2000,
    longText: 'head',
    centering: 'lang-v1',
    prefixes: null
  }
}

/** A spec for `id`: the known one, or mean pooling with no calibration for an unknown model. */
export function modelSpec(
  id: string,
  overrides: Partial<EmbeddingModelSpec> = {}
): EmbeddingModelSpec {
  const known = KNOWN[id] ?? KNOWN[id.replace(/^.*\//, 'Xenova/')]
  return {
    id,
    pooling: 'mean',
    lowercase: false,
    dtype: 'q8',
    relatedCosine: 0.6,
    rankFloor: 0.6,
    duplicateCosine: 0.92,
    maxChars: 2000,
    longText: 'head',
    centering: null,
    prefixes: null,
    ...known,
    ...overrides
  }
}

/** The text the model reads for `text` in `role`: the spec's prefix, if any, then the text. */
export function withPrefix(spec: EmbeddingModelSpec, text: string, role: EmbedRole): string {
  return spec.prefixes ? `${spec.prefixes[role]}${text}` : text
}

/** The threshold scale: `relatedCosine` maps to 0.6 and 1 to 1, linearly, clamped to [0, 1]. */
export function calibratedSimilarity(cosine: number, relatedCosine: number): number {
  const value = 0.6 + (0.4 * (cosine - relatedCosine)) / (1 - relatedCosine)
  return Math.min(1, Math.max(0, value))
}

/**
 * Where the worker reads the model. `folder`: a models root that holds `<id>/config.json` etc.
 * and nothing is downloaded. `hub`: the same layout under `cacheDir`, filled from the Hugging
 * Face hub on first use (the only network access memory ever makes, and it sends no user data).
 */
export type ModelSource =
  /** `name` is the model's folder under `root` (often, but not always, the spec's id). */
  { kind: 'folder'; root: string; name: string } | { kind: 'hub'; cacheDir: string }

/** The identity of a vector space: vectors of different spaces are never compared. */
export function spaceKey(spec: EmbeddingModelSpec, dimension: number): string {
  // `codes`: message vectors are stored with binary codes (store/messageCodeIndex.ts); a space
  // written by an older layout is re-embedded rather than read wrongly.
  // Prefixes and a long-text policy other than `head` change every vector too (appended only
  // when present, so the keys of spaces written before they existed stay the same).
  const extras = [
    spec.prefixes ? '|prefixed' : '',
    spec.longText === 'head' ? '' : `|${spec.longText}`
  ]
  return `${spec.id}|${spec.pooling}|${spec.lowercase ? 'lc' : 'raw'}|${spec.centering ?? 'raw'}|${dimension}|codes${extras.join('')}`
}
