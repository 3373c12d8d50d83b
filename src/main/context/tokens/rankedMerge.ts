/**
 * Byte-pair merging for counting, on the encoding's own ranks and split regex (gpt-tokenizer's
 * tables), without gpt-tokenizer's per-pair lookup. gpt-tokenizer (4.0) finds the rank of each
 * candidate pair of a piece by checking its bytes for UTF-8, decoding them to a string with a
 * TextDecoder and, for part of a character, by a binary search over byte arrays: two thirds of
 * the time counting Chinese (a 2 M-character paste's ends, 0.5 s of 0.6 s). Here a pair whose
 * two ends fall between characters is a substring of the piece, looked up among the ranks'
 * strings; any other pair (inside a character) is looked up by its bytes read as Latin-1 among
 * the 1,571 (o200k) ranks that are not text. The merge is tiktoken's: the lowest rank first,
 * the leftmost of equals. Same tables, same rule, so the same counts (a property test holds it
 * to gpt-tokenizer's on random mixes of scripts, for both encodings), 1.8-2.1 times as fast on
 * text gpt-tokenizer has not cached (150,000 Chinese characters: 330 → 165 ms). The tables
 * (a map of the ranks' own strings, about 25 ms to build) are built in steps the first time a
 * long text is counted from its ends (endsFirstCount.ts); counts before that are
 * gpt-tokenizer's.
 */
import type { Steps } from '../steps'

/** gpt-tokenizer's rank table: index = rank, a string where the token is text, else bytes. */
export type RankTable = readonly (string | readonly number[] | undefined)[]

interface MergeRanks {
  readonly strings: ReadonlyMap<string, number>
  /** Ranks of byte sequences that are not text, keyed by their bytes as Latin-1. */
  readonly bytes: ReadonlyMap<string, number>
}

/** Entries added between two pauses: about 2 ms here. */
const ENTRIES_PER_STEP = 10_000

/** The lookup tables, built in steps (200,000 entries took 20-40 ms in one go). */
export function* mergeRanksSteps(table: RankTable): Steps<MergeRanks> {
  const strings = new Map<string, number>()
  const bytes = new Map<string, number>()
  for (let rank = 0; rank < table.length; rank++) {
    const value = table[rank]
    if (typeof value === 'string') strings.set(value, rank)
    else if (value) bytes.set(String.fromCharCode(...value), rank)
    if (rank % ENTRIES_PER_STEP === ENTRIES_PER_STEP - 1) yield
  }
  return { strings, bytes }
}

const encoder = new TextEncoder()

// One piece at a time, synchronously: buffers reused across pieces (allocating them per piece
// was a third of the time, in the garbage collector).
let bytes = new Uint8Array(1_024)
/** For each byte offset, the UTF-16 offset a character starts at there, or -1 inside one. */
let utf16At = new Int32Array(1_025)
/** Where each part begins. */
let starts = new Int32Array(1_025)
/** The rank of parts i and i+1 merged (Infinity: no such token). */
let pairRank = new Float64Array(1_024)

function reserve(byteCount: number): void {
  if (bytes.length >= byteCount) return
  const size = 2 * byteCount
  bytes = new Uint8Array(size)
  utf16At = new Int32Array(size + 1)
  starts = new Int32Array(size + 1)
  pairRank = new Float64Array(size)
}

function rankAt(piece: string, latin1: string, ranks: MergeRanks, from: number, to: number) {
  const a = utf16At[from] as number
  const b = utf16At[to] as number
  const rank =
    a >= 0 && b >= 0
      ? ranks.strings.get(piece.slice(a, b))
      : ranks.bytes.get(latin1.slice(from, to))
  return rank ?? Infinity
}

/** The tokens BPE makes of one piece the split regex cut (not itself a token). */
function mergedTokens(piece: string, ranks: MergeRanks): number {
  reserve(3 * piece.length)
  const n = encoder.encodeInto(piece, bytes).written
  utf16At.fill(-1, 0, n + 1)
  let at = 0
  let ascii = true
  for (let i = 0; i < piece.length; i++) {
    utf16At[at] = i
    const code = piece.charCodeAt(i)
    if (code < 0x80) at += 1
    else {
      ascii = false
      if (code < 0x800) at += 2
      else if (code >= 0xd800 && code <= 0xdbff) {
        // A surrogate pair: four bytes, two code units (the piece is well formed).
        at += 4
        i++
      } else at += 3
    }
  }
  utf16At[n] = piece.length
  // Byte keys are needed only inside characters: never for ASCII.
  let latin1 = ''
  if (!ascii) {
    for (let i = 0; i < n; i += 8_192) {
      latin1 += String.fromCharCode(...bytes.subarray(i, Math.min(n, i + 8_192)))
    }
  }
  for (let i = 0; i <= n; i++) starts[i] = i
  for (let i = 0; i < n - 1; i++) pairRank[i] = rankAt(piece, latin1, ranks, i, i + 2)
  let parts = n
  while (parts > 1) {
    let lowest = Infinity
    let best = -1
    for (let i = 0; i < parts - 1; i++) {
      if ((pairRank[i] as number) < lowest) {
        lowest = pairRank[i] as number
        best = i
      }
    }
    if (best === -1) break
    starts.copyWithin(best + 1, best + 2, parts + 1)
    pairRank.copyWithin(best, best + 1, parts - 1)
    parts--
    if (best < parts - 1) {
      pairRank[best] = rankAt(
        piece,
        latin1,
        ranks,
        starts[best] as number,
        starts[best + 2] as number
      )
    }
    if (best > 0) {
      pairRank[best - 1] = rankAt(
        piece,
        latin1,
        ranks,
        starts[best - 1] as number,
        starts[best + 1] as number
      )
    }
  }
  return parts
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Pieces remembered with their token count; cleared whole when full. */
const CACHE_ENTRIES = 100_000

export class RankedMerge {
  private readonly cache = new Map<string, number>()

  constructor(
    private readonly ranks: MergeRanks,
    /** The encoding's split regex (global, Unicode). */
    private readonly split: RegExp
  ) {}

  /** The tokens of `text` as plain text: special tokens count as the characters they are. */
  count(text: string): number {
    // Lone surrogates become U+FFFD in UTF-8, as gpt-tokenizer's TextEncoder makes them.
    const wellFormed = text.replace(LONE_SURROGATE, '\uFFFD')
    let tokens = 0
    for (const [piece] of wellFormed.matchAll(this.split)) {
      if (this.ranks.strings.has(piece)) {
        tokens++
        continue
      }
      let known = this.cache.get(piece)
      if (known === undefined) {
        known = mergedTokens(piece, this.ranks)
        if (this.cache.size >= CACHE_ENTRIES) this.cache.clear()
        this.cache.set(piece, known)
      }
      tokens += known
    }
    return tokens
  }
}
