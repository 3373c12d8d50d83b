/**
 * Files attached to a message (the composer's draft until it is sent) or to a whole thread.
 * The bytes are written to the store, by hash, before anything that can fail; then the text is
 * read (PDFs in a worker), chunked (in a worker) and embedded in the background. Each build asks
 * `forBuild` for the files that go with it, as `AttachmentInput`s: file text only ever travels
 * in that field, which the builder frames as data in its own section.
 */
import { createHash, randomUUID } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { AttachmentInput, BuildWarning, BuiltContext } from '@shared/context'
import {
  MAX_FILE_BYTES,
  MAX_FILE_TEXT_CHARS,
  type AttachOutcome,
  type AttachmentScope,
  type AttachmentView,
  type FileKind,
  type FileRefusal,
  type PickOutcome,
  type RefusalReason
} from '@shared/files'
import { AppError } from '@shared/result'
import { ATTACHMENT_CHUNK_TOKENS } from '../../context/sections/attachmentsSection'
import type {
  AttachmentRow,
  FileRepository,
  StoredChunk,
  StoredFile
} from '../../store/fileRepository'
import type { Publish } from '../events'
import type { ChunkRelevance } from './chunkRelevance'
import type { RunFileJob } from './fileJobs'
import { isPdf, kindOf, readText } from './readText'
import { RecentFiles } from './recentFiles'

/** o200k tokens per chunk at most: the size the builder cuts a file at when it must do so itself. */
export const CHUNK_TOKENS = ATTACHMENT_CHUNK_TOKENS
/** Stored chunks and vectors are keyed by this, so a new chunking never mixes with the old. */
export const CHUNKER = `chunkDocument-v1/${CHUNK_TOKENS}`

export interface FileServiceDeps {
  files: FileRepository
  relevance: ChunkRelevance
  /** Runs PDF extraction and chunking off the main thread; null: PDFs are refused. */
  runJob: RunFileJob | null
  /** The thread must exist (throws not_found otherwise). */
  requireThread: (threadId: string) => void
  now: () => number
  publish: Publish
  log: (message: string, error: unknown) => void
  newId?: () => string
  /** The system's open-file dialog (Electron's, in main); null where there is none. */
  pickFiles?: (() => Promise<string[] | null>) | null
}

export interface FileUpload {
  name: string
  mime: string | null
  bytes: Uint8Array
}

/** What one build takes along: the files, and which of them are ranked by words only. */
export interface BuildAttachments {
  attachments: AttachmentInput[]
  /** Names of files whose chunks have no vectors yet (the builder ranks them by words). */
  notEmbedded: string[]
}

/**
 * Says, in the build's metadata, which files were cut into chunks without vectors to rank
 * them by (the builder then takes them in document order). A file sent whole needs no ranking.
 */
export function withUnrankedFiles(
  built: BuiltContext,
  notEmbedded: readonly string[]
): BuiltContext {
  const cut = new Set(
    built.trace.flatMap((entry) =>
      entry.attachment && entry.attachment.chunkCount > 1 ? [entry.attachment.name] : []
    )
  )
  const files = notEmbedded.filter((name) => cut.has(name))
  if (files.length === 0) return built
  const warning: BuildWarning = {
    code: 'attachments_not_embedded',
    message: `Not embedded yet, so chunks were not ranked by meaning: ${files.join(', ')}`,
    files
  }
  return {
    ...built,
    metadata: { ...built.metadata, warnings: [...built.metadata.warnings, warning] }
  }
}

