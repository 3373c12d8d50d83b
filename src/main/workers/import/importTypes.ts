/**
 * What every import format maps a conversation to, before anything is written: threads with
 * their messages, and counts of what was left out and why. A format is one file implementing
 * `ImportFormat` (chatgptFormat.ts, claudeFormat.ts, ownFormat.ts).
 */
import type {
  MemoryCategory,
  MemoryHistoryEntry,
  ReplyInfo,
  Role,
  ThreadSummaryView,
  ToolCall
} from '@shared/domain'
import type { ImportFormatName, SkipReason } from '@shared/history'

export interface ImportedMessage {
  role: Role
  content: string
  createdAt: number
  /** Our own export keeps these; other formats leave them out. */
  seq?: number
  sourceId?: number
  toolCalls?: ToolCall[] | null
  toolCallId?: string | null
  tokenCount?: number
  pinned?: boolean
  excluded?: boolean
  reply?: ReplyInfo
}

export interface ImportedThread {
  /** Unique per conversation (and branch) in its format: the idempotency key. */
  key: string
  /** Our own export keeps thread ids; other formats get new ones. */
  id?: string
  title: string
  createdAt: number
  updatedAt: number
  settings?: Record<string, unknown>
  messages: ImportedMessage[]
  /** An abandoned branch (or a fork in our export): which thread, after which message. */
  forkOf?: { key: string; seq: number } | null
  summary?: Omit<ThreadSummaryView, 'threadId'> | null
}

type ImportedMemoryHistory = Omit<MemoryHistoryEntry, 'id' | 'memoryId'>

interface ImportedMemory {
  content: string
  category: MemoryCategory
  sourceThreadId: string | null
  sourceMessageId: number | null
  createdAt: number
  updatedAt: number
  history: ImportedMemoryHistory[]
}

/** One top-level element of the file, mapped. */
export interface ImportedRecord {
  threads: ImportedThread[]
  memories: ImportedMemory[]
  skipped: Partial<Record<SkipReason, number>>
  /** Set by our own export's header: the store schema the threads after it were saved at. */
  settingsSchema?: number
}

export interface MapOptions {
  withBranches: boolean
}

export interface ImportFormat {
  name: ImportFormatName
  /** Decides from the first element of the array whether the file is in this format. */
  detect(first: unknown): boolean
  map(element: unknown, position: number, options: MapOptions): ImportedRecord
}

/** Malformed input: names the conversation (position and title when known) and the field. */
export class ImportInputError extends Error {
  constructor(
    readonly conversation: string,
    readonly field: string,
    detail: string
  ) {
    super(`${conversation}: ${field} ${detail}`)
    this.name = 'ImportInputError'
  }
}

/** "conversation 3 ("Trip to Kyoto")": how errors and summaries name a conversation. */
export function conversationLabel(position: number, title: unknown): string {
  const name = typeof title === 'string' && title.trim() !== '' ? ` ("${title.slice(0, 80)}")` : ''
  return `conversation ${position + 1}${name}`
}

export function addSkip(
  skipped: Partial<Record<SkipReason, number>>,
  reason: SkipReason,
  count = 1
): void {
  if (count > 0) skipped[reason] = (skipped[reason] ?? 0) + count
}

/** Field readers that throw ImportInputError with the conversation and the field's path. */
export class FieldReader {
  constructor(readonly conversation: string) {}

  fail(field: string, detail: string): never {
    throw new ImportInputError(this.conversation, field, detail)
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(field, `should be an object, found ${describe(value)}`)
    return value as Record<string, unknown>
  }

  array(value: unknown, field: string): unknown[] {
    if (!Array.isArray(value)) this.fail(field, `should be a list, found ${describe(value)}`)
    return value
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string') this.fail(field, `should be text, found ${describe(value)}`)
    return value
  }

  optionalString(value: unknown, field: string): string | null {
    return value === undefined || value === null ? null : this.string(value, field)
  }

  /** Seconds since 1970 (ChatGPT) as milliseconds; null when absent. */
  seconds(value: unknown, field: string): number | null {
    if (value === undefined || value === null) return null
    if (typeof value !== 'number' || !Number.isFinite(value))
      this.fail(field, `should be a time in seconds, found ${describe(value)}`)
    return Math.round(value * 1000)
  }

  /** An ISO 8601 date (Claude) as milliseconds; null when absent. */
  isoDate(value: unknown, field: string): number | null {
    if (value === undefined || value === null) return null
    const time = typeof value === 'string' ? Date.parse(value) : NaN
    if (!Number.isFinite(time)) this.fail(field, `should be a date, found ${describe(value)}`)
    return time
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return `"${value.slice(0, 40)}"`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}
