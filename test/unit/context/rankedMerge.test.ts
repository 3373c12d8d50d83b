import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base'
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base'
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import {
  CL100K_TOKEN_SPLIT_REGEX,
  O200K_TOKEN_SPLIT_REGEX
} from 'gpt-tokenizer/encodingParams/constants'
import { describe, expect, it } from 'vitest'
import { hugeInput, INPUT_KINDS } from '../../../scripts/bench/mainThreadStall'
import { runSteps } from '../../../src/main/context/steps'
import { mergeRanksSteps, RankedMerge } from '../../../src/main/context/tokens/rankedMerge'
import { textSlices } from '../../../src/main/context/tokens/textSlices'
import { cl100kCounter, o200kCounter } from '../../../src/main/context/tokens/tokenCounter'
import { CHINESE, ENGLISH, MIXED, TOOL_OUTPUT } from './fixtures/textSamples'

const PLAIN = { disallowedSpecial: new Set<string>() }
const encodings = [
  {
    name: 'o200k_base',
    reference: (text: string) => o200k.countTokens(text, PLAIN),
    merge: new RankedMerge(runSteps(mergeRanksSteps(o200kRanks)), O200K_TOKEN_SPLIT_REGEX)
  },
  {
    name: 'cl100k_base',
    reference: (text: string) => cl100k.countTokens(text, PLAIN),
    merge: new RankedMerge(runSteps(mergeRanksSteps(cl100kRanks)), CL100K_TOKEN_SPLIT_REGEX)
  }
]

/** Pieces of real writing, and what breaks byte handling: marks, emoji, lone surrogates. */
const fragment = fc.constantFrom(
  'the ',
  "don't ",
  ' builder',
  '\n\n',
  '  ',
  '上下文构建器',
  '，',
  '模型的',
  '鬱',
  '𠀀',
  'こんにちは',
  '한국어',
  'Привет',
  'مرحبا',
  'हिन्दी',
  'ÉCOLE',
  'cafe\u0301',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '\ud800',
  'a\udc00b',
  '<|endoftext|>',
  '1234567',
  'aGVsbG8gd29ybGQ=',
  'const x = f(y);',
  '\r\n'
)
const text = fc.oneof(
  fc.array(fragment, { maxLength: 80 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 })
)

describe('counting with the ranks keyed for lookup', () => {
  it('counts exactly what gpt-tokenizer counts, for both encodings (property)', () => {
    fc.assert(
      fc.property(text, (sample) => {
        for (const { merge, reference } of encodings) {
          expect(merge.count(sample)).toBe(reference(sample))
        }
      }),
      { numRuns: 600, seed: 17 }
    )
  })

  it('counts real writing and every pasted kind the bench sends exactly', () => {
    const docs = readFileSync(join(__dirname, '../../../docs/CONTEXT.md'), 'utf8')
    const samples = [ENGLISH, CHINESE, MIXED, TOOL_OUTPUT, docs]
    // Slices, as the counter counts them: a run without breaks is cut at 256 bytes.
    for (const kind of INPUT_KINDS) {
      const paste = hugeInput(kind, 30_000)
      for (const slice of textSlices(paste)) samples.push(paste.slice(slice.start, slice.end))
    }
    for (const { name, merge, reference } of encodings) {
      for (const sample of samples) {
        expect(merge.count(sample), `${name}: ${sample.slice(0, 40)}`).toBe(reference(sample))
      }
    }
  })

  it('gives the counters the same figures once their tables are built', () => {
    const text = `${MIXED}\n${CHINESE}\n${hugeInput('base64', 5_000)}`
    for (const counter of [o200kCounter, cl100kCounter]) {
      const before = counter.count(text)
      runSteps(counter.prepareSteps())
      expect(counter.count(text)).toBe(before)
      expect(counter.truncate(text, 500)).toBe(counter.truncate(text, 500))
    }
  })

  it('builds its tables in steps, not in one piece', () => {
    let steps = 0
    const building = mergeRanksSteps(o200kRanks)
    while (!building.next().done) steps++
    expect(steps).toBeGreaterThanOrEqual(19)
  })
})
