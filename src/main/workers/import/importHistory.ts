/**
 * The import itself, wherever it runs (the app's import worker, the CLI, tests): streams the
 * file's array element by element, detects the format from the first element, maps each
 * conversation, and writes it in its own transaction with its import key. Stops at the first
 * malformed conversation with an error naming it and the field; what came before stays, the
 * malformed conversation leaves nothing behind.
 */
import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { yieldToEventLoop } from '@shared/eventLoop'
import type { ImportFormatName, ImportSummary } from '@shared/history'
import { tokenCounterFor } from '../../context/tokens/tokenCounter'
import {
  HistoryRepository,
  type ImportMemoryRow,
  type ImportThreadRow
} from '../../store/historyRepository'
import { chatgptFormat } from './chatgptFormat'
import { claudeFormat } from './claudeFormat'
import {
  addSkip,
  conversationLabel,
  ImportInputError,
  type ImportedRecord,
  type ImportFormat
} from './importTypes'
import { JsonArrayError, readJsonArray } from './jsonArrayReader'
import { ownFormat } from './ownFormat'

const IMPORT_FORMATS: readonly ImportFormat[] = [chatgptFormat, claudeFormat, ownFormat]

export interface ImportCounts {
  conversations: number
  messages: number
  bytesRead: number
}

export interface ImportOptions {
  withBranches?: boolean
  now?: () => number
  newId?: () => string
  /** Checked between conversations; true stops the import after the one being written. */
  cancelled?: () => boolean
  /** After every conversation. */
  progress?: (counts: ImportCounts) => void
  /** Gives the event loop back after this many ms of work (in-process imports). */
  sliceMs?: number
  /**
   * Only on a connection of its own (the import worker, the CLI): commits several
   * conversations together, each still in its own savepoint, so a malformed one is rolled
   * back alone. Fewer, larger commits make the full-text index much cheaper to build. The
   * app's own writes wait at most this long for the lock. 0 commits every conversation.
   */
  batchMs?: number
  /**
   * After each batch commit, waits this long with the lock released, so a writer on another
   * connection that is waiting for it (SQLite's busy handler sleeps and retries) gets its turn
   * instead of being overtaken by the next batch.
   */
  pauseMs?: number
}

const PLACEHOLDER = /\[(?:image|attachment): [^\]\n]*\]/g

export function emptySummary(): ImportSummary {
  return {
    format: null,
    threads: 0,
    messages: 0,
    forks: 0,
    memories: 0,
    skipped: {},
    placeholders: 0,
    cancelled: false,
    error: null
  }
}

