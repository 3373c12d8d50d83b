/**
 * Cuts a file's text into chunks on its structure, so a chunk the attachments section sends is
 * a whole section, function or paragraph rather than an arbitrary slice. A range that is over
 * `maxTokens` is split at the coarsest structure it has (Markdown headings, then paragraphs;
 * code declarations from the outermost indentation inwards; CSV rows), the pieces are packed
 * back together in order up to `maxTokens`, and only a single line too long for a chunk is cut
 * inside. Chunks are in document order and together cover every line, so the trace can account
 * for all of a file.
 */

export type DocumentKind = 'markdown' | 'code' | 'csv' | 'json' | 'text'

export interface DocumentChunk {
  index: number
  text: string
  /** 1-based, inclusive line range in the text. */
  startLine: number
  endLine: number
}

/** A piece of the document: lines [start, end] (0-based), or part of one long line. */
interface Piece {
  start: number
  end: number
  tokens: number
  /** Set for the part of a line too long for a chunk; such pieces are never merged. */
  text?: string
}

/** Where a line range may be split: the start index of every part, the range's start first. */
type Splitter = (start: number, end: number) => number[]

const isBlank = (line: string): boolean => line.trim().length === 0

function indentOf(line: string): number {
  let width = 0
  for (const ch of line) {
    if (ch === ' ') width += 1
    else if (ch === '\t') width += 4
    else break
  }
  return width
}

/** Lines inside a fenced code block (and the fences), where Markdown structure does not apply. */
function fencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = []
  let open: string | null = null
  for (const line of lines) {
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (open === null && fence) {
      open = fence[0] as string
      fenced.push(true)
    } else if (open !== null) {
      fenced.push(true)
      if (fence?.[0] === open) open = null
    } else {
      fenced.push(false)
    }
  }
  return fenced
}

function partStarts(start: number, end: number, startsPart: (i: number) => boolean): number[] {
  const starts = [start]
  for (let i = start + 1; i <= end; i++) if (startsPart(i)) starts.push(i)
  return starts
}

/** Paragraphs: a part starts at a non-blank line after a blank one. */
function paragraphSplitter(lines: readonly string[], skip: readonly boolean[] = []): Splitter {
  return (start, end) =>
    partStarts(
      start,
      end,
      (i) => !skip[i] && !isBlank(lines[i] as string) && isBlank(lines[i - 1] as string)
    )
}

const lineSplitter: Splitter = (start, end) => partStarts(start, end, () => true)

function markdownSplitters(lines: readonly string[]): Splitter[] {
  const fenced = fencedLines(lines)
  const headingLevel = (i: number): number =>
    fenced[i] ? 0 : (/^\s{0,3}(#{1,6})\s/.exec(lines[i] as string)?.[1]?.length ?? 0)
  const byHeading =
    (level: number): Splitter =>
    (start, end) =>
      partStarts(start, end, (i) => {
        const found = headingLevel(i)
        return found > 0 && found <= level
      })
  return [1, 2, 3, 4, 5, 6].map(byHeading).concat(paragraphSplitter(lines, fenced), lineSplitter)
}

/**
 * Code and JSON: declarations at the range's outermost indentation first, then one level in.
 * A part starts at a line at most that indented after a blank line or a closing line at that
 * indentation, so a comment or decorator directly above a declaration stays with it.
 */
function indentationSplitters(lines: readonly string[]): Splitter[] {
  const byIndent: Splitter = (start, end) => {
    const indents = new Set<number>()
    for (let i = start; i <= end; i++) {
      if (!isBlank(lines[i] as string)) indents.add(indentOf(lines[i] as string))
    }
    for (const level of [...indents].sort((a, b) => a - b)) {
      const starts = partStarts(start, end, (i) => {
        const line = lines[i] as string
        if (isBlank(line) || indentOf(line) > level) return false
        const previous = lines[i - 1] as string
        return isBlank(previous) || (indentOf(previous) <= level && /^\s*[}\])]/.test(previous))
      })
      if (starts.length > 1) return starts
    }
    return [start]
  }
  return [byIndent, paragraphSplitter(lines), lineSplitter]
}

/** CSV rows: a row ends where its quotes balance, so a quoted field may span lines. */
function rowSplitter(lines: readonly string[]): Splitter {
  const rowStart: boolean[] = []
  let open = false
  for (const line of lines) {
    rowStart.push(!open)
    const quotes = line.split('"').length - 1
    if (quotes % 2 === 1) open = !open
  }
  return (start, end) => partStarts(start, end, (i) => rowStart[i] === true)
}

class Chunker {
  constructor(
    private readonly lines: readonly string[],
    private readonly splitters: readonly Splitter[],
    private readonly maxTokens: number,
    private readonly count: (text: string) => number
  ) {}

  textOf(start: number, end: number): string {
    return this.lines.slice(start, end + 1).join('\n')
  }

