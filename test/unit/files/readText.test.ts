import { describe, expect, it } from 'vitest'
import { isPdf, kindOf, readText } from '../../../src/main/services/files/readText'

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))))

describe('reading a file’s bytes as text', () => {
  it('decodes UTF-8, with or without a BOM, and UTF-16 either way round', () => {
    expect(readText(bytes('plain 中文'))).toEqual({
      ok: true,
      text: 'plain 中文',
      encoding: 'utf-8'
    })
    expect(readText(bytes([0xef, 0xbb, 0xbf], 'bom'))).toEqual({
      ok: true,
      text: 'bom',
      encoding: 'utf-8-bom'
    })
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('小端 LE', 'utf16le')])
    expect(readText(le)).toMatchObject({ ok: true, text: '小端 LE', encoding: 'utf-16le' })
    const be = Buffer.from('大端 BE', 'utf16le').swap16()
    expect(readText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toMatchObject({
      ok: true,
      text: '大端 BE',
      encoding: 'utf-16be'
    })
  })

  it('turns CRLF and CR line ends into LF, so line ranges count the same everywhere', () => {
    expect(readText(bytes('a\r\nb\rc\n'))).toMatchObject({ text: 'a\nb\nc\n' })
  })

  it('refuses NUL bytes as binary and invalid UTF-8 as an encoding it will not guess', () => {
    expect(readText(bytes([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toMatchObject({
      ok: false,
      reason: 'binary'
    })
    // GBK "中文", Latin-1 "café"
    expect(readText(bytes([0xd6, 0xd0, 0xce, 0xc4]))).toMatchObject({
      ok: false,
      reason: 'encoding'
    })
    expect(readText(bytes([0x63, 0x61, 0x66, 0xe9]))).toMatchObject({
      ok: false,
      reason: 'encoding'
    })
    // UTF-16 that decodes to NUL characters is binary too.
    const nul = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\0b', 'utf16le')])
    expect(readText(nul)).toMatchObject({ ok: false, reason: 'binary' })
  })

  it('knows a PDF by its magic bytes and the chunker’s kind by name or type', () => {
    expect(isPdf(bytes('%PDF-1.7\n'), 'noext', null)).toBe(true)
    expect(isPdf(bytes('hello'), 'notes.txt', 'text/plain')).toBe(false)
    expect(kindOf('README.md', null)).toBe('markdown')
    expect(kindOf('main.RS', null)).toBe('code')
    expect(kindOf('rows.tsv', null)).toBe('csv')
    expect(kindOf('pasted', 'application/json')).toBe('json')
    expect(kindOf('notes.txt', null)).toBe('text')
  })
})
