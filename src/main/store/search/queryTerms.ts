/**
 * What any full-text query may hold (issue #22). The trigram index turns a term into a phrase
 * of one trigram per character, and FTS5 matches a phrase against every position of every row
 * that holds its trigrams: a 200-letter run searched in a store holding a 200,000-letter paste
 * took 1.9 s here, a 2,000-letter one 26 s, all on the main thread. So a term is at most
 * `MAX_TERM_CHARS` long, and a repetitive one (a run, "ababab", "----") is never searched.
 */

/** A longer "word" is a hash, a base64 blob or a URL, not a topic. */
export const MAX_TERM_CHARS = 32

/**
 * Whether a term repeats itself: at most half of its trigrams are distinct ("aaaa", "abcabc",
 * "哈哈哈"). A word's trigrams are nearly all distinct ("mississippi": 7 of 9).
 */
export function isRepetitive(term: string): boolean {
  const chars = [...term]
  if (chars.length < 3) return false
  if (chars.length === 3) return new Set(chars).size === 1
  const trigrams = new Set<string>()
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''))
  return trigrams.size * 2 <= chars.length - 2
}
