/**
 * The first stage of the in-memory vector indexes (MessageCodeIndex, MemoryVectorIndex): one
 * sign bit per dimension, sqlite-vec's vec_quantize_binary, and a Hamming scan that admits the
 * codes nearest to each query for an exact (or 8-bit) re-score of far fewer rows.
 *
 * A build searches with two query vectors, the input's and its conversation's (issue #21):
 * one scan serves both, reading each code once.
 */

/**
 * Codes admitted per result searched: at least MIN_ADMITTED, and this many per result, so the
 * re-score grows with what the build can hold (issue #16: a list of 100 re-scored 4,000).
 * Measured on 100,000 clustered 512-d vectors: 400 candidates give recall@10 of 1.00 against
 * exact search (200 give 0.90); deeper lists need fewer per result (docs/MEMORY.md).
 */
export const ADMITTED_PER_RESULT = 20
const MIN_ADMITTED = 400
/**
 * Re-scoring more codes than this costs more than it finds: k = 200 already re-scores 4,000,
 * and recall asks for up to 400 (what lies past the first 100 is filler for large budgets).
 */
const MAX_ADMITTED = 4_000

/** How many codes the Hamming stage admits for `k` results (`perResult` each). */
export function admittedFor(k: number, perResult = ADMITTED_PER_RESULT): number {
  return Math.max(MIN_ADMITTED, Math.min(MAX_ADMITTED, k * perResult))
}

/** 32-bit words per code of a `dimension`-d vector. */
export function codeWords(dimension: number): number {
  return Math.ceil(dimension / 32)
}

/**
 * Writes the vector's sign bits at word `offset` of `into`: bit d set when component d is
 * positive, the bit order of vec_quantize_binary's bytes read as little-endian words (the
 * store test compares the two).
 */
export function writeSignCode(vector: Float32Array, into: Uint32Array, offset = 0): void {
  into.fill(0, offset, offset + codeWords(vector.length))
  for (let d = 0; d < vector.length; d++) {
    if ((vector[d] as number) > 0) into[offset + (d >> 5)]! |= 1 << (d & 31)
  }
}

export function signCode(vector: Float32Array): Uint32Array {
  const code = new Uint32Array(codeWords(vector.length))
  writeSignCode(vector, code)
  return code
}

/** The codes a scan reads: `words` words per code, code i at word i × words. */
export interface CodeTable {
  codes: Uint32Array
  words: number
}

/**
 * For each query, the positions of the `limit` codes nearest to its code in Hamming distance
 * (ties at the cut-off broken by position), in position order. `among` is the positions to
 * scan, in increasing order (one thread's messages, some categories' memories), or a count:
 * positions 0 to count − 1. A scan costs what it reads: a 20-message thread's search reads 20
 * codes, whatever the store holds.
 */
export function nearestCodes(
  { codes, words }: CodeTable,
  among: ArrayLike<number> | number,
  queries: readonly { code: Uint32Array; limit: number }[]
): number[][] {
  const slots = typeof among === 'number' ? among : among.length
  const at = typeof among === 'number' ? null : among
  const count = queries.length
  const maxDistance = words * 32
  const query = new Uint32Array(count * words)
  queries.forEach(({ code }, q) => query.set(code.subarray(0, words), q * words))
  const distances = new Uint16Array(slots * count)
  const histograms = new Uint32Array((maxDistance + 1) * count)
  // Code-major: each code is read once, for every query, while it is in cache.
  for (let slot = 0; slot < slots; slot++) {
    const base = (at === null ? slot : (at[slot] as number)) * words
    for (let q = 0; q < count; q++) {
      let distance = 0
      const offset = q * words
      for (let w = 0; w < words; w++) {
        distance += popcount((codes[base + w] as number) ^ (query[offset + w] as number))
      }
      distances[slot * count + q] = distance
      histograms[q * (maxDistance + 1) + distance]!++
    }
  }
  return queries.map(({ limit }, q) => {
    // The smallest cut-off that admits `limit` codes, without sorting all of them.
    const histogram = q * (maxDistance + 1)
    let cutoff = 0
    let admitted = 0
    while (cutoff <= maxDistance && admitted + (histograms[histogram + cutoff] as number) < limit) {
      admitted += histograms[histogram + cutoff] as number
      cutoff++
    }
    let atCutoff = limit - admitted
    const positions: number[] = []
    for (let slot = 0; slot < slots && positions.length < limit; slot++) {
      const distance = distances[slot * count + q] as number
      if (distance < cutoff || (distance === cutoff && atCutoff-- > 0)) {
        positions.push(at === null ? slot : (at[slot] as number))
      }
    }
    return positions
  })
}

/** Set bits in a 32-bit word (SWAR). */
function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}