const MB = 1024 * 1024
const formatMb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`

export class FileService {
  private readonly newId: () => string
  private readonly recent: RecentFiles

  constructor(private readonly deps: FileServiceDeps) {
    this.newId = deps.newId ?? randomUUID
    this.recent = new RecentFiles(deps.files, CHUNKER)
  }

  /** Opens the file dialog and attaches what the user picks. */
  async pick(threadId: string, scope: AttachmentScope): Promise<PickOutcome> {
    this.deps.requireThread(threadId)
    if (!this.deps.pickFiles) {
      throw new AppError('invalid_input', 'There is no file dialog here; drop or paste the file.')
    }
    const paths = await this.deps.pickFiles()
    if (!paths || paths.length === 0) return { cancelled: true, outcomes: [] }
    return { cancelled: false, outcomes: await this.attachPaths(threadId, scope, paths) }
  }

  /** Reads files the user picked in main's dialog, one outcome per file, in order. */
  async attachPaths(
    threadId: string,
    scope: AttachmentScope,
    paths: readonly string[]
  ): Promise<AttachOutcome[]> {
    const outcomes: AttachOutcome[] = []
    for (const path of paths) {
      const name = basename(path)
      let bytes: Buffer
      try {
        const size = (await stat(path)).size
        if (size > MAX_FILE_BYTES) {
          outcomes.push(refused(name, 'too_large', `it is ${formatMb(size)}`, MAX_FILE_BYTES))
          continue
        }
        bytes = await readFile(path)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        outcomes.push(refused(name, 'unreadable', `it could not be opened (${reason})`))
        continue
      }
      outcomes.push(await this.attach(threadId, scope, { name, mime: null, bytes }))
    }
    return outcomes
  }

  async attach(
    threadId: string,
    scope: AttachmentScope,
    upload: FileUpload
  ): Promise<AttachOutcome> {
    this.deps.requireThread(threadId)
    const { name, mime, bytes } = upload
    if (bytes.byteLength > MAX_FILE_BYTES) {
      return refused(name, 'too_large', `it is ${formatMb(bytes.byteLength)}`, MAX_FILE_BYTES)
    }
    const hash = createHash('sha256').update(bytes).digest('hex')
    const { files } = this.deps
    files.putBytes(hash, bytes, this.deps.now())
    let file = files.getFile(hash) as StoredFile
    if (file.text === null) {
      const refusal = await this.extract(hash, name, mime, bytes)
      if (refusal) {
        files.dropUnlinked(hash)
        return { status: 'refused', refusal }
      }
      file = files.getFile(hash) as StoredFile
    }
    const row: AttachmentRow = {
      id: this.newId(),
      threadId,
      messageId: null,
      scope,
      fileHash: hash,
      name,
      mime,
      createdAt: this.deps.now()
    }
    files.addAttachment(row)
    this.deps.publish('files:changed', { threadId })
    // Chunking and embedding run in the background; the attachment is usable at once.
    void this.prepare(file).catch((error: unknown) =>
      this.deps.log(`"${name}" was not chunked`, error)
    )
    return { status: 'attached', attachment: this.view(row, file) }
  }

  list(threadId: string): AttachmentView[] {
    this.deps.requireThread(threadId)
    return this.deps.files.listForThread(threadId).flatMap((row) => {
      const file = this.deps.files.getFile(row.fileHash)
      return file ? [this.view(row, file)] : []
    })
  }

  /** Drafts and thread files can be removed; a sent message's files are part of its record. */
  remove(id: string): { removed: true } {
    const row = this.deps.files.getAttachment(id)
    if (!row) throw new AppError('not_found', 'This file is no longer attached.')
    if (row.messageId !== null) {
      throw new AppError('invalid_input', 'A sent message keeps its files.')
    }
    this.deps.files.removeAttachment(id)
    // The last attachment took the file with it (by trigger): its embedding is not needed.
    if (!this.deps.files.hasFile(row.fileHash)) this.deps.relevance.cancel(row.fileHash)
    this.deps.publish('files:changed', { threadId: row.threadId })
    return { removed: true }
  }

  /** The composer's draft files go with the message just stored. */
  claimDrafts(threadId: string, messageId: number): void {
    if (this.deps.files.claimDrafts(threadId, messageId) > 0) {
      this.deps.publish('files:changed', { threadId })
    }
  }

  /**
   * The files for one build: the thread's files, then the input message's (or, for a preview,
   * the composer's drafts), each with its chunks scored against `query` when it can be.
   */
  async forBuild(
    threadId: string,
    input: { messageId: number } | 'draft',
    query: string
  ): Promise<BuildAttachments> {
    const rows = this.deps.files
      .listForThread(threadId)
      .filter((row) =>
        row.scope === 'thread'
          ? true
          : input === 'draft'
            ? row.messageId === null
            : row.messageId === input.messageId
      )
    const attachments: AttachmentInput[] = []
    const notEmbedded: string[] = []
    for (const row of rows) {
      const content = this.recent.get(row.fileHash)
      if (!content) continue
      const base = { id: row.id, name: row.name, mime: row.mime, content: content.text }
      if (!content.chunks) {
        // Not chunked yet (just attached): the builder chunks it itself and ranks by words.
        const file = this.deps.files.getFile(row.fileHash)
        if (file) void this.prepare(file).catch(() => {})
        attachments.push(base)
        notEmbedded.push(row.name)
        continue
      }
      const { chunks } = content
      const scores = await this.deps.relevance.score(row.fileHash, CHUNKER, chunks, query)
      if (!scores.embedded) notEmbedded.push(row.name)
      attachments.push({
        ...base,
        chunks: chunks.map((chunk, i) => ({ ...chunk, relevance: scores.relevance[i] ?? null }))
      })
    }
    return { attachments, notEmbedded }
  }

  /** Chunks the file once (stored by hash) and starts embedding the chunks. */
  async prepare(file: StoredFile): Promise<void> {
    if (!file.text || !file.kind) return
    let chunks = this.deps.files.chunks(file.hash, CHUNKER)
    if (!chunks) {
      if (!this.deps.runJob) return
      const kind = file.kind === 'pdf' ? 'text' : file.kind
      const result = await this.deps.runJob({
        type: 'chunk',
        text: file.text,
        kind,
        maxTokens: CHUNK_TOKENS
      })
      chunks = result.chunks satisfies StoredChunk[]
      this.deps.files.putChunks(file.hash, CHUNKER, chunks)
    }
    await this.deps.relevance.ensure(file.hash, CHUNKER, chunks)
  }

  /** Reads the text into the store; returns the refusal when the file cannot be used. */
  private async extract(
    hash: string,
    name: string,
    mime: string | null,
    bytes: Uint8Array
  ): Promise<FileRefusal | null> {
    let kind: FileKind
    let text: string
    let encoding: string
    if (isPdf(bytes, name, mime)) {
      if (!this.deps.runJob) return refusal(name, 'pdf_unreadable', 'PDF reading is not available')
      try {
        const result = await this.deps.runJob({ type: 'pdf', bytes })
        ;[kind, text, encoding] = ['pdf', result.text, 'pdf']
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        return refusal(name, 'pdf_unreadable', `it could not be read as a PDF (${reason})`)
      }
    } else {
      const reading = readText(bytes)
      if (!reading.ok) return refusal(name, reading.reason, reading.detail)
      ;[kind, text, encoding] = [kindOf(name, mime), reading.text, reading.encoding]
    }
    if (text.trim() === '') {
      return refusal(
        name,
        'empty',
        kind === 'pdf' ? 'it has no text layer (a scan?)' : 'it is empty'
      )
    }
    if (text.length > MAX_FILE_TEXT_CHARS) {
      return refusal(
        name,
        'too_long',
        `its text is ${text.length.toLocaleString('en')} characters`,
        MAX_FILE_TEXT_CHARS
      )
    }
    this.deps.files.setExtracted(hash, kind, encoding, text)
    return null
  }

  private view(row: AttachmentRow, file: StoredFile): AttachmentView {
    return {
      id: row.id,
      threadId: row.threadId,
      messageId: row.messageId,
      scope: row.scope,
      name: row.name,
      mime: row.mime,
      kind: file.kind ?? 'text',
      size: file.size,
      chars: file.text?.length ?? 0,
      encoding: file.encoding ?? '',
      embedded: this.deps.relevance.isEmbedded(file.hash, CHUNKER),
      createdAt: row.createdAt
    }
  }
}

const LIMIT_WORDS: Partial<Record<RefusalReason, (limit: number) => string>> = {
  too_large: (limit) => `the limit is ${formatMb(limit)}`,
  too_long: (limit) => `the limit is ${limit.toLocaleString('en')} characters`
}

function refusal(name: string, reason: RefusalReason, detail: string, limit?: number): FileRefusal {
  const bound = limit === undefined ? '' : `; ${LIMIT_WORDS[reason]?.(limit) ?? ''}`
  return {
    name,
    reason,
    message: `"${name}" was not attached: ${detail}${bound}.`,
    ...(limit !== undefined && { limit })
  }
}

function refused(
  name: string,
  reason: RefusalReason,
  detail: string,
  limit?: number
): AttachOutcome {
  return { status: 'refused', refusal: refusal(name, reason, detail, limit) }
}
