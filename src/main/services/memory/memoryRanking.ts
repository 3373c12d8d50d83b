/**
 * The pure parts of hybrid recall: which words of a query go to the full-text index, and how
 * the vector and full-text rankings are fused (reciprocal-rank fusion).
 */
import { RECALL_SAMPLE_CHARS, recallSample } from '../../context/recall/recallQuery'
import { isRepetitive, MAX_TERM_CHARS } from '../../store/search/queryTerms'

/**
 * RRF's k. Cormack et al. (2009) used 60, to fuse many runs; over our two or three lists it let
 * an item at middling ranks in each beat the first of one list. At 5 a list's first places
 * count: LoCoMo's single thread at 4,000 tokens 0.784 → 0.817 of the evidence, recall@5 0.339 →
 * 0.464, the same tokens sent (docs/EVALUATION.md, "Fused with k = 5").
 */
const RRF_K = 5

/** Query words that say nothing about the topic; matching them in FTS only adds noise. */
const STOPWORDS = new Set(
  (
    'the and for are but not you your yours all any can had has have her his him how its our out ' +
    'was were who whom why what when where which will with would should could shall this that ' +
    'these those there their they them then than from into onto about also just like some such ' +
    "very does did doing done been being i’m i'm it's don't my mine me we us she he it is am " +
    'do of to in on at by or if so as be an a please tell remember know think want need'
  ).split(/\s+/u)
)

/** CJK characters that alone carry no topic (pronouns, particles, question words). */
const CJK_FUNCTION_CHARS = new Set([
  ...'我你他她它们的了是在吗呢吧啊么什怎哪个这那有和也都就不要会能请帮一'
])

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu
const MAX_TERMS = 24

/**
 * Terms for the trigram FTS index: words of 3 to 32 characters that are not stopwords, and
 * every three-character window of a CJK run (the trigram tokenizer matches those as
 * substrings), skipping windows made only of function characters. Two-character Chinese words
 * cannot use the trigram index; the vector search covers them. A repetitive term ("aaaa",
 * "abcabc", "哈哈哈") says nothing and costs the most (store/search/queryTerms.ts). At most 24
 * terms, spread over the whole text: a long input is read as a sample (recallSample), never
 * one term per character.
 */
export function recallTerms(query: string): string[] {
  const text = recallSample(query).normalize('NFKC').toLowerCase()
  const terms: string[] = []
  for (const run of text.match(CJK_RUN) ?? []) {
    const chars = [...run]
    for (let i = 0; i + 3 <= chars.length; i++) {
      const window = chars.slice(i, i + 3)
      const term = window.join('')
      if (window.every((c) => CJK_FUNCTION_CHARS.has(c)) || isRepetitive(term)) continue
      terms.push(term)
    }
  }
  const latin = text.replace(CJK_RUN, ' ')
  for (const word of latin.match(WORD) ?? []) {
    const length = [...word].length
    if (length < 3 || length > MAX_TERM_CHARS || STOPWORDS.has(word) || isRepetitive(word)) continue
    terms.push(word)
  }
  return spread([...new Set(terms)], MAX_TERMS)
}

/** At most `n` items, evenly spaced over the list (first and last included). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items]
  return Array.from(
    { length: n },
    (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))] as T
  )
}

/**
 * Each term as a quoted FTS5 literal (so FTS syntax in a query is inert); any term may match,
 * and full-text search ranks by how many and how rare (store/search/fullTextTopK.ts).
 */
