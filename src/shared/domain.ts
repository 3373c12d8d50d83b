/** Plain data shapes shared by main, preload and renderer. No behaviour lives here. */
import type { CostParts } from './costReport'
import type { MemoryWarning, StoredBuild, TokenStats } from './context'
import type { EmbeddingModelId } from './embeddingModelIds'
import type { ChatUsage, ModelRef, ProviderErrorInfo } from './providers'
import type { ThreadSettings } from './threadSettings'

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
  settings: ThreadSettings
}

export interface ThreadListItem extends Thread {
  messageCount: number
  lastMessagePreview: string | null
  /** What the sidebar's fill bar shows; comes with the list, so no row asks for it. */
  stats: ThreadStats
  /** Where this thread was branched from; null (or absent) for an original or a lost origin. */
  forkedFrom?: ForkOrigin | null
}

/** A fork's origin as the sidebar shows it: the thread and the last message copied. */
export interface ForkOrigin {
  threadId: string
  title: string
  seq: number
  /** The origin's message at the fork point; null if that message is gone. */
  messageId: number | null
  /** The start of that message. */
  excerpt: string | null
}

/** The newest stored build's per-section numbers (copied from its `tokenStats`). */
export interface BuildStats {
  buildId: number
  createdAt: number
  tokenStats: TokenStats
}

/** A thread's context at a glance: its last sent build, what its replies cost, its summary. */
export interface ThreadStats {
  lastBuild: BuildStats | null
  /** Sum of the replies' known costs (message_usage); null when none had a price. */
  cost: number | null
  /** Replies with provider usage but no known price (the cost then understates). */
  unpricedReplies: number
  /** When the thread's summary was last written; null before the first. */
  summaryUpdatedAt: number | null
}

export const EMPTY_THREAD_STATS: ThreadStats = {
  lastBuild: null,
  cost: null,
  unpricedReplies: 0,
  summaryUpdatedAt: null
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
  /** Kept out of summary rewrites (its facts are never folded into the thread summary). */
  summaryExempt?: boolean
  /** Set on assistant replies produced by a model: which one, how it ended, usage and cost. */
  reply?: ReplyInfo
}

/**
 * A page of a thread's messages, oldest first: the newest page when a thread opens, older
 * ones as the list scrolls up (`messages.list`).
 */
export interface MessagePage {
  messages: Message[]
  /** Whether the thread has messages before the first one here. */
  hasOlder: boolean
}

/**
 * complete: the model finished; stopped: the user pressed Stop; failed: an error cut it off;
 * empty: the model finished without any text (kept, shown with Retry, never sent back).
 */
export type ReplyStatus = 'complete' | 'stopped' | 'failed' | 'empty'

