import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { CHUNKED_ERROR_PERCENT } from '../../../src/main/context/tokens/inputCounting'
import { runSteps } from '../../../src/main/context/steps'
import { DEFAULT_SLICES, textSlices } from '../../../src/main/context/tokens/textSlices'
import { cl100kCounter, o200kCounter } from '../../../src/main/context/tokens/tokenCounter'
import { trimMiddle } from '../../../src/main/context/windowSafetyNet'
import { CHINESE, ENGLISH, MIXED, TOOL_OUTPUT } from './fixtures/textSamples'

const PLAIN = { disallowedSpecial: new Set<string>() }
const DOCS = ['ARCHITECTURE.md', 'CONTEXT.md'].map((name) =>
  readFileSync(join(__dirname, '../../../docs', name), 'utf8')
)

/** Seeded letters, like a base64 blob without digits or a long hash. */
function letters(count: number, seed = 7, alphabet = 'abcdefghijklmnopqrstuvwxyz'): string {
  let state = seed
  let text = ''
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    text += alphabet[state % alphabet.length]
  }
  return text
}

/** Fragments of ordinary text: words, CJK with punctuation, code, digits, emoji, marks. */
const fragment = fc.constantFrom(
  'the ',
  'Context',
  "don't ",
  "It's",
  ' builder',
  '\n',
  '\n\n',
  '  ',
  '\t',
  '上下文构建器',
  '，',
  '。\n',
  '模型',
  'GPT-4o',
  '1234567',
  '3.14',
  '{"a":1}',
  'const x = f(y);',
  '=> ',
  '///',
  '😀',
  '👍🏽',
  'cafe\u0301',
  'ÉCOLE',
  'naïve',
  'Привет',
  'مرحبا',
  '<|endoftext|>',
  'aGVsbG8gd29ybGQ=',
  '\r\n'
)
const ordinaryText = fc.array(fragment, { maxLength: 120 }).map((parts) => parts.join(''))

describe('slices at piece boundaries', () => {
  it('cover the text in order, and no run inside one is longer than the bound', () => {
    const text = `${ENGLISH}${letters(3000)}${CHINESE}${'='.repeat(700)}${' '.repeat(600)}${MIXED}`
    let end = 0
    for (const slice of textSlices(text)) {
      expect(slice.start).toBe(end)
      expect(slice.end).toBeGreaterThan(slice.start)
      end = slice.end
      const part = text.slice(slice.start, slice.end)
      expect(part).not.toMatch(/[a-z]{257}|={257}| {257}/)
    }
    expect(end).toBe(text.length)
  })

  it('counts ordinary text exactly, however small the slices (property)', () => {
    const tiny = { sliceChars: 8, longRunBytes: 256 }
    fc.assert(
      fc.property(ordinaryText, (text) => {
        let o200kSum = 0
        let cl100kSum = 0
        for (const slice of textSlices(text, tiny)) {
          expect(slice.approximate).toBe(false)
          const part = text.slice(slice.start, slice.end)
          o200kSum += o200k.countTokens(part, PLAIN)
          cl100kSum += cl100k.countTokens(part, PLAIN)
        }
        expect(o200kSum).toBe(o200k.countTokens(text, PLAIN))
        expect(cl100kSum).toBe(cl100k.countTokens(text, PLAIN))
      }),
      { numRuns: 300, seed: 11 }
    )
  })

  it('counts real text exactly and says so', () => {
    for (const text of [
      ENGLISH,
      CHINESE,
      MIXED,
      TOOL_OUTPUT,
      DOCS.join('\n').replace(/[ -]{8,}/g, ' ')
    ]) {
      expect(runSteps(o200kCounter.countSteps(text))).toEqual({
        tokens: o200k.countTokens(text, PLAIN),
        method: 'exact'
      })
      expect(cl100kCounter.count(text)).toBe(cl100k.countTokens(text, PLAIN))
    }
  })
})

describe('long runs without breaks', () => {
  const runs = {
    'lower-case letters': letters(4000),
    'upper-case letters': letters(4000).toUpperCase(),
    'Chinese without punctuation': letters(
      3000,
      3,
      '上下文构建器为每一次请求决定模型能看到对话中的哪些内容'
    ),
    'a run in English text': `${ENGLISH}\n${letters(3000, 5)}\n${ENGLISH}`,
    'mixed-case letters': letters(4000, 9, 'abcdefghijABCDEFGHIJ'),
    // The project's docs pad markdown tables with runs of hundreds of spaces and dashes.
    'markdown tables': DOCS.join('\n')
  }

  it.each(Object.entries(runs))(
    'count %s in chunks within the stated error of exact o200k',
    (_, text) => {
      const exact = o200k.countTokens(text, PLAIN)
      const counted = runSteps(o200kCounter.countSteps(text))
      expect(counted.method).toBe('chunked')
      expect(Math.abs(counted.tokens - exact) / exact).toBeLessThanOrEqual(
        CHUNKED_ERROR_PERCENT / 100
      )
    }
  )

  it('counts 200,000 letters without a break in linear time (the old count was quadratic)', () => {
    // gpt-tokenizer's merge is quadratic in a piece's length: 20,000 letters took 0.3 s and
    // 200,000 take minutes. Here no merge sees more than 256 characters.
    const blob = letters(200_000, 13)
    // The old code never finished this within the test's 20 s (it took minutes).
    expect(o200kCounter.count(blob)).toBeGreaterThan(blob.length / 4)
    expect(runSteps(o200kCounter.countSteps(blob)).method).toBe('chunked')
    let steps = 0
    for (const slice of textSlices(blob)) {
      expect(slice.end - slice.start).toBeLessThanOrEqual(DEFAULT_SLICES.longRunBytes)
      steps++
    }
    expect(steps).toBe(Math.ceil(blob.length / DEFAULT_SLICES.longRunBytes))
  }, 20_000)

  it('trims the middle of a 200,000-letter paste within the limit', () => {
    const blob = letters(200_000, 17)
    const sent = trimMiddle(blob, 4000, o200kCounter).text
    expect(o200kCounter.count(sent)).toBeLessThanOrEqual(4000 * 1.01)
    expect(sent.startsWith(blob.slice(0, 1000))).toBe(true)
    expect(sent.endsWith(blob.slice(-1000))).toBe(true)
  }, 20_000)

  it('truncates a long run without leaving half a character', () => {
    const han = letters(2000, 3, '上下文构建器为每一次请求决定')
    const cut = o200kCounter.truncate(han, 300)
    expect(han.startsWith(cut)).toBe(true)
    expect(o200kCounter.count(cut)).toBeLessThanOrEqual(300)
    expect(o200kCounter.count(cut)).toBeGreaterThan(290)
  })
})
