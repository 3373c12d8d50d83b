/**
 * The builder's input and output. `BuiltContext` is plain JSON data: the same object is sent
 * to the provider (its `messages`) and over IPC to the inspector, so what the panel shows is
 * what was sent. It lives in src/shared because the renderer's inspector reads it too.
 */
import type { MemoryCategory, Role, ToolCall } from '@shared/domain'
import type { RecallScope } from '@shared/contextConfig'

export const SECTIONS = [
  'system',
  'summary',
  'retrieved',
  'recent',
  'input',
  'pinning',
  'attachments',
  'tools'
] as const
export type SectionName = (typeof SECTIONS)[number]

/** How the recent window moves once the thread outgrows it (docs/CONTEXT.md, "The window"). */
export type WindowPolicy = 'chunked' | 'sliding'

/**
 * Requests over this share of the model's window are shrunk before sending (windowSafetyNet);
 * here because the chat's gauge warns before it acts.
 */
export const SAFETY_SHARE = 0.85

/**
 * The total budget when the user set none: the window less the reply, and never over the
 * safety net's share of the window. The window less the reply alone (123,904 of gpt-4o's
 * 128,000) was over the net's 108,800: a default the app itself would cut whenever the
 * sections filled it, building twice and saying "rebuilt smaller" about a budget nobody set.
 * Here because the inspector shows it as the automatic total.
 */
export function defaultTotalBudget(window: number, outputReserve: number): number {
  return Math.max(0, Math.min(window - outputReserve, Math.floor(window * SAFETY_SHARE)))
}

/** A stored message as the builder reads it; the domain `Message` satisfies this shape. */
export interface ContextMessage {
  id: string | number
  seq: number
  role: Role
  content: string
  toolCalls: readonly ToolCall[] | null
  toolCallId: string | null
  /** Cached at insert with `countMessageTokens`; the builder never recounts it. */
  tokenCount: number
  pinned: boolean
  excluded: boolean
}

export interface ThreadSummary {
  content: string
  /** Messages with seq <= this are represented by the summary, not sent verbatim. */
  lastMessageSeq: number
}

/** A long-term memory or a recalled older message, as a `MemorySearch` returns it. */
export interface MemoryCandidate {
  id: string
  content: string
  /** Relevance, higher is better (cosine similarity, fused rank score, ...). */
  score: number
  /** Where it came from, in English for logs and the CLI: "memory · fact", "fts", ... */
  source?: string
  /** The same as fields, for the inspector to say in the user's language and link to. */
  origin?: RetrievedOrigin
  /** Set when the candidate is a stored message, so it is not sent twice. */
  messageId?: string | number
  /** How relevant the search judged it, on the scale of the relevance gate (0-1). */
  relevance?: number
}

/**
 * A retrieved item's source: a curated memory, or a message recalled from this thread (older
 * than the window) or from another one, named by its title.
 */
export type RetrievedOrigin =
  | { kind: 'memory'; category: MemoryCategory }
  | { kind: 'message'; seq: number | null; threadTitle: string | null; otherThread?: boolean }

/** A candidate the relevance gate turned away, for the inspector to say why. */
export interface RejectedCandidate {
  id: string
  relevance: number
  /** Its kind's gate in this build: the bar it missed, unless `overLimit` says otherwise. */
  gate: number
  /** It passed the gate, but its kind's limit in this build was this many and it came later. */
  overLimit?: number
  /** It passed the gate, but what passed before it used its kind's allowance of tokens. */
  overTokens?: number
  preview: string
  origin?: RetrievedOrigin
}

/**
 * What recall did for one build: where it looked, the gate a candidate had to pass, and the
 * best of those that did not. The builder copies it into `BuiltContext.recall`.
 */
