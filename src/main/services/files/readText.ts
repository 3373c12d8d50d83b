/**
 * Turns a file's bytes into text, or says why it cannot: binary (NUL bytes), an encoding other
 * than UTF-8 or UTF-16 with a byte-order mark, or nothing but whitespace. PDFs are recognised
 * here and read elsewhere (in a worker, see fileWorker.ts).
 */
import type { FileKind, RefusalReason } from '@shared/files'

export type TextReading =
  | { ok: true; text: string; encoding: string }
  | { ok: false; reason: RefusalReason; detail: string }

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d] // "%PDF-"

export function isPdf(bytes: Uint8Array, name: string, mime: string | null): boolean {
  if (PDF_MAGIC.every((b, i) => bytes[i] === b)) return true
  // A PDF without its magic at byte 0 is damaged; let the PDF reader say so.
  return mime === 'application/pdf' || /\.pdf$/i.test(name)
}

const CODE_EXTENSIONS = new Set([
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'swift',
  'php',
  'sh',
  'bash',
  'sql',
  'css',
  'scss',
  'html',
  'vue',
  'svelte',
  'lua',
  'r',
  'scala',
  'dart',
  'yaml',
  'yml',
  'toml',
  'xml'
])

/** The chunker's kind for a file, from its name first (paste has a mime type only). */
export function kindOf(name: string, mime: string | null): Exclude<FileKind, 'pdf'> {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''
  if (ext === 'md' || ext === 'markdown' || mime === 'text/markdown') return 'markdown'
  if (ext === 'csv' || ext === 'tsv' || mime === 'text/csv') return 'csv'
  if (ext === 'json' || ext === 'jsonl' || mime === 'application/json') return 'json'
  if (CODE_EXTENSIONS.has(ext)) return 'code'
  return 'text'
}

/**
 * Decodes by byte-order mark (UTF-8, UTF-16 LE/BE), else as strict UTF-8. NUL bytes outside
 * UTF-16 mean a binary file; bytes that are not valid UTF-8 are refused rather than guessed,
 * because a wrong guess (GBK read as Latin-1, say) would send garbage the user cannot see.
 */
export function readText(bytes: Uint8Array): TextReading {
  let encoding = 'utf-8'
  let start = 0
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, start] = ['utf-16le', 2]
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, start] = ['utf-16be', 2]
  const body = bytes.subarray(start)
  if (encoding === 'utf-8' && body.includes(0)) {
    return { ok: false, reason: 'binary', detail: 'it contains NUL bytes (a binary file)' }
  }
  let text: string
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body)
  } catch {
    return {
      ok: false,
      reason: 'encoding',
      detail: `it is not valid ${encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase()} text (save it as UTF-8)`
    }
  }
  if (encoding !== 'utf-8' && text.includes('\0')) {
    return { ok: false, reason: 'binary', detail: 'it contains NUL characters (a binary file)' }
  }
  if (start === 3) encoding = 'utf-8-bom'
  return { ok: true, text: text.replace(/\r\n?/g, '\n'), encoding }
}
