import { describe, expect, it } from 'vitest'
import {
  EXTRACTION_PROMPT_HEAD,
  ExtractionFormatError,
  MAX_EXTRACTED,
  buildExtractionPrompt,
  parseExtraction
} from '../../../src/main/context/recall/memoryExtractionPrompt'

describe('the extraction prompt', () => {
  it('asks about the user message only, with the previous reply as context', () => {
    const [system, user] = buildExtractionPrompt({
      userMessage: '  Python, always. 我更喜欢简短的回答。 ',
      previousReply: 'Which language should the examples use?'
    })
    expect(system?.role).toBe('system')
    expect(system?.content.startsWith(EXTRACTION_PROMPT_HEAD)).toBe(true)
    expect(user?.content).toBe(
      'PREVIOUS ASSISTANT REPLY (context only, extract nothing from it):\n' +
        'Which language should the examples use?\n\n' +
        'USER MESSAGE:\nPython, always. 我更喜欢简短的回答。'
    )
  })

  it('redacts secrets and clips a huge paste', () => {
    const [, user] = buildExtractionPrompt({
      userMessage: `token ghp_abcdefghijklmnopqrstuvwxyz0123 ${'x'.repeat(20_000)}`,
      previousReply: null
    })
    expect(user?.content).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123')
    expect(user?.content).toContain('[REDACTED]')
    expect(user?.content.length).toBeLessThan(8_100)
    expect(user?.content).not.toContain('PREVIOUS ASSISTANT REPLY')
  })
})

describe('reading the answer', () => {
  it('reads JSON wrapped in prose or a code fence', () => {
    expect(
      parseExtraction(
        'Sure:\n```json\n{"memories":[{"content":"The user is vegetarian.","category":"fact"}]}\n```'
      )
    ).toEqual([{ content: 'The user is vegetarian.', category: 'fact' }])
    expect(parseExtraction('{"memories":[]}')).toEqual([])
  })

  it('keeps preferences and facts only, once each, tidied, at most five', () => {
    const items = [
      { content: '  The user  prefers\nmetric units. ', category: 'user_preference' },
      { content: 'The user prefers metric units.', category: 'user_preference' },
      { content: 'Book a table for Friday', category: 'task' },
      { content: '', category: 'fact' },
      { content: 'y'.repeat(400), category: 'fact' },
      { content: 'The user API key is [REDACTED].', category: 'fact' },
      ...Array.from({ length: 8 }, (_, i) => ({ content: `Fact ${i}`, category: 'fact' }))
    ]
    const found = parseExtraction(JSON.stringify({ memories: items }))
    expect(found).toHaveLength(MAX_EXTRACTED)
    expect(found.slice(0, 2)).toEqual([
      { content: 'The user prefers metric units.', category: 'user_preference' },
      { content: 'Fact 0', category: 'fact' }
    ])
  })

  it('refuses what is not the expected shape, so nothing half-read is saved', () => {
    expect(() => parseExtraction('The user likes tea.')).toThrow(ExtractionFormatError)
    expect(() => parseExtraction('{"memories": [ {"content": "tea"')).toThrow(ExtractionFormatError)
    expect(() => parseExtraction('{"memories": "tea"}')).toThrow(ExtractionFormatError)
    expect(() => parseExtraction('{"items": []}')).toThrow(ExtractionFormatError)
  })
})