export function quotedTerms(terms: readonly string[]): string[] {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`)
}

/**
 * What of a candidate the signals read: its first 8,000 characters. A stored 2 M-character
 * paste can be a candidate, and reading all of it per search would hold the main thread.
 */
export function signalText(content: string): string {
  return content.length > RECALL_SAMPLE_CHARS ? content.slice(0, RECALL_SAMPLE_CHARS) : content
}

const lowered = (content: string): string => signalText(content).normalize('NFKC').toLowerCase()

/** The share of `terms` that occur in `content` (case-insensitive). */
export function matchedShare(content: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0
  const lower = lowered(content)
  return terms.filter((term) => lower.includes(term)).length / terms.length
}

/** Whether `content` contains a CJK trigram term or a Latin term of 4+ characters. */
export function hasStrongTerm(content: string, terms: readonly string[]): boolean {
  const lower = lowered(content)
  return terms.some(
    (term) => (term.match(CJK_RUN) || [...term].length >= 4) && lower.includes(term)
  )
}

/** Each ranked list contributes weight / (k + rank) (weight 1 unless given); ranks start at 1. */
export function rrfScore(
  ranks: readonly { rank: number | undefined; weight?: number }[],
  lists: number
): number {
  const raw = ranks.reduce<number>(
    (sum, { rank, weight = 1 }) => (rank ? sum + weight / (RRF_K + rank) : sum),
    0
  )
  // Scaled so that first place in every list is 1: readable in the inspector.
  return raw / (lists / (RRF_K + 1))
}

/**
 * Capitalized words that are not names but words of time: "last Saturday" or "in January"
 * asks when, and the answer may say "on the 12th" or "yesterday", so their absence says
 * nothing about whose story it is.
 */
const NOT_NAMES = new Set(
  (
    'monday tuesday wednesday thursday friday saturday sunday january february march april ' +
    'may june july august september october november december christmas easter thanksgiving ' +
    'halloween valentine'
  ).split(' ')
)
const MAX_NAMES = 4

/**
 * The names a question is about: words of three or more characters written with a capital
 * (or in capitals) anywhere but at the start of a sentence: "Caroline", "Miami", "LGBTQ". In
 * a sentence with Chinese (or Japanese, Korean) in it, any capitalized Latin word, wherever it
 * stands: "Caroline 周末喜欢做什么？". At most four, as written. None in an English line where
 * most words are capitalized (a title says nothing about which are names), and none in
 * Chinese without Latin words: there the sign does not exist, and the gate goes without it.
 */
export function queryNames(query: string): string[] {
  const names = new Map<string, string>()
  let inner = 0
  let capitalized = 0
  const text = recallSample(query).normalize('NFKC')
  for (const sentence of text.split(/(?<=[.?!])\s+|(?<=[。？！])|\n+/u)) {
    const cjk = HAS_CJK.test(sentence)
    const words = sentence.replace(CJK_RUN, ' ').match(WORD) ?? []
    for (const word of cjk ? words : words.slice(1)) {
      const bare = word.replace(/['’].*$/u, '')
      const upper = /^\p{Lu}/u.test(bare)
      if (!cjk) {
        inner++
        if (upper) capitalized++
      }
      const lower = bare.toLowerCase()
      if (upper && [...bare].length >= 3 && !NOT_NAMES.has(lower) && !names.has(lower)) {
        names.set(lower, bare)
      }
    }
  }
  return capitalized * 2 > inner ? [] : [...names.values()].slice(0, MAX_NAMES)
}

/** The names no candidate mentions (case-insensitive, in what the signals read). */
export function absentNames(names: readonly string[], contents: Iterable<string>): string[] {
  const missing = new Map(names.map((name) => [name.normalize('NFKC').toLowerCase(), name]))
  if (missing.size === 0) return []
  for (const content of contents) {
    const lower = lowered(content)
    for (const name of missing.keys()) if (lower.includes(name)) missing.delete(name)
    if (missing.size === 0) break
  }
  return [...missing.values()]
}

/** The user speaking of themself, in English or Chinese. */
const FIRST_PERSON = /\b(?:i|me|my|mine|myself)\b|我/iu
/** The user addressing the assistant: "can you", "what you said", 你, 您. */
const SECOND_PERSON = /\b(?:you|your|yours|yourself)\b|[你您]/iu

/**
 * The question speaks of the user in the first person and never addresses the assistant:
 * "What did I name my cat?", "我上次说要买什么？", but not "Can you remind me what you
 * suggested?" nor "What did Caroline research?". What the user said or did is in what the user
 * wrote; another conversation's replies only talk around it (relevanceGate.ts, `aboutTheUser`).
 */
export function asksAboutTheUser(query: string): boolean {
  const text = recallSample(query).normalize('NFKC')
  return FIRST_PERSON.test(text) && !SECOND_PERSON.test(text)
}
