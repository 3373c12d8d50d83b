import { describe, expect, it } from 'vitest'
import { highlightTerms } from '@renderer/features/threads/highlightTerms'

const marked = (text: string, query: string) =>
  highlightTerms(text, query)
    .filter((part) => part.match)
    .map((part) => part.text)

describe('highlightTerms', () => {
  it('marks every occurrence of every term, ignoring case', () => {
    expect(marked('Tea, then more TEA and a teapot', 'tea')).toEqual(['Tea', 'TEA', 'tea'])
    expect(marked('the hot pan is hot', 'pan hot')).toEqual(['hot', 'pan', 'hot'])
  })

  it('keeps the whole text, in order', () => {
    const parts = highlightTerms('before match after', 'match')
    expect(parts.map((part) => part.text).join('')).toBe('before match after')
  })

  it('prefers the longer of two overlapping terms', () => {
    expect(marked('a chatbot chat', 'chat chatbot')).toEqual(['chatbot', 'chat'])
  })

  it('treats regular-expression characters in the query literally', () => {
    expect(marked('costs $5 (maybe) [or] a.b', '$5 (maybe) [or] a.b')).toEqual([
      '$5',
      '(maybe)',
      '[or]',
      'a.b'
    ])
    expect(marked('axb', 'a.b')).toEqual([])
  })

  it('matches Chinese text, which has no spaces between words', () => {
    expect(marked('这个周末去杭州西湖喝龙井茶', '龙井')).toEqual(['龙井'])
  })

  it('marks nothing for a blank query', () => {
    expect(highlightTerms('text', '   ')).toEqual([{ text: 'text', match: false }])
  })
})
