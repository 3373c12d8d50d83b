/**
 * Token counting throughput on English and Chinese text: the exact o200k_base BPE as the app
 * counts (rankedMerge.ts, a fresh piece cache per run) beside gpt-tokenizer's own count (cold, as
 * at insert: its merge cache is cleared before every run), and the CJK-aware estimate used for
 * models without a shipped tokenizer, beside the naive chars/4 rule as the baseline, with each
 * count's error against o200k. Throughput is on seeded synthetic text (phrases from a fixed list);
 * since its vocabulary is narrow, the error is also measured on two real files of the repo.
 */
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base'
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { runSteps } from '../../src/main/context/steps'
import { mergeRanksSteps, RankedMerge } from '../../src/main/context/tokens/rankedMerge'
import { estimateCounter, o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { syntheticText } from './syntheticThread'
import { time } from './timing'

export interface TokenizerFigures {
  language: 'english' | 'chinese'
  counter: (typeof COUNTERS)[number]['name']
  chars: number
  tokens: number
  /** (tokens - o200k tokens) / o200k tokens. */
  error: number
  ms: number
  charsPerSecond: number
}

const o200kTables = runSteps(mergeRanksSteps(o200kRanks))

const COUNTERS = [
  {
    name: 'o200k_base',
    count: (text: string) => new RankedMerge(o200kTables, O200K_TOKEN_SPLIT_REGEX).count(text)
  },
  {
    name: 'o200k_base, gpt-tokenizer',
    count: (text: string) => countTokens(text, { disallowedSpecial: new Set() })
  },
  { name: 'estimate', count: (text: string) => estimateCounter.count(text) },
  { name: 'chars/4', count: (text: string) => Math.ceil(text.length / 4) }
] as const

export function tokenizerFigures(quick: boolean): TokenizerFigures[] {
  const chars = quick ? 50_000 : 200_000
  const runs = quick ? 3 : 5
  return (['english', 'chinese'] as const).flatMap((language) => {
    const text = syntheticText(language, chars)
    const exact = o200kCounter.count(text)
    return COUNTERS.map(({ name, count }) => {
      let tokens = 0
      const { p50 } = time(runs, () => {
        clearMergeCache()
        tokens = count(text)
      })
      return {
        language,
        counter: name,
        chars,
        tokens,
        error: (tokens - exact) / exact,
        ms: p50,
        charsPerSecond: Math.round(chars / (Math.max(p50, 0.001) / 1000))
      }
    })
  })
}

export interface TokenizerAccuracy {
  file: string
  chars: number
  counter: (typeof COUNTERS)[number]['name']
  tokens: number
  error: number
}

/**
 * Real text in the repository: English prose (a doc) and Chinese UI strings (the zh-CN locale:
 * its namespace files read as one text, without the index that only assembles them).
 */
const REAL_TEXTS = ['docs/CONTEXT.md', 'src/renderer/src/i18n/zh-CN']

function readText(path: string): string {
  if (!statSync(path).isDirectory()) return readFileSync(path, 'utf8')
  return readdirSync(path)
    .filter((name) => name.endsWith('.ts') && name !== 'index.ts')
    .sort()
    .map((name) => readFileSync(`${path}/${name}`, 'utf8'))
    .join('\n')
}

export function tokenizerAccuracy(root: string): TokenizerAccuracy[] {
  return REAL_TEXTS.filter((file) => existsSync(`${root}/${file}`)).flatMap((file) => {
    const text = readText(`${root}/${file}`)
    const exact = o200kCounter.count(text)
    return COUNTERS.map(({ name, count }) => {
      const tokens = count(text)
      return { file, chars: text.length, counter: name, tokens, error: (tokens - exact) / exact }
    })
  })
}