export interface ReplyInfo {
  providerId: string | null
  modelId: string
  status: ReplyStatus
  /** As the provider reported it; null when it reported none (stopped replies, some servers). */
  usage: ChatUsage | null
  /** US dollars; null when the model's price is unknown or there is no usage. */
  cost: number | null
  /** The build's prompt tokens as we counted them, to show next to the provider's figure. */
  estimatedPromptTokens: number | null
  finishReason: string | null
  /**
   * A later reply to the same user message replaced this one (regenerate), or, when the id is
   * a user message's, an edit of the message this answered (edit-and-resend); it is kept.
   */
  supersededBy: number | null
  /** `cost` by part at the prices of the day; absent on replies stored before it was kept. */
  costParts?: CostParts | null
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

/** A language the app speaks: the user's choice, or the system's mapped onto one of these. */
export type Language = Exclude<LocalePreference, 'system'>

/** Light or dark colours; 'system' follows the OS and changes with it. */
export type ThemePreference = 'system' | 'light' | 'dark'

/** Why a backup was taken; part of its file name. */
export type BackupReason = 'manual' | 'pre-migration' | 'pre-import'

/** A backup in the backups folder (services/backup). */
export interface BackupInfo {
  /** The file name; restore refers to a backup by it. */
  name: string
  reason: BackupReason
  createdAt: number
  bytes: number
}

/** Pushed while an online backup copies pages. */
export interface BackupProgress {
  name: string
  totalPages: number
  remainingPages: number
}

/** A restore that passed its checks: the app reopens on the restored file. */
export interface RestoreOutcome {
  restoredFrom: string
  /** Where the database as it was before the restore was kept (renamed, not deleted). */
  keptAt: string
  threads: number
  messages: number
}

export interface AppSettings {
  locale: LocalePreference
  inspectorOpen: boolean
  /** The system section of every build. */
  systemPrompt: string
  /** The model new threads (and threads without their own) chat with; null = none chosen. */
  defaultModel: ModelRef | null
  /** Anthropic prompt-cache TTL. */
  promptCacheTtl: '5m' | '1h'
  theme: ThemePreference
}

export interface AppInfo {
  version: string
  systemLocale: string
  databasePath: string
  /** Set when the store had to be recovered from a corrupt file at start-up. */
  recoveredFromBackup: string | null
  /** What salvage copied from that file and what it could not read (absent: no salvage). */
  salvage?: SalvageReport | null
}

/** Rows of one table after salvage (store/salvage.ts). */
export interface SalvagedTable {
  table: string
  copied: number
  /** Rows in pages SQLite could not read. */
  unreadable: number
  /** Rows that were read but are no longer valid (a broken value), so were left out. */
  invalid: number
  /** Neither the table's edges nor any index could be read: how much was lost is unknown. */
  unknownLoss: boolean
}

export interface SalvageReport {
  /** The file's first bytes were damaged and were rewritten in the copy that was read. */
  headerRepaired: boolean
  /** False when not even the list of tables could be read: nothing was salvaged. */
  schemaReadable: boolean
  tables: SalvagedTable[]
  /** Conversations whose own row was lost but whose messages were saved, under a new title. */
  threadsRecreated: number
}

/**
 * What `messages.send` did. The user's message is always stored first.
 * - `no_model_configured`: neither the thread nor the default names a provider and model.
 * - `streaming`: the reply streams in the background as `chat:delta` events with `streamId`,
 *   then `chat:done` (the stored reply) or `chat:error`.
 * - `build_failed`: a model is configured but the request could not be built (`buildError`).
 */
export type SendOutcome =
  | {
      message: Message
      status: 'no_model_configured'
      /** The request that would be sent, as the inspector shows it; null if building failed. */
      build: StoredBuild | null
      /** Why there is no build; the message is stored regardless. */
      buildError: string | null
    }
  | {
      message: Message
      status: 'streaming'
      streamId: string
      model: ModelRef
      build: StoredBuild
      buildError: null
    }
  | {
      message: Message
      status: 'build_failed'
      model: ModelRef
      build: null
      buildError: string
    }

/** One text chunk of a streaming reply. */
export interface ChatDelta {
  threadId: string
  /** The `streamId` of the send (or regenerate) that started it. */
  messageId: string
  delta: string
}

export interface ChatDone {
  threadId: string
  streamId: string
  /** The stored assistant message, with `reply` (usage, cost, status). */
  message: Message
}

export interface ChatErrorEvent {
  threadId: string
  streamId: string
  error: ProviderErrorInfo
  /** The partial reply stored before the error, if any text had arrived. */
  message: Message | null
}

/** A context-length error made the service rebuild with a smaller budget and retry once. */
export interface ChatRetry {
  threadId: string
  streamId: string
  reason: 'context_length'
  /** The budget of the retried build, in tokens. */
  budget: number
  build: StoredBuild
}

/** A thread's stored summary (the builder's summary section). */
export interface ThreadSummaryView {
  threadId: string
  content: string
  /** Messages with seq <= this are represented by the summary, not sent verbatim. */
  lastMessageSeq: number
  /** 1 for the first summary, +1 for every update (by the model, the fallback or the user). */
  version: number
  /** `fallback`: the extractive summary, written without a model; `user`: edited by hand. */
  source: 'model' | 'fallback' | 'user'
  updatedAt: number
  /**
   * The oldest covered message that was edited or excluded after this version was written:
   * the summary may state what is no longer true, and an update is scheduled. Null when current.
   */
  staleSinceSeq?: number | null
}

// ---- Long-term memory -----------------------------------------------------------------------

export const MEMORY_CATEGORIES = ['user_preference', 'fact', 'task', 'other'] as const
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number]