export interface RecallReport {
  scope: RecallScope
  /** The opt-in "fill spare budget" mode ran (nearest items under the gate, neighbours). */
  fillSpare: boolean
  /**
   * The relevance a memory, a message of this thread and one of another thread needed in this
   * build (each kind's bar, or its best match less a margin when that is higher); null when
   * none applied (full text only).
   */
  gates: { memory: number; thread: number; message: number } | null
  /** Candidates that passed the gate, before the budget placed them. */
  passed: number
  /** The best candidates under the gate, best first. */
  rejected: RejectedCandidate[]
  /**
   * Names the question asks about that no candidate mentions, which raised other threads' bar
   * (services/memory/relevanceGate.ts); absent when there were none, and in older builds.
   */
  absentNames?: string[]
  /**
   * In a running conversation, the relevance of this thread's own best message to the input
   * when it raised other threads' bar to itself (services/memory/relevanceGate.ts); absent
   * otherwise, and in older builds.
   */
  conversationBest?: number
  /**
   * The question asks about the user, so other threads' messages counted by who wrote them:
   * the user's own `own` more relevant, assistant replies `reply` less, and replies did not come
   * along with the user's turns (services/memory/relevanceGate.ts); absent when no other
   * thread's message was a candidate, and in older builds.
   */
  aboutTheUser?: { own: number; reply: number }
}

type TaskStatus = 'active' | 'done' | 'replaced'

export interface TaskGoal {
  text: string
  /** The message that stated it; null when it came from the unsent input. */
  seq: number | null
  status: TaskStatus
}

/** A thread's goals as `ActiveTaskTracker` keeps them; JSON the service stores per thread. */
export interface ActiveTaskState {
  /** Oldest first, at most five. */
  goals: TaskGoal[]
}

export interface BuildRequest {
  systemPrompt: string
  summary: ThreadSummary | null
  memories: readonly MemoryCandidate[]
  /**
   * The thread ordered by seq: the whole thread or any suffix that starts at or before the
   * summary boundary. The builder walks it from the end and stops early, so a long array
   * costs nothing beyond the messages it inspects.
   */
  messages: readonly ContextMessage[]
  /**
   * The thread's pinned messages ordered by seq (an index query in the store). When absent
   * the builder finds them with one scan of `messages`.
   */
  pinned?: readonly ContextMessage[]
  /**
   * The indexes in `messages` of its empty replies, ascending, when the caller keeps them (the
   * thread cache does, as messages arrive). When absent the builder finds them with one scan
   * of `messages` after the summary, which reads every message's text.
   */
  emptyReplies?: readonly number[]
  /** The user's current input (the draft, for previews). */
  input: string
  /**
   * The input's count when the caller made it already (off the main thread's critical path,
   * or estimated while typing), so the builder does not count a huge paste again.
   */
  inputCount?: TokenCount
  /** The thread's active-task state, kept by the service with `ActiveTaskTracker`. */
  taskState?: ActiveTaskState
  /** Degradations upstream of the build (memory search timed out, summary unreadable). */
  warnings?: readonly BuildWarning[]
  /** What recall did (scope, gate, rejected candidates); absent when nothing searched. */
  recall?: RecallReport
  /** Files attached to the input's message or to the thread (services/files prepares them). */
  attachments?: readonly AttachmentInput[]
  /** Tool schemas the thread exposes (built-in and MCP), before the builder chooses. */
  tools?: readonly ToolInput[]
}

/** A file's extracted text as the builder reads it. */
export interface AttachmentInput {
  /** The stored attachment's id, or the CLI document's id; trace ids are `attachment:<id>#<chunk>`. */
  id: string
  name: string
  mime: string | null
  /** The whole extracted text. */
  content: string
  /**
   * Structure-aware chunks in document order, when the service has them, with their relevance
   * to the input and recent turns from the memory model. Without them the builder chunks
   * `content` itself and ranks by word overlap.
   */
  chunks?: readonly AttachmentChunk[]
}

interface AttachmentChunk {
  index: number
  text: string
  /** 1-based, inclusive line range of the chunk in the file's text. */
  startLine: number
  endLine: number
  /** Cosine similarity to the query; null when the chunk could not be embedded. */
  relevance: number | null
}

/** A tool as the provider receives it; trace ids are `tool:<name>`. */
export interface ToolInput {
  name: string
  description: string
  /** The arguments' JSON Schema. */
  parameters: Record<string, unknown>
  /** Relevance to the input and recent turns; null when not embedded. */
  relevance?: number | null
  /** 'builtin' or the id of the MCP server that lists it. */
  source?: string
}

