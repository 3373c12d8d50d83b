import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readJsonArray } from '../../src/main/workers/import/jsonArrayReader'

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

async function elements(text: string | Buffer, size = 7): Promise<unknown[]> {
  const out: unknown[] = []
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  for await (const element of readJsonArray(chunked(bytes, size)))
    out.push(JSON.parse(element.text))
  return out
}

describe('the streaming JSON array reader', () => {
  const tricky = [
    { title: 'brackets ] and [ and , inside', parts: ['a', 'b'] },
    { title: 'escaped \\" quote and \\\\ backslash', nested: { deep: [[1, 2], { x: '}' }] } },
    { title: '中文标题 🦀 emoji across chunk boundaries', text: '一二三四五六七八九十'.repeat(5) },
    'a plain string ]',
    42,
    null,
    []
  ]

  it('cuts an array into its elements whatever the chunk size (1 byte up to the whole file)', async () => {
    const text = `\uFEFF \n${JSON.stringify(tricky, null, 2)}\n  `
    for (const size of [1, 2, 3, 5, 64, 100_000]) {
      expect(await elements(text, size)).toEqual(tricky)
    }
  })

  it('reads any JSON array of values exactly as JSON.parse does (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        async (values, size) => {
          const text = JSON.stringify(values)
          expect(await elements(text, size)).toEqual(JSON.parse(text))
        }
      ),
      { numRuns: 200 }
    )
  })

  it('refuses what is not an array, an unclosed array, text after it and empty elements', async () => {
    await expect(elements('{"mapping": {}}')).rejects.toThrow(
      /must be a JSON array.*starts with "\{"/
    )
    await expect(elements('')).rejects.toThrow(/empty/)
    await expect(elements('[{"a": 1}, {"b": ')).rejects.toThrow(
      /ends in the middle of conversation 2/
    )
    await expect(elements('[{"a": 1},')).rejects.toThrow(/ends in the middle of conversation 2/)
    await expect(elements('[{"a": 1}')).rejects.toThrow(/ends in the middle of conversation 1/)
    await expect(elements('[{"a": 1}] x')).rejects.toThrow(/after the end/)
    await expect(elements('[{"a": 1},,{"b": 2}]')).rejects.toThrow(/missing between two commas/)
    await expect(elements('[{"a": 1},]')).rejects.toThrow(/missing between two commas/)
    expect(await elements('[ ]')).toEqual([])
  })

  it('keeps only the element being read: a 40 MB array is read with bounded memory', async () => {
    const element = JSON.stringify({ text: 'x'.repeat(4000), zh: '中文'.repeat(500) })
    const count = 8000
    async function* source(): AsyncGenerator<Buffer> {
      yield Buffer.from('[')
      for (let i = 0; i < count; i++) yield Buffer.from(`${i ? ',' : ''}${element}`)
      yield Buffer.from(']')
    }
    global.gc?.()
    const before = process.memoryUsage().heapUsed
    let seen = 0
    let peak = 0
    for await (const item of readJsonArray(source())) {
      seen++
      if (item.text.length !== element.length) throw new Error('element changed')
      if (seen % 500 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - before)
    }
    expect(seen).toBe(count)
    // 8,000 elements of 5 kB are 40 MB; holding them would show here.
    expect(peak).toBeLessThan(30 * 1024 * 1024)
  })
})