  /** Pieces of lines [start, end], each within maxTokens, in order. */
  pieces(start: number, end: number, level = 0): Piece[] {
    const tokens = this.count(this.textOf(start, end))
    if (tokens <= this.maxTokens) return [{ start, end, tokens }]
    for (let lv = level; lv < this.splitters.length; lv++) {
      const starts = (this.splitters[lv] as Splitter)(start, end)
      if (starts.length < 2) continue
      const parts = starts.flatMap((partStart, i) =>
        this.pieces(partStart, (starts[i + 1] ?? end + 1) - 1, lv + 1)
      )
      return this.pack(parts)
    }
    return this.cutLine(start)
  }

  /**
   * Adjacent pieces merged up to maxTokens. Sums of counts plus one for the joining newline
   * estimate a merge (counting every growing chunk again would be quadratic); a merged chunk
   * is counted once, and gives back its last pieces in the rare case BPE merged differently.
   */
  private pack(parts: Piece[]): Piece[] {
    const packed: Piece[] = []
    let i = 0
    while (i < parts.length) {
      const first = parts[i] as Piece
      let j = i
      let estimate = first.tokens
      while (first.text === undefined && j + 1 < parts.length) {
        const next = parts[j + 1] as Piece
        if (next.text !== undefined || estimate + next.tokens + 1 > this.maxTokens) break
        estimate += next.tokens + 1
        j++
      }
      while (j > i) {
        const tokens = this.count(this.textOf(first.start, (parts[j] as Piece).end))
        if (tokens <= this.maxTokens) break
        j--
      }
      const last = parts[j] as Piece
      packed.push(
        j === i
          ? first
          : {
              start: first.start,
              end: last.end,
              tokens: this.count(this.textOf(first.start, last.end))
            }
      )
      i = j + 1
    }
    return packed
  }

  /** A line over maxTokens, cut into consecutive parts that each fit. */
  private cutLine(index: number): Piece[] {
    const line = this.lines[index] as string
    const pieces: Piece[] = []
    let rest = line
    while (rest.length > 0) {
      const restTokens = this.count(rest)
      if (restTokens <= this.maxTokens) {
        pieces.push({ start: index, end: index, tokens: restTokens, text: rest })
        break
      }
      // Start from the average characters per token, then shrink until it fits.
      let size = Math.max(1, Math.floor((rest.length * this.maxTokens) / restTokens))
      let tokens = this.count(rest.slice(0, size))
      while (size > 1 && tokens > this.maxTokens) {
        size = Math.max(1, Math.floor(size * 0.9))
        tokens = this.count(rest.slice(0, size))
      }
      pieces.push({ start: index, end: index, tokens, text: rest.slice(0, size) })
      rest = rest.slice(size)
    }
    return pieces
  }
}

function splittersFor(kind: DocumentKind, lines: readonly string[]): Splitter[] {
  switch (kind) {
    case 'markdown':
      return markdownSplitters(lines)
    case 'code':
    case 'json':
      return indentationSplitters(lines)
    case 'csv':
      return [rowSplitter(lines), lineSplitter]
    case 'text':
      return [paragraphSplitter(lines), lineSplitter]
  }
}

function linesOf(text: string): string[] {
  const normalized = text.replace(/\r\n?/g, '\n')
  // A final newline ends the last line; it does not start an empty one.
  return (normalized.endsWith('\n') ? normalized.slice(0, -1) : normalized).split('\n')
}

/** CSV: every chunk after the first starts with the header row, so its columns stay named. */
function csvChunks(
  lines: readonly string[],
  maxTokens: number,
  count: (text: string) => number
): DocumentChunk[] | null {
  const splitter = rowSplitter(lines)
  const headerEnd = ((splitter(0, lines.length - 1)[1] ?? lines.length) as number) - 1
  const header = lines.slice(0, headerEnd + 1).join('\n')
  const rowBudget = maxTokens - count(header) - 1
  if (rowBudget <= 0 || headerEnd >= lines.length - 1) return null
  const chunker = new Chunker(lines, [splitter, lineSplitter], rowBudget, count)
  const pieces = chunker.pieces(headerEnd + 1, lines.length - 1)
  return pieces.map((piece, index) => {
    const rows = piece.text ?? chunker.textOf(piece.start, piece.end)
    return {
      index,
      text: `${header}\n${rows}`,
      startLine: (index === 0 ? 0 : piece.start) + 1,
      endLine: piece.end + 1
    }
  })
}

export function chunkDocument(
  text: string,
  kind: DocumentKind,
  maxTokens: number,
  count: (text: string) => number
): DocumentChunk[] {
  if (text.length === 0) return []
  const lines = linesOf(text)
  const budget = Math.max(1, Math.floor(maxTokens))
  if (kind === 'csv') {
    const chunks = csvChunks(lines, budget, count)
    if (chunks) return chunks
  }
  const chunker = new Chunker(lines, splittersFor(kind, lines), budget, count)
  return chunker.pieces(0, lines.length - 1).map((piece, index) => ({
    index,
    text: piece.text ?? chunker.textOf(piece.start, piece.end),
    startLine: piece.start + 1,
    endLine: piece.end + 1
  }))
}