/** A curated memory: something the user asked to keep, or a preference extracted after a turn. */
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

/** What automatic extraction saved from one user message (new or deduplicated memories). */
export interface MemoryExtracted {
  threadId: string
  messageId: number
  changes: MemoryChange[]
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
  /** A long message's characters after `content`, which search did not read. */
  omittedChars?: number
  /**
   * Reciprocal-rank fusion of the vector and full-text ranks, scaled so 1 = first in both. A
   * gated search's memories take their kind's scores in order of relevance (searchHits.ts).
   */
  score: number
  /** Calibrated similarity (what `minSimilarity` is compared with); null without a vector. */
  similarity: number | null
  /** Raw cosine between the query and the item, in the model's space. */
  cosine: number | null
  /**
   * `vector` / `text`: the list that supports it. `nearest`: in the vector list under the
   * floor, returned after every supported hit to fill a large budget. `neighbour`: the turn
   * before or after a recalled message.
   */
  matchedBy: ('vector' | 'text' | 'nearest' | 'neighbour')[]
  category: MemoryCategory | null
  /** A gated build's relevance (services/memory/relevanceGate.ts); absent otherwise. */
  relevance?: number
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
  warnings: MemoryWarning[]
  tookMs: number
  /**
   * Where the time went, from the search's start: the input's vector and the conversation's
   * (embedded in the worker one after the other, while this thread reads the full-text list
   * and then the input's vector lists), the full-text list, the vector lists.
   */
  timings?: { embedMs: number; contextEmbedMs: number; textMs: number; vectorMs: number }
  /**
   * A gated build's search: the relevance each kind needed (null with full text only, where
   * the text rule decides), how many passed, and the best of the rest with the gate they
   * missed, best first.
   */
  gate?: {
    gates: { memory: number; thread: number; message: number } | null
    passed: number
    rejected: { hit: MemorySearchHit; gate: number; overLimit?: number; overTokens?: number }[]
    /** The names the question asks about that no candidate mentions: they raised other threads' bar. */
    absentNames: string[]
    /** This conversation's best message for the input, when it raised other threads' bar. */
    conversationBest: number | null
    /**
     * The question asks about the user, so another thread's message counted by who wrote it:
     * the user's own turns `own` more relevant, assistant replies `reply` less (relevanceGate.ts);
     * null when no other thread's message was a candidate.
     */
    aboutTheUser: { own: number; reply: number } | null
  }
}

type EmbeddingModelState = 'idle' | 'loading' | 'downloading' | 'ready' | 'unavailable'

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
    /** Items embedded per second over the last batches; null before any were. */
    itemsPerSecond: number | null
    /** Pending items at that rate; null while it is unknown or nothing is pending. */
    secondsLeft: number | null
  }
  /** Why recall is degraded, if it is (shown by the inspector). */
  warning: MemoryWarning | null
}

/** Where the model comes from on this machine (settings key `memory`). */
export interface MemorySettings {
  /** A models root holding `<model id>/config.json`...; null uses the defaults. */
  modelFolder: string | null
  /** Which sentence-embedding model; switching re-embeds. */
  embeddingModel: EmbeddingModelId
  /** Download the model once from the Hugging Face hub when no folder has it. */
  allowDownload: boolean
  /**
   * A mirror of the Hugging Face hub with the same layout (e.g. https://hf-mirror.com), for
   * places the hub is slow or blocked; null or absent uses the hub (or HF_ENDPOINT).
   */
  modelMirror?: string | null
  /**
   * After each turn, the thread's model reads the user's message and saves lasting preferences
   * and facts (one short extra request per turn, to the provider that answered).
   */
  autoExtract: boolean
  /**
   * Workers that embed messages and memories in the background, one core each; null: half the
   * cores, at least one. Capped at the machine's cores (shared/indexingThreads.ts).
   */
  indexingThreads?: number | null
}
