/** Messages between the main process and the file worker (one job per worker, then it exits). */
import type { FileKind } from '@shared/files'

export type FileJob =
  /** Extracts a PDF's text, page after page, with its line breaks. */
  | { type: 'pdf'; bytes: Uint8Array }
  /** Cuts a file's text into structure-aware chunks of at most `maxTokens` (o200k). */
  | { type: 'chunk'; text: string; kind: Exclude<FileKind, 'pdf'>; maxTokens: number }

interface ChunkOut {
  index: number
  text: string
  startLine: number
  endLine: number
}

export type FileJobResult =
  | { type: 'pdf'; text: string; pages: number }
  | { type: 'chunk'; chunks: ChunkOut[] }
  | { type: 'error'; message: string }
