/**
 * Files attached to a message or to a whole thread: what the renderer shows and the limits it
 * checks before sending bytes over IPC (main checks them again). docs/FILES.md explains them.
 */

/** Larger files are refused before they are read into the store. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024

/**
 * Extracted text longer than this is refused: it bounds the worker's chunking and the chunks
 * to embed (a 10 MB PDF can hold far more text than its bytes suggest, after decompression).
 */
export const MAX_FILE_TEXT_CHARS = 5_000_000

/** How a file's text is read and chunked. */
export type FileKind = 'markdown' | 'code' | 'csv' | 'json' | 'text' | 'pdf'

/** `message`: goes with the next message sent (a composer chip); `thread`: with every turn. */
export type AttachmentScope = 'message' | 'thread'

export interface AttachmentView {
  id: string
  threadId: string
  /** The user message it went with; null for thread files and for the composer's draft. */
  messageId: number | null
  scope: AttachmentScope
  name: string
  mime: string | null
  kind: FileKind
  /** Bytes of the original file. */
  size: number
  /** Characters of extracted text. */
  chars: number
  /** How the bytes were decoded ("utf-8", "utf-16le", "pdf"). */
  encoding: string
  /** Whether its chunks have vectors in the current memory model (else ranked by words). */
  embedded: boolean
  createdAt: number
}

export type RefusalReason =
  'too_large' | 'binary' | 'encoding' | 'too_long' | 'empty' | 'pdf_unreadable' | 'unreadable'

export interface FileRefusal {
  name: string
  reason: RefusalReason
  /** An English sentence naming the file and why; the renderer translates `reason` instead. */
  message: string
  /** The limit that was crossed (bytes for too_large, characters for too_long). */
  limit?: number
}

export type AttachOutcome =
  { status: 'attached'; attachment: AttachmentView } | { status: 'refused'; refusal: FileRefusal }

/** A picked set of files: some may attach while others are refused. */
export interface PickOutcome {
  cancelled: boolean
  outcomes: AttachOutcome[]
}
