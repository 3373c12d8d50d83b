/** Plain data shapes shared by main, preload and renderer. No behaviour lives here. */
import type { StoredBuild } from './context'

export type Role = 'system' | 'user' | 'assistant' | 'tool'

export interface ToolCall {
  id: string
  name: string
  /** JSON text exactly as the model produced it. */
  arguments: string
}

export interface Thread {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  settings: Record<string, unknown>
}

export interface ThreadListItem extends Thread {
  messageCount: number
  lastMessagePreview: string | null
}

export interface Message {
  id: number
  threadId: string
  seq: number
  role: Role
  content: string
  toolCalls: ToolCall[] | null
  toolCallId: string | null
  tokenCount: number
  createdAt: number
  pinned: boolean
  excluded: boolean
}

export interface SearchHit {
  kind: 'thread' | 'message'
  threadId: string
  threadTitle: string
  messageId: number | null
  seq: number | null
  role: Role | null
  /** A short excerpt around the first match, plain text. */
  snippet: string
  createdAt: number
}

export type LocalePreference = 'system' | 'en' | 'zh-CN'

export interface AppSettings {
  locale: LocalePreference
  inspectorOpen: boolean
  /** The system section of every build. */
  systemPrompt: string
}

export interface AppInfo {
  version: string
  systemLocale: string
  databasePath: string
  /** Set when the store had to be recovered from a corrupt file at start-up. */
  recoveredFromBackup: string | null
}

/** The message is stored; no model provider exists yet, so no reply follows. */
export interface SendOutcome {
  message: Message
  status: 'no_model_configured'
  /** The request that would be sent, as the inspector shows it; null if building failed. */
  build: StoredBuild | null
  /** Why there is no build; the message is stored regardless. */
  buildError: string | null
}

// ---- Long-term memory -----------------------------------------------------------------------

export const MEMORY_CATEGORIES = ['user_preference', 'fact', 'task', 'other'] as const
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number]

/** A curated memory: something the user asked to keep, or (later) an extracted preference. */
export interface Memory {
  id: number
  content: string
  category: MemoryCategory
  /** The thread and message it was made from; null when typed in the memory manager or gone. */
  sourceThreadId: string | null
  sourceMessageId: number | null
  contentHash: string
  createdAt: number
  updatedAt: number
}

export type MemoryHistoryAction = 'create' | 'update' | 'delete' | 'restore'

/** One change to a memory. `reason`: explicit, remember_message, edit, dedup_hash, dedup_similar, undo_delete, ... */
export interface MemoryHistoryEntry {
  id: number
  memoryId: number
  action: MemoryHistoryAction
  reason: string
  /** The memory after the change (for a delete: as it was when deleted). */
  content: string
  category: MemoryCategory
  previousContent: string | null
  previousCategory: MemoryCategory | null
  sourceThreadId: string | null
  sourceMessageId: number | null
  createdAt: number
}

/** What `memory.create` / `messages.remember` did: a new memory, or an existing one updated. */
export interface MemoryChange {
  memory: Memory
  action: 'created' | 'updated' | 'unchanged'
  /** Why an existing memory was reused: same text, or a near-duplicate (cosine >= 0.92). */
  dedup: 'hash' | 'similar' | null
  /** For `similar`: the cosine to the memory it updated. */
  similarity: number | null
}

export interface MemoryListPage {
  items: Memory[]
  total: number
}

export interface MemorySourceMessage {
  threadId: string
  threadTitle: string
  /** Null when only the thread is known (the message was deleted). */
  messageId: number | null
  seq: number | null
  role: Role | null
  excerpt: string | null
  createdAt: number | null
}

export interface MemoryOrigin {
  memory: Memory
  /** Null when made in the memory manager, or when its thread was deleted. */
  source: MemorySourceMessage | null
  history: MemoryHistoryEntry[]
}

export type MemorySearchScope = 'thread' | 'all'

/**
 * One result of a hybrid search. `ref` is `memory:<id>` or `message:<id>`, the same id the
 * inspector's trace shows for a retrieved item.
 */
export interface MemorySearchHit {
  kind: 'memory' | 'message'
  ref: string
  id: number
  content: string
  /** Reciprocal-rank fusion of the vector and full-text ranks, scaled so 1 = first in both. */
  score: number
  /** Calibrated similarity (what `minSimilarity` is compared with); null without a vector. */
  similarity: number | null
  /** Raw cosine between the query and the item, in the model's space. */
  cosine: number | null
  matchedBy: ('vector' | 'text')[]
  category: MemoryCategory | null
  threadId: string | null
  threadTitle: string | null
  messageId: number | null
  seq: number | null
  role: Role | null
  createdAt: number
}

export interface MemorySearchResult {
  hits: MemorySearchHit[]
  /** `text_only` when no model is loaded or the query could not be embedded in time. */
  mode: 'hybrid' | 'text_only'
  warnings: string[]
  tookMs: number
}

export type EmbeddingModelState = 'idle' | 'loading' | 'downloading' | 'ready' | 'unavailable'

export interface MemoryStatus {
  model: {
    state: EmbeddingModelState
    id: string | null
    dimension: number | null
    /** Per file while downloading the model once. */
    progress: { file: string; loaded: number; total: number }[]
    error: string | null
  }
  /** Background indexing of every message and memory into the active vector space. */
  index: {
    pendingMessages: number
    pendingMemories: number
    /** Items that failed three times; they stay searchable by full text. */
    failed: number
    indexedMessages: number
    indexedMemories: number
    totalMessages: number
    totalMemories: number
    /** A model change is being re-embedded into a new space. */
    reembedding: boolean
  }
  /** Why recall is degraded, if it is (shown by the inspector). */
  warning: string | null
}

/** Where the model comes from on this machine (settings key `memory`). */
export interface MemorySettings {
  /** A models root holding `<model id>/config.json`...; null uses the defaults. */
  modelFolder: string | null
  /** Download the model once from the Hugging Face hub when no folder has it. */
  allowDownload: boolean
}
