import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  RECALL_SAMPLE_CHARS,
  recalledExcerpt,
  recallQuery,
  recallSample
} from '../../../src/main/context/recall/recallQuery'
import { previewOf } from '../../../src/main/context/sections/retrievedMemories'
import {
  absentNames,
  asksAboutTheUser,
  queryNames,
  recallTerms
} from '../../../src/main/services/memory/memoryRanking'
import { isRepetitive, MAX_TERM_CHARS } from '../../../src/main/store/search/queryTerms'
import { hugeInput, INPUT_KINDS } from '../../../scripts/bench/mainThreadStall'

/**
 * Issue #22: whatever is pasted, the recall query is a bounded, representative part of it.
 * A 40,000-letter paste once became one 40,000-character FTS5 phrase and held the main thread
 * for 6.6 s.
 */

const MAX_TERMS = 24

function expectBounded(terms: string[]) {
  expect(terms.length).toBeLessThanOrEqual(MAX_TERMS)
  expect(new Set(terms).size).toBe(terms.length)
  for (const term of terms) expect([...term].length).toBeLessThanOrEqual(MAX_TERM_CHARS)
}

describe('recall terms of any input', () => {
  it('are at most 24 distinct terms of at most 32 characters, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3_000 }), (text) => {
        expectBounded(recallTerms(text))
      })
    )
  })

  it('leave out runs and repeated patterns, in Latin and Chinese', () => {
    expect(recallTerms('a'.repeat(40_000))).toEqual([])
    expect(recallTerms('ab'.repeat(20_000))).toEqual([])
    expect(recallTerms('-'.repeat(20_000))).toEqual([])
    expect(recallTerms('哈'.repeat(20_000))).toEqual([])
    expect(recallTerms('0'.repeat(20_000))).toEqual([])
    expect(recallTerms('abc'.repeat(20_000))).toEqual([])
    // A real word beside the run is still found.
    expect(recallTerms(`${'a'.repeat(3_000)} peanuts ${'a'.repeat(30_000)}`)).toEqual(['peanuts'])
  })

  it('call a term repetitive when at most half its trigrams are distinct', () => {
    for (const term of ['aaa', 'aaaa', 'ababab', 'abcabcabc', '哈哈哈', '12121212']) {
      expect(isRepetitive(term)).toBe(true)
    }
    for (const term of ['abc', 'mississippi', 'bookkeeper', 'ab', '对花生', '1234']) {
      expect(isRepetitive(term)).toBe(false)
    }
  })

  it('leave out hashes and blobs longer than a word', () => {
    const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    expect(recallTerms(`commit ${hash} broke the build`)).toEqual(['commit', 'broke', 'build'])
  })

  it('are bounded for every pathological paste at 2,000,000 characters', () => {
    for (const kind of INPUT_KINDS) {
      expectBounded(recallTerms(hugeInput(kind, 2_000_000)))
    }
  })

  it('come from the whole text, not only its head', () => {
    const words = Array.from({ length: 4_000 }, (_, i) => `topic${i}x`)
    const terms = recallTerms(words.join(' '))
    expect(terms).toHaveLength(MAX_TERMS)
    const last = Math.max(...terms.map((t) => Number(t.slice(5, -1))))
    expect(last).toBe(3_999)
  })

  it('keep every term of an ordinary question', () => {
    expect(recallTerms('Which Lisbon neighbourhood is quiet at night?')).toEqual([
      'lisbon',
      'neighbourhood',
      'quiet',
      'night'
    ])
    expect(recallTerms('我对花生过敏')).toEqual(['我对花', '对花生', '花生过', '生过敏'])
  })
})

describe('the recall sample of a long input', () => {
  it('is the input itself up to the limit', () => {
    const text = 'x'.repeat(RECALL_SAMPLE_CHARS)
    expect(recallSample(text)).toBe(text)
  })

  it('is bounded, starts with the head and ends with the end', () => {
    const text = `QUESTION ${'filler '.repeat(300_000)}THE END`
    const sample = recallSample(text)
    expect(sample.length).toBeLessThanOrEqual(RECALL_SAMPLE_CHARS + 8)
    expect(sample.startsWith('QUESTION')).toBe(true)
    expect(sample.endsWith('THE END')).toBe(true)
  })

  it('never splits a character made of two UTF-16 units', () => {
    const sample = recallSample('😀'.repeat(100_000))
    expect(sample.replace(/\n/gu, '')).toMatch(/^(?:😀)+$/u)
  })

  it('is what the build’s recall query reads', () => {
    const text = `${'z'.repeat(RECALL_SAMPLE_CHARS)} tail words`
    expect(recallQuery(text, []).text).toBe(recallSample(text).trim())
  })
})