/**
 * How a text was counted: `exact` BPE, BPE with long runs without breaks cut into chunks
 * (`chunked`, within about 0.3 % of exact), the character-class `estimate`, or BPE at its
 * beginning and end with the middle extrapolated (`ends`: a paste far over the model's window,
 * of which only the ends are sent).
 */
export type CountMethod = 'exact' | 'chunked' | 'estimate' | 'ends'

export interface TokenCount {
  tokens: number
  method: CountMethod
}

/** What the provider receives, in order. */
export interface ProviderMessage {
  role: Role
  content: string
  toolCalls?: ToolCall[]
  toolCallId?: string
}

export type Decision =
  | 'included'
  | 'dropped_budget'
  | 'excluded_by_user'
  | 'pinned'
  | 'covered_by_summary'
  | 'duplicate'
  /** A model reply with no text and no tool calls: kept in the thread, never sent back. */
  | 'empty_reply'

type TraceKind =
  'message' | 'memory' | 'summary' | 'system' | 'input' | 'pinning' | 'attachment' | 'tool'

/** An attachment chunk's place in its file, on its trace entry. */
interface TraceAttachment {
  attachmentId: string
  name: string
  chunkIndex: number
  /** How many chunks the file was cut into; 1 when it is sent (or dropped) whole. */
  chunkCount: number
  /** 1-based, inclusive line range in the file's text. */
  startLine: number
  endLine: number
}

/** One candidate item and what the build did with it. */
export interface TraceEntry {
  /** The input's id for messages and memories; "system", "summary", "input", "pinning". */
  id: string
  kind: TraceKind
  section: SectionName
  /** What the item costs (or would have cost) in the request, framing included. */
  tokens: number
  decision: Decision
  seq?: number
  role?: Role
  score?: number
  source?: string
  /** A retrieved item's source as fields (see MemoryCandidate.origin). */
  origin?: RetrievedOrigin
  /** A retrieved item's relevance, on the gate's scale (see RecallReport.gate). */
  relevance?: number
  /** The first characters of a memory, which the renderer has no other copy of. */
  preview?: string
  /** Why, when the decision alone does not say it ("truncated", "tool-call group of 41"). */
  note?: string
  /** The input's entry: how its tokens were counted. */
  counting?: CountMethod
  /** An attachment chunk's entry (id `attachment:<id>#<chunkIndex>`): where it sits. */
  attachment?: TraceAttachment
  /** A tool's entry (id `tool:<name>`): 'builtin' or the MCP server that lists it. */
  toolSource?: string
}

/**
 * Older messages that the trace does not list one by one (only in long threads): a count per
 * decision over a seq range. Counts are by position: a range of `dropped_budget` may hold
 * messages the user also excluded.
 */
export interface CollapsedRange {
  decision: 'dropped_budget' | 'covered_by_summary'
  fromSeq: number
  toSeq: number
  count: number
}

export interface SectionStats {
  /** The section's percentage of the total. */
  share: number
  /** The most it could use: its share, plus budget other sections left unused, minus what
   * mandatory items reclaimed. Unused budget is offered on in order, so budgets overlap. */
  budget: number
  used: number
  items: number
}

export interface TokenStats {
  sections: Record<SectionName, SectionStats>
  /** Sum of the sections' `used`: the request's prompt tokens as we count them. */
  total: number
  /** The total budget the percentages divide. */
  budget: number
  /**
   * Budget nothing used: no section had relevant material for it (budget − total, at least 0).
   * A shorter request is the normal outcome, not a failure to fill.
   */
  free?: number
  contextWindow: number
  outputReserve: number
}

export type WarningCode =
  | 'system_truncated'
  | 'summary_truncated'
  | 'input_over_budget'
  | 'pinned_over_budget'
  | 'pinning_dropped'
  | 'context_window_exceeded'
  | 'request_shrunk'
  | 'input_trimmed'
  | 'orphan_tool_result'
  | 'unanswered_tool_call'
  | 'estimated_tokens'
  | 'unknown_model'
  | 'engine_fallback'
  | 'upstream'
  | 'input_estimated'
  | 'input_chunked'
  | 'attachments_dropped'
  | 'tools_dropped'
  /** Attached files whose chunks have no vectors yet: ranked by word overlap (`files` names them). */
  | 'attachments_not_embedded'

