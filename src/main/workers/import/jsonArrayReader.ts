/**
 * Cuts a top-level JSON array into its elements as the bytes arrive, so an export of hundreds
 * of megabytes is never held whole: only the element being read is kept. Strings and escapes
 * are respected (a `]` or `,` inside a title ends nothing); each element's text is handed out
 * for `JSON.parse`, which does the real validation.
 */

export class JsonArrayError extends Error {
  constructor(
    message: string,
    /** Byte offset in the file where the problem was seen. */
    readonly offset: number
  ) {
    super(message)
    this.name = 'JsonArrayError'
  }
}

export interface ArrayElement {
  /** 0-based position in the array. */
  index: number
  text: string
  /** Bytes of the file consumed up to the end of this element. */
  bytesRead: number
}

const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
/** Some editors save JSON with a byte order mark. */
const UTF8_BOM = [0xef, 0xbb, 0xbf]

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

type Phase = 'start' | 'elements' | 'end'

export async function* readJsonArray(
  chunks: AsyncIterable<Buffer | Uint8Array>
): AsyncGenerator<ArrayElement> {
  let phase: Phase = 'start'
  let offset = 0
  let index = 0
  let depth = 0
  let inString = false
  let escaped = false
  // Pieces of the current element (it may span several chunks), and whether it has begun.
  let parts: Buffer[] = []
  let started = false
  let afterComma = false

  const element = (): ArrayElement | null => {
    const text = Buffer.concat(parts).toString('utf8').trim()
    parts = []
    started = false
    if (text === '') return null
    return { index: index++, text, bytesRead: offset }
  }

  for await (const raw of chunks) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw)
    const ready: ArrayElement[] = []
    let elementStart = started ? 0 : -1
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number
      if (phase === 'start') {
        if (isSpace(byte) || (offset + i < 3 && byte === UTF8_BOM[offset + i])) continue
        if (byte !== OPEN_BRACKET) {
          throw new JsonArrayError(
            `This is not an export file: it must be a JSON array of conversations, but it starts with "${String.fromCharCode(byte)}"`,
            offset + i
          )
        }
        phase = 'elements'
        continue
      }
      if (phase === 'end') {
        if (!isSpace(byte)) {
          throw new JsonArrayError(
            `Unexpected text after the end of the conversation list (byte ${offset + i})`,
            offset + i
          )
        }
        continue
      }
      if (inString) {
        if (escaped) escaped = false
        else if (byte === BACKSLASH) escaped = true
        else if (byte === QUOTE) inString = false
        continue
      }
      if (depth === 0 && (byte === COMMA || byte === CLOSE_BRACKET)) {
        if (elementStart !== -1) parts.push(chunk.subarray(elementStart, i))
        elementStart = -1
        const done = element()
        if (done) ready.push(done)
        else if (byte === COMMA || afterComma) {
          throw new JsonArrayError(
            `A conversation is missing between two commas (byte ${offset + i})`,
            offset + i
          )
        }
        afterComma = byte === COMMA
        if (byte === CLOSE_BRACKET) phase = 'end'
        continue
      }
      if (!started) {
        if (isSpace(byte)) continue
        started = true
        elementStart = i
      }
      if (byte === QUOTE) inString = true
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--
    }
    if (started && elementStart !== -1) parts.push(chunk.subarray(elementStart))
    offset += chunk.length
    for (const item of ready) yield item
  }
  if (phase === 'start') throw new JsonArrayError('The file is empty', offset)
  if (phase !== 'end') {
    throw new JsonArrayError(
      started || afterComma
        ? `The file ends in the middle of conversation ${index + 1}: it was cut short`
        : `The file ends before the conversation list is closed: it was cut short`,
      offset
    )
  }
}