describe('what a recalled item sends', () => {
  it('is the item itself up to the sample’s length', () => {
    const text = '我'.repeat(RECALL_SAMPLE_CHARS)
    expect(recalledExcerpt(text)).toBe(text)
  })

  it('is the part the gate judged, and says how much was left out', () => {
    const excerpt = recalledExcerpt(`${'x'.repeat(RECALL_SAMPLE_CHARS)}${'y'.repeat(1_992_000)}`)
    expect(excerpt.startsWith('x'.repeat(RECALL_SAMPLE_CHARS))).toBe(true)
    expect(excerpt).not.toContain('y')
    expect(excerpt).toMatch(/\[…1,992,000 more characters not recalled\]$/u)
  })

  it('never splits a character made of two UTF-16 units', () => {
    expect(recalledExcerpt(`a${'😀'.repeat(10_000)}`)).toMatch(/^a(?:😀)+ \[…/u)
  })
})

describe('an item’s preview in the inspector', () => {
  it('reads only its start, and says when there is more', () => {
    expect(previewOf('  short \n text ')).toBe('short text')
    const long = `${' \n'.repeat(1_000_000)}word`
    expect(previewOf(long)).toBe('…')
    expect(previewOf('a'.repeat(200))).toBe(`${'a'.repeat(119)}…`)
  })
})

describe('the names a question is about', () => {
  it('are the capitalized words inside a sentence, as written', () => {
    expect(queryNames('When did Caroline go to the LGBTQ support group?')).toEqual([
      'Caroline',
      'LGBTQ'
    ])
    expect(queryNames("What is Melanie's favourite book? Ask Jon too.")).toEqual(['Melanie', 'Jon'])
  })

  it('leave out the first word of a sentence, short words, and words of time', () => {
    expect(queryNames('Caroline asked. Did I tell you?')).toEqual([])
    expect(queryNames('Who did I meet for lunch last Tuesday in March, or at Christmas?')).toEqual(
      []
    )
    expect(queryNames('Is my TV on? I’m asking.')).toEqual([])
  })

  it('are any capitalized Latin word in a sentence with Chinese, first or not', () => {
    expect(queryNames('Caroline 周末喜欢做什么？')).toEqual(['Caroline'])
    expect(queryNames('我想去Porto玩几天，住哪里好？Hannah 也去。')).toEqual(['Porto', 'Hannah'])
    expect(queryNames('帮我看看这个 API 的 Python 写法')).toEqual(['API', 'Python'])
  })

  it('are none in a title-cased line, in Chinese, or in lowercase', () => {
    expect(queryNames('How To Cook Rice In A Pan')).toEqual([])
    expect(queryNames('我女儿放学后吃什么零食好？')).toEqual([])
    expect(queryNames('what did caroline say about the move?')).toEqual([])
  })

  it('are read from a sample of a long paste, at most four', () => {
    const paste = `Intro. ${'Then Alpha met Beta at the old mill with Gamma and Delta and their friend Epsilon. '.repeat(50_000)}`
    expect(queryNames(paste)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta'])
  })

  it('are absent when no candidate mentions them, in any case', () => {
    const contents = ['I went running with CAROLINE by the river.', 'Painting helps me unwind.']
    expect(absentNames(['Caroline', 'Melanie'], contents)).toEqual(['Melanie'])
    expect(absentNames(['Caroline'], contents)).toEqual([])
    expect(absentNames([], contents)).toEqual([])
  })
})

describe('a question about the user', () => {
  it('speaks of the user in the first person, in English or Chinese', () => {
    expect(asksAboutTheUser('What did I name my cat?')).toBe(true)
    expect(asksAboutTheUser("Where do I keep the sneakers I'm giving away?")).toBe(true)
    expect(asksAboutTheUser('Remind me of the gym I joined.')).toBe(true)
    expect(asksAboutTheUser('我上次说要买什么？')).toBe(true)
  })

  it('never addresses the assistant: what it said is in its replies', () => {
    expect(asksAboutTheUser('Can you remind me what you suggested for my trip?')).toBe(false)
    expect(asksAboutTheUser('What was the 7th job in the list you gave me?')).toBe(false)
    expect(asksAboutTheUser('你上次给我推荐的书叫什么？')).toBe(false)
    expect(asksAboutTheUser('您还记得我的生日吗？')).toBe(false)
  })

  it('is not a question in the third person or none', () => {
    expect(asksAboutTheUser('What did Caroline research?')).toBe(false)
    expect(asksAboutTheUser('How many days passed between the two services?')).toBe(false)
    // Whole words only: "Iris", "mine" inside "determined" and "mean" say nothing.
    expect(asksAboutTheUser('Iris determined the meaning of the mural.')).toBe(false)
  })
})