/** A code the renderer can translate, and an English sentence for logs and the CLI. */
export interface BuildWarning {
  code: WarningCode
  message: string
  /** An `upstream` warning from memory search: what happened, in fields the UI can translate. */
  memory?: MemoryWarning
  /** The files an `attachments_not_embedded` warning is about. */
  files?: string[]
}

/**
 * Why memory search matched words only (the model is missing, loading, downloading, broken or
 * indexing; the query could not be embedded in time), meaning only (the full-text lists did
 * not come in time or failed), or did not run for this build.
 */
type MemoryWarningCode =
  | 'no_model'
  | 'loading'
  | 'downloading'
  | 'unavailable'
  | 'indexing'
  | 'embed_slow'
  | 'embed_failed'
  | 'text_slow'
  | 'text_failed'
  | 'search_timeout'
  | 'search_failed'

export interface MemoryWarning {
  code: MemoryWarningCode
  /** The same in English, for logs and the CLI. */
  message: string
  /** The error behind `unavailable`, `embed_failed`, `text_failed` and `search_failed`. */
  reason?: string
  /** The limit that `embed_slow`, `text_slow` and `search_timeout` ran into. */
  ms?: number
}

export interface BuildMetadata {
  engine: string
  model: string
  encoding: string
  includedMessageCount: number
  droppedMessageCount: number
  summarizedMessageCount: number
  usedSummary: boolean
  /** Items the retrieved section placed: memories and recalled messages (the name predates them). */
  retrievedMemoryCount: number
  warnings: BuildWarning[]
}

/** Where the recent window starts and which leading messages repeat the previous request. */
interface WindowReport {
  policy: WindowPolicy
  /** Seq of the oldest history message sent verbatim by the window; null when none is. */
  firstKeptSeq: number | null
  /**
   * How many of `messages`, from the start, form the stable prefix: system prompt, summary and
   * the history the window keeps. They stay byte-identical from turn to turn until the window
   * cuts or the summary changes; cache markers go at its end (promptCache.ts).
   */
  stablePrefixMessages: number
}

/** The retrieved section split by where its items came from, and what recall did. */
export interface RecallSummary extends RecallReport {
  memories: { items: number; tokens: number }
  /** Messages recalled from this thread (older than the window) and from other threads. */
  thisThread: { items: number; tokens: number }
  otherThreads: { items: number; tokens: number }
}

export interface BuiltContext {
  messages: ProviderMessage[]
  /** The tools the provider receives, in the order it receives them; empty when none. */
  tools: ToolInput[]
  tokenStats: TokenStats
  metadata: BuildMetadata
  trace: TraceEntry[]
  collapsed: CollapsedRange[]
  window: WindowReport
  /** Absent in builds stored before issue #17, and when recall did not run. */
  recall?: RecallSummary
}

/** Zero stats for a section, so builds stored before it existed still read whole. */
export function withEverySection(
  sections: Partial<Record<SectionName, SectionStats>>
): Record<SectionName, SectionStats> {
  const full = {} as Record<SectionName, SectionStats>
  for (const section of SECTIONS) {
    full[section] = sections[section] ?? { share: 0, budget: 0, used: 0, items: 0 }
  }
  return full
}

/** A build that was sent, as the inspector's history lists it. */
export interface StoredBuild {
  id: number
  threadId: string
  /** The user message the build answered; null once that message is gone. */
  messageId: number | null
  createdAt: number
  context: BuiltContext
}

/**
 * A stored build as this version reads it: builds saved before the attachments and tools
 * sections and the window report existed get empty ones, so every reader sees one shape.
 */
export function withCurrentShape(context: BuiltContext): BuiltContext {
  const stored = context as Partial<BuiltContext> & Pick<BuiltContext, 'tokenStats'>
  return {
    ...context,
    tools: stored.tools ?? [],
    window: stored.window ?? { policy: 'sliding', firstKeptSeq: null, stablePrefixMessages: 0 },
    tokenStats:
      typeof context.tokenStats?.sections === 'object'
        ? { ...context.tokenStats, sections: withEverySection(context.tokenStats.sections) }
        : context.tokenStats
  }
}
