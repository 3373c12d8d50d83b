import type Database from 'better-sqlite3'
import type { AttachmentScope, FileKind } from '@shared/files'

/** A stored file: its bytes by hash, and the outcome of reading them. */
export interface StoredFile {
  hash: string
  size: number
  kind: FileKind | null
  encoding: string | null
  /** Null until extracted. */
  text: string | null
  createdAt: number
}

export interface AttachmentRow {
  id: string
  threadId: string
  messageId: number | null
  scope: AttachmentScope
  fileHash: string
  name: string
  mime: string | null
  createdAt: number
}

/** One chunk of a file's text, as the chunker cut it (stored with the file, reused per build). */
export interface StoredChunk {
  index: number
  text: string
  startLine: number
  endLine: number
}

interface FileDbRow {
  hash: string
  size: number
  kind: string | null
  encoding: string | null
  text: string | null
  created_at: number
}

interface AttachmentDbRow {
  id: string
  thread_id: string
  message_id: number | null
  scope: string
  file_hash: string
  name: string
  mime: string | null
  created_at: number
}

const toFile = (row: FileDbRow): StoredFile => ({
  hash: row.hash,
  size: row.size,
  kind: row.kind as FileKind | null,
  encoding: row.encoding,
  text: row.text,
  createdAt: row.created_at
})

const toAttachment = (row: AttachmentDbRow): AttachmentRow => ({
  id: row.id,
  threadId: row.thread_id,
  messageId: row.message_id,
  scope: row.scope as AttachmentScope,
  fileHash: row.file_hash,
  name: row.name,
  mime: row.mime,
  createdAt: row.created_at
})

/** Files (content-addressed), the attachments that link them to threads and messages, and
 * the chunks and vectors derived from them. */
export class FileRepository {
  constructor(private readonly db: Database.Database) {}

  /** Stores the bytes under their hash; the same bytes again change nothing. */
  putBytes(hash: string, bytes: Uint8Array, now: number): { inserted: boolean } {
    const result = this.db
      .prepare('INSERT OR IGNORE INTO files (hash, size, bytes, created_at) VALUES (?, ?, ?, ?)')
      .run(
        hash,
        bytes.byteLength,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        now
      )
    return { inserted: result.changes > 0 }
  }

  getFile(hash: string): StoredFile | null {
    const row = this.db
      .prepare('SELECT hash, size, kind, encoding, text, created_at FROM files WHERE hash = ?')
      .get(hash) as FileDbRow | undefined
    return row ? toFile(row) : null
  }

  hasFile(hash: string): boolean {
    return this.db.prepare('SELECT 1 FROM files WHERE hash = ?').pluck().get(hash) !== undefined
  }

  /** How many distinct files are stored. */
  fileCount(): number {
    return this.db.prepare('SELECT count(*) FROM files').pluck().get() as number
  }

  setExtracted(hash: string, kind: FileKind, encoding: string, text: string): void {
    this.db
      .prepare('UPDATE files SET kind = ?, encoding = ?, text = ? WHERE hash = ?')
      .run(kind, encoding, text, hash)
  }

  addAttachment(row: AttachmentRow): void {
    this.db
      .prepare(
        `INSERT INTO attachments (id, thread_id, message_id, scope, file_hash, name, mime, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        row.id,
        row.threadId,
        row.messageId,
        row.scope,
        row.fileHash,
        row.name,
        row.mime,
        row.createdAt
      )
  }

  getAttachment(id: string): AttachmentRow | null {
    const row = this.db.prepare('SELECT * FROM attachments WHERE id = ?').get(id) as
      AttachmentDbRow | undefined
    return row ? toAttachment(row) : null
  }

  /** Every attachment of the thread (drafts, thread files, sent ones), oldest first. */
  listForThread(threadId: string): AttachmentRow[] {
    return (
      this.db
        .prepare('SELECT * FROM attachments WHERE thread_id = ? ORDER BY created_at, rowid')
        .all(threadId) as AttachmentDbRow[]
    ).map(toAttachment)
  }

  /** The threads that have the file attached (to say its vectors are ready). */
  threadsOf(hash: string): string[] {
    return this.db
      .prepare('SELECT DISTINCT thread_id FROM attachments WHERE file_hash = ?')
      .pluck()
      .all(hash) as string[]
  }

  /** The composer's draft files become the message's: one UPDATE, so none is left behind. */
  claimDrafts(threadId: string, messageId: number): number {
    return this.db
      .prepare(
        `UPDATE attachments SET message_id = ?
          WHERE thread_id = ? AND scope = 'message' AND message_id IS NULL`
      )
      .run(messageId, threadId).changes
  }

  /** Removes an attachment; its file goes too when nothing else links to it (by trigger). */
  removeAttachment(id: string): boolean {
    return this.db.prepare('DELETE FROM attachments WHERE id = ?').run(id).changes > 0
  }

  /** Deletes the file unless an attachment links to it (a refused or removed file). */
  dropUnlinked(hash: string): void {
    this.db
      .prepare(
        'DELETE FROM files WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM attachments WHERE file_hash = ?)'
      )
      .run(hash, hash)
  }

  chunks(hash: string, chunker: string): StoredChunk[] | null {
    const json = this.db
      .prepare('SELECT chunks FROM file_chunks WHERE file_hash = ? AND chunker = ?')
      .pluck()
      .get(hash, chunker) as string | undefined
    return json === undefined ? null : (JSON.parse(json) as StoredChunk[])
  }

  putChunks(hash: string, chunker: string, chunks: readonly StoredChunk[]): void {
    this.db
      .prepare('INSERT OR REPLACE INTO file_chunks (file_hash, chunker, chunks) VALUES (?, ?, ?)')
      .run(hash, chunker, JSON.stringify(chunks))
  }

  /** The file's chunk vectors in `space`, row after row; null when not embedded (yet). */
  vectors(hash: string, space: string, chunker: string): Float32Array | null {
    const row = this.db
      .prepare('SELECT vectors FROM file_vectors WHERE file_hash = ? AND space = ? AND chunker = ?')
      .get(hash, space, chunker) as { vectors: Buffer } | undefined
    if (!row) return null
    const copy = new Uint8Array(row.vectors)
    return new Float32Array(copy.buffer, 0, copy.byteLength / 4)
  }

  putVectors(
    hash: string,
    space: string,
    chunker: string,
    dimension: number,
    vectors: Float32Array
  ): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO file_vectors (file_hash, space, chunker, dimension, vectors)
         VALUES (?, ?, ?, ?, ?)`
      )
      .run(
        hash,
        space,
        chunker,
        dimension,
        Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength)
      )
  }
}
