/** Import and export of conversation history: what the UI, the CLI and main share. */

export type ImportFormatName = 'chatgpt' | 'claude' | 'context-lens'

/**
 * Why something in the file did not become a message. The UI names each reason; the CLI
 * prints them as keys.
 */
export const SKIP_REASONS = [
  /** System prompts and custom instructions the assistant's UI never showed. */
  'system',
  /** Tool calls, tool output, browsing and code-execution results. */
  'tool',
  /** Nodes the exporting app marked hidden, and the model's hidden reasoning. */
  'hidden',
  /** Messages without any text (the ChatGPT tree's empty root nodes, for example). */
  'empty',
  /** Messages only on an abandoned branch (edits, regenerations) when branches are not kept. */
  'branch',
  /** Content the importer does not know (kept out rather than shown garbled). */
  'unsupported',
  /** Conversations already imported from this file (or present, for our own export). */
  'already_imported',
  /** Memories already present (same text). */
  'memory_exists'
] as const
export type SkipReason = (typeof SKIP_REASONS)[number]

export interface ImportProgress {
  importId: string
  conversations: number
  messages: number
  bytesRead: number
  totalBytes: number
}

export interface ImportSummary {
  format: ImportFormatName | null
  /** Threads created (forks included). */
  threads: number
  messages: number
  /** Abandoned branches brought in as forks. */
  forks: number
  memories: number
  /** Messages (or conversations, for already_imported) left out, by reason. */
  skipped: Partial<Record<SkipReason, number>>
  /** Images and attachments stored as named placeholders. */
  placeholders: number
  cancelled: boolean
  /** Set when the import stopped on malformed input; what came before it is kept. */
  error: string | null
}

export interface ImportDone {
  importId: string
  summary: ImportSummary
}

export type ExportFormat = 'json' | 'md'

export interface ExportResult {
  path: string
  threads: number
  messages: number
}

export type StartImportResult =
  { started: true; importId: string; fileName: string } | { started: false }

/** `saved: false` when the user closed the save dialog. */
export type ExportOutcome = ({ saved: true } & ExportResult) | { saved: false }