export async function importHistory(
  db: Database.Database,
  chunks: AsyncIterable<Buffer | Uint8Array>,
  options: ImportOptions = {}
): Promise<ImportSummary> {
  const { now = Date.now, newId = randomUUID, sliceMs = 8, batchMs = 0, pauseMs = 0 } = options
  const batch = new CommitBatch(db, batchMs)
  const repository = new HistoryRepository(db)
  const counter = tokenCounterFor('gpt-4o')
  const summary = emptySummary()
  const keyToThread = new Map<string, string>()
  const messageIds = new Map<number, number>()
  let format: ImportFormat | null = null
  // Our own export's header: the store schema its threads' settings were saved at.
  let settingsSchema: number | undefined
  let conversations = 0
  let deadline = performance.now() + sliceMs

  // Our own export has a header element first; conversations are counted after it.
  const labelOf = (index: number, title: unknown) =>
    conversationLabel(format === ownFormat ? index - 1 : index, title)

  const resolveThread = (key: string): string | null =>
    keyToThread.get(key) ?? repository.threadForKey(key)

  const rowsOf = (record: ImportedRecord) => {
    const threads: ImportThreadRow[] = []
    for (const thread of record.threads) {
      const existing =
        repository.threadForKey(thread.key) ??
        (thread.id !== undefined && repository.threadExists(thread.id) ? thread.id : null)
      if (existing !== null) {
        keyToThread.set(thread.key, existing)
        addSkip(summary.skipped, 'already_imported')
        continue
      }
      const id = thread.id ?? newId()
      keyToThread.set(thread.key, id)
      const origin = thread.forkOf ? resolveThread(thread.forkOf.key) : null
      threads.push({
        key: thread.key,
        id,
        title: thread.title,
        createdAt: thread.createdAt,
        updatedAt: thread.updatedAt,
        settings: thread.settings ?? {},
        settingsSchema,
        forkedFrom: origin && thread.forkOf ? { threadId: origin, seq: thread.forkOf.seq } : null,
        summary: thread.summary ?? null,
        messages: thread.messages.map((message, i) => ({
          seq: message.seq ?? i + 1,
          role: message.role,
          content: message.content,
          toolCalls: message.toolCalls ?? null,
          toolCallId: message.toolCallId ?? null,
          tokenCount: message.tokenCount ?? counter.count(message.content),
          createdAt: message.createdAt,
          pinned: message.pinned ?? false,
          excluded: message.excluded ?? false,
          reply: message.reply ?? null,
          sourceId: message.sourceId ?? null
        }))
      })
    }
    const memories: ImportMemoryRow[] = []
    for (const memory of record.memories) {
      if (repository.memoryExists(memory.content)) addSkip(summary.skipped, 'memory_exists')
      else memories.push(memory)
    }
    return { threads, memories }
  }

  try {
    for await (const element of readJsonArray(chunks)) {
      if (options.cancelled?.()) {
        summary.cancelled = true
        break
      }
      let value: unknown
      try {
        value = JSON.parse(element.text)
      } catch (error) {
        throw new ImportInputError(
          labelOf(element.index, null),
          'the text',
          `is not valid JSON (${(error as Error).message})`
        )
      }
      format ??= detectFormat(value)
      summary.format = format.name as ImportFormatName
      const record = format.map(value, element.index, { withBranches: !!options.withBranches })
      settingsSchema = record.settingsSchema ?? settingsSchema
      for (const [reason, count] of Object.entries(record.skipped))
        addSkip(summary.skipped, reason as keyof ImportSummary['skipped'], count)
      const { threads, memories } = rowsOf(record)
      let written: number
      try {
        batch.begin()
        written = repository.writeConversation(threads, memories, messageIds, now())
      } catch (error) {
        // The transaction rolled back. A constraint our checks did not foresee (a repeated seq
        // in a hand-edited export, say) is the file's fault; anything else is the store's.
        if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
          const label = labelOf(element.index, record.threads[0]?.title)
          throw new ImportInputError(
            label,
            'messages',
            `cannot be stored: ${(error as Error).message}`
          )
        }
        throw error
      }
      summary.threads += threads.length
      summary.forks += threads.filter((t) => t.forkedFrom !== null).length
      summary.messages += written
      summary.memories += memories.length
      if (format !== ownFormat) {
        for (const thread of threads.filter((t) => t.forkedFrom === null))
          for (const message of thread.messages)
            summary.placeholders += message.content.match(PLACEHOLDER)?.length ?? 0
      }
      const committed = batch.commitIfDue()
      conversations++
      options.progress?.({
        conversations,
        messages: summary.messages,
        bytesRead: element.bytesRead
      })
      if (committed && pauseMs > 0) {
        await new Promise<void>((resolve) => setTimeout(resolve, pauseMs))
        deadline = performance.now() + sliceMs
      } else if (performance.now() >= deadline) {
        await yieldToEventLoop()
        deadline = performance.now() + sliceMs
      }
    }
  } catch (error) {
    if (!(error instanceof ImportInputError || error instanceof JsonArrayError)) {
      batch.rollback()
      throw error
    }
    summary.error = error.message
  }
  // What was written whole stays; a malformed conversation was rolled back to its savepoint.
  batch.commit()
  return summary
}

function detectFormat(first: unknown): ImportFormat {
  const format = IMPORT_FORMATS.find((candidate) => candidate.detect(first))
  if (!format) {
    throw new ImportInputError(
      'conversation 1',
      'the format',
      'is not one this app reads: a ChatGPT export has "mapping" and "current_node", a Claude export has "chat_messages", a Context Lens export starts with {"format": "context-lens"}'
    )
  }
  return format
}

/** An open transaction committed every `ms`; each conversation inside it is a savepoint. */
class CommitBatch {
  private startedAt: number | null = null

  constructor(
    private readonly db: Database.Database,
    private readonly ms: number
  ) {}

  begin(): void {
    if (this.ms <= 0 || this.startedAt !== null) return
    this.db.exec('BEGIN IMMEDIATE')
    this.startedAt = performance.now()
  }

  /** True when it committed. */
  commitIfDue(): boolean {
    if (this.startedAt === null || performance.now() - this.startedAt < this.ms) return false
    this.commit()
    return true
  }

  commit(): void {
    if (this.startedAt === null) return
    this.startedAt = null
    this.db.exec('COMMIT')
  }

  rollback(): void {
    if (this.startedAt === null) return
    this.startedAt = null
    if (this.db.inTransaction) this.db.exec('ROLLBACK')
  }
}
