import { describe, expect, it } from 'vitest'
import {
  chunkDocument,
  type DocumentChunk,
  type DocumentKind
} from '../../../src/main/context/attachments/chunkDocument'
import { o200kCounter } from '../../../src/main/context/tokens/tokenCounter'

const count = (text: string) => o200kCounter.count(text)

/** Every line of the text in exactly one chunk's range, in order, each chunk within budget. */
function expectCover(text: string, chunks: DocumentChunk[], maxTokens: number): void {
  const lineCount = text.replace(/\n$/, '').split('\n').length
  let next = 1
  chunks.forEach((chunk, i) => {
    expect(chunk.index).toBe(i)
    expect(count(chunk.text)).toBeLessThanOrEqual(maxTokens)
    // A line cut inside continues in the next chunk with the same start line.
    expect([next, next - 1]).toContain(chunk.startLine)
    expect(chunk.endLine).toBeGreaterThanOrEqual(chunk.startLine)
    next = chunk.endLine + 1
  })
  expect(next - 1).toBe(lineCount)
}

const markdown = [
  '# Payment service',
  '',
  'Intro paragraph about the service and what it does for the shop.',
  '',
  '## Parsing amounts',
  '',
  ...Array.from({ length: 30 }, (_, i) => `Rule ${i}: amounts like 1.234,${i} use a comma.`),
  '',
  '```ts',
  '# not a heading inside a fence',
  'const x = 1',
  '```',
  '',
  '## Refunds',
  '',
  ...Array.from({ length: 30 }, (_, i) => `Refund step ${i}: check the ledger entry ${i}.`)
].join('\n')

const code = Array.from(
  { length: 12 },
  (_, f) =>
    `// Parses field ${f}.\nexport function parse${f}(input: string): number {\n` +
    Array.from({ length: 8 }, (_, l) => `  const v${l} = input.charCodeAt(${l}) * ${f}`).join(
      '\n'
    ) +
    `\n  return v0\n}`
).join('\n\n')

describe('chunkDocument', () => {
  it('returns a text that fits as one chunk covering every line', () => {
    const chunks = chunkDocument('a\nb\nc\n', 'text', 100, count)
    expect(chunks).toEqual([{ index: 0, text: 'a\nb\nc', startLine: 1, endLine: 3 }])
  })

  it('cuts Markdown at headings before paragraphs, never inside a fence', () => {
    const chunks = chunkDocument(markdown, 'markdown', 300, count)
    expectCover(markdown, chunks, 300)
    expect(chunks.length).toBeGreaterThan(1)
    const refunds = chunks.find((c) => c.text.includes('## Refunds'))
    expect(refunds?.text.startsWith('## Refunds')).toBe(true)
    const fence = chunks.filter((c) => c.text.includes('```'))
    expect(fence).toHaveLength(1)
    expect(fence[0]?.text).toContain('# not a heading inside a fence\nconst x = 1\n```')
  })

  it('keeps code functions whole, with the comment above each', () => {
    const chunks = chunkDocument(code, 'code', 200, count)
    expectCover(code, chunks, 200)
    for (const chunk of chunks) {
      expect(chunk.text.trimStart().startsWith('// Parses field')).toBe(true)
      expect(chunk.text.trimEnd().endsWith('}')).toBe(true)
    }
  })

  it('repeats the CSV header in every chunk and never splits a quoted row', () => {
    const rows = Array.from({ length: 200 }, (_, i) =>
      i === 50 ? `${i},"multi\nline note",${i * 2}` : `${i},note ${i},${i * 2}`
    )
    const csv = ['id,note,amount', ...rows].join('\n')
    const chunks = chunkDocument(csv, 'csv', 150, count)
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('id,note,amount\n')).toBe(true)
      expect(count(chunk.text)).toBeLessThanOrEqual(150)
    }
    expect(chunks[0]?.startLine).toBe(1)
    const withQuote = chunks.find((c) => c.text.includes('"multi'))
    expect(withQuote?.text).toContain('"multi\nline note",100')
    expect(chunks.at(-1)?.endLine).toBe(202)
    chunks.slice(1).forEach((chunk, i) => expect(chunk.startLine).toBe(chunks[i]!.endLine + 1))
  })

  it('cuts a single line longer than a chunk inside, in order, losing nothing', () => {
    const line = 'x'.repeat(5_000) + ' tail'
    const text = `head\n${line}\nend`
    const chunks = chunkDocument(text, 'text', 100, count)
    expectCover(text, chunks, 100)
    const middle = chunks.filter((c) => c.startLine === 2 && c.endLine === 2)
    expect(middle.map((c) => c.text).join('')).toBe(line)
  })

  it.each<DocumentKind>(['markdown', 'code', 'csv', 'json', 'text'])(
    'covers a mixed document as %s within the budget',
    (kind) => {
      const text = [markdown, code, JSON.stringify({ a: [1, 2, 3], b: 'x' }, null, 2)].join('\n\n')
      expectCover(text, chunkDocument(text, kind, 120, count), 120)
    }
  )

  it('returns nothing for an empty text', () => {
    expect(chunkDocument('', 'text', 100, count)).toEqual([])
  })
})
