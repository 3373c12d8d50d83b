/**
 * The one IPC contract. Every channel maps to a zod schema for its request and a type for its
 * result; every event main pushes maps to its payload type. Main's handler registry, the
 * preload bridge and the renderer are all typed from this object, so adding a channel means:
 * one entry here, one handler in src/main/ipc, and the caller.
 */
import { z } from 'zod'
import type { BuiltContext, StoredBuild } from './context'
import { ContextConfigPatchSchema, type ContextConfigView } from './contextConfig'
import {
  MEMORY_CATEGORIES,
  type AppInfo,
  type AppSettings,
  type BackupInfo,
  type BackupProgress,
  type RestoreOutcome,
  type ChatDelta,
  type ChatDone,
  type ChatErrorEvent,
  type ChatRetry,
  type Memory,
  type MemoryChange,
  type MemoryExtracted,
  type MemoryListPage,
  type MemoryOrigin,
  type MemorySearchResult,
  type MemorySettings,
  type MemoryStatus,
  type Message,
  type MessagePage,
  type SearchHit,
  type SendOutcome,
  type Thread,
  type ThreadListItem,
  type ThreadSummaryView
} from './domain'
import {
  ProviderInputSchema,
  ProviderPatchSchema,
  type ConnectionTestResult,
  type OllamaDetection,
  type ProviderCatalogView,
  type ProviderView,
  type UsageTotals
} from './providers'
import {
  MAX_FOCUS_CHARS,
  type SummaryAutomationStatus,
  type SummaryComparison,
  type SummaryCompressResult,
  type SummaryVersionView
} from './summaryCompression'
import type { ThreadCostReport } from './costReport'
import { EMBEDDING_MODEL_IDS } from './embeddingModelIds'
import { MAX_INDEXING_THREADS } from './indexingThreads'
import { MAX_FILE_BYTES, type AttachOutcome, type AttachmentView, type PickOutcome } from './files'
import type { ExportOutcome, ImportDone, ImportProgress, StartImportResult } from './history'
import {
  McpServerInputSchema,
  McpServerPatchSchema,
  ToolKeySchema,
  type ApprovalDecision,
  type McpServerView,
  type ThreadToolView,
  type ToolApprovalRequest,
  type ToolStepEvent
} from './tools'

/** An endpoint's result type is carried as a phantom; only the input needs a runtime schema. */
const endpoint =
  <Output>() =>
  <Input extends z.ZodType>(input: Input) => ({ input, output: undefined as unknown as Output })

const event = <Payload>() => undefined as unknown as Payload

const NoInput = z.undefined()
const ThreadId = z.uuid({ message: 'Not a valid thread id' })
const MessageId = z.number().int().positive()
const Seq = z.number().int().positive()
/** Messages per page of `messages.list`. */
const MAX_PAGE_SIZE = 500
const Title = z
  .string()
  .trim()
  .min(1, { message: 'Title cannot be empty' })
  .max(200, { message: 'Title is longer than 200 characters' })

/** Generous, but bounded so one paste cannot exhaust memory in the main process. */
export const MAX_MESSAGE_CHARS = 2_000_000

const ProviderId = z.string().trim().min(1).max(200)
const ModelId = z.string().trim().min(1).max(200)
const ModelRefSchema = z.strictObject({ providerId: ProviderId, modelId: ModelId })

const MemoryId = z.number().int().positive()
const MemoryCategory = z.enum(MEMORY_CATEGORIES)
const MemoryContent = z
  .string()
  .trim()
  .min(1, { message: 'A memory cannot be empty' })
  .max(10_000, { message: 'A memory is longer than 10,000 characters' })
/** Search text with nothing but spaces and control characters (NUL...) is empty. */
const SearchText = z
  .string()
  .trim()
  .max(500, { message: 'Search text is longer than 500 characters' })
  .refine((text) => /[^\s\p{Cc}]/u.test(text), { message: 'Search text is empty' })

const MessageContent = z
  .string()
  .max(MAX_MESSAGE_CHARS, { message: `Message is longer than ${MAX_MESSAGE_CHARS} characters` })
  .refine((text) => text.trim().length > 0, { message: 'Message is empty' })

const AttachmentScope = z.enum(['message', 'thread'])
/** Base64 of a file up to twice the limit: main refuses oversized files by name, with the limit. */
const MAX_FILE_BASE64 = Math.ceil((MAX_FILE_BYTES * 2 * 4) / 3)

export const contract = {
  app: {
    info: endpoint<AppInfo>()(NoInput)
  },
  settings: {
    get: endpoint<AppSettings>()(NoInput),
    update: endpoint<AppSettings>()(
      z.strictObject({
        locale: z.enum(['system', 'en', 'zh-CN']).optional(),
        inspectorOpen: z.boolean().optional(),
        systemPrompt: z
          .string()
          .max(100_000, { message: 'System prompt is longer than 100,000 characters' })
          .optional(),
        defaultModel: ModelRefSchema.nullable().optional(),
        promptCacheTtl: z.enum(['5m', '1h']).optional(),
        theme: z.enum(['system', 'light', 'dark']).optional()
      })
    )
  },
  threads: {
    list: endpoint<ThreadListItem[]>()(NoInput),
    create: endpoint<Thread>()(z.strictObject({ title: Title.optional() }).optional()),
    rename: endpoint<Thread>()(z.strictObject({ id: ThreadId, title: Title })),
    delete: endpoint<{ deleted: true }>()(z.strictObject({ id: ThreadId })),
    /** The thread's provider and model (null on both clears it: the default applies again). */
    setModel: endpoint<Thread>()(
      z.strictObject({
        threadId: ThreadId,
        providerId: ProviderId.nullable(),
        modelId: ModelId.nullable()
      })
    ),
    /** "Branch from here": a new thread with the history up to and including the message. */
    fork: endpoint<Thread>()(z.strictObject({ messageId: MessageId }))
  },
  providers: {
    /** Configured providers, never with keys: `hasApiKey` and a masked `apiKeyHint`. */
    list: endpoint<ProviderView[]>()(NoInput),
    /** The built-in table of well-known models (window, max output, prices) and its date. */
    catalog: endpoint<ProviderCatalogView>()(NoInput),
    create: endpoint<ProviderView>()(ProviderInputSchema),
    update: endpoint<ProviderView>()(
      z.strictObject({ id: ProviderId, patch: ProviderPatchSchema })
    ),
    remove: endpoint<{ removed: true }>()(z.strictObject({ id: ProviderId })),
    /** A saved provider (`id`) or an unsaved form (`draft`); optionally one model. */
    test: endpoint<ConnectionTestResult>()(
      z.union([
        z.strictObject({ id: ProviderId, modelId: ModelId.optional() }),
        z.strictObject({ draft: ProviderInputSchema, modelId: ModelId.optional() })
      ])
    ),
    listRemoteModels: endpoint<string[]>()(z.strictObject({ id: ProviderId })),
    /** Whether API keys can be stored (encrypted) on this system. */
    encryptionStatus: endpoint<{ available: boolean }>()(NoInput),
    detectOllama: endpoint<OllamaDetection>()(NoInput)
  },
  chat: {
    /** The thread's usage and cost over its model replies (superseded ones included). */
    usage: endpoint<UsageTotals>()(z.strictObject({ threadId: ThreadId })),
    /** Aborts the thread's streaming reply; the partial text is stored, marked `stopped`. */
    stop: endpoint<{ stopped: boolean }>()(z.strictObject({ threadId: ThreadId })),
    /**
     * A new reply to the thread's last user message; earlier replies to it are kept, marked
     * superseded (and excluded from later requests).
     */
    regenerate: endpoint<{ streamId: string; build: StoredBuild }>()(
      z.strictObject({ threadId: ThreadId })
    ),
    /**
     * Each reply's cost by part and where its prefix broke, and the thread total; with `whatIf`
     * also the cost without cache-aware ordering (rebuilds up to 40 turns, so only on request).
     */
    costReport: endpoint<ThreadCostReport>()(
      z.strictObject({ threadId: ThreadId, whatIf: z.boolean().optional() })
    )
  },
  messages: {
    /**
     * A page of the thread, opened at its end: the newest `limit` messages (before `beforeSeq`
     * when scrolling up), or every message from `fromSeq` on (a refresh of what is loaded, or
     * a jump to an older message).
     */
    list: endpoint<MessagePage>()(
      z
        .strictObject({
          threadId: ThreadId,
          beforeSeq: Seq.optional(),
          fromSeq: Seq.optional(),
          limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional()
        })
        .refine((input) => input.beforeSeq === undefined || input.fromSeq === undefined, {
          message: 'Ask for a page before a message or from one, not both',
          path: ['fromSeq']
        })
    ),
    send: endpoint<SendOutcome>()(z.strictObject({ threadId: ThreadId, content: MessageContent })),
    /**
     * Edit-and-resend: the edited text becomes a NEW user message (the original is kept,
     * excluded from later requests together with the replies after it), then sends as usual.
     */
    editResend: endpoint<SendOutcome>()(z.strictObject({ id: MessageId, content: MessageContent })),
    setFlags: endpoint<Message>()(
      z.strictObject({
        id: MessageId,
        pinned: z.boolean().optional(),
        excluded: z.boolean().optional(),
        /** Kept out of summary rewrites; exempting a covered message makes the summary stale. */
        summaryExempt: z.boolean().optional()
      })
    ),
    /** "Remember this": the message's text becomes a memory linked to it (deduplicated). */
    remember: endpoint<MemoryChange>()(
      z.strictObject({ id: MessageId, category: MemoryCategory.optional() })
    ),
    /** Where a message lives, so a message recalled from another thread can be opened there. */
    locate: endpoint<{ threadId: string; seq: number }>()(z.strictObject({ id: MessageId }))
  },
  context: {
    /** The build the draft would get; called as the user types. `whatIf` is not saved. */
    preview: endpoint<BuiltContext>()(
      z.strictObject({
        threadId: ThreadId,
        draft: z.string().max(MAX_MESSAGE_CHARS, {
          message: `Draft is longer than ${MAX_MESSAGE_CHARS} characters`
        }),
        whatIf: ContextConfigPatchSchema.optional()
      })
    ),
    /** The builds that were sent in this thread, newest first. */
    builds: endpoint<StoredBuild[]>()(z.strictObject({ threadId: ThreadId })),
    getConfig: endpoint<ContextConfigView>()(z.strictObject({ threadId: ThreadId.optional() })),
    updateConfig: endpoint<ContextConfigView>()(
      z
        .strictObject({
          scope: z.enum(['global', 'thread']),
          threadId: ThreadId.optional(),
          patch: ContextConfigPatchSchema
        })
        .refine((input) => input.scope === 'global' || input.threadId !== undefined, {
          message: 'A thread setting needs threadId',
          path: ['threadId']
        })
    )
  },
  summary: {
    /** The thread's stored summary (the builder's summary section); null before the first. */
    get: endpoint<ThreadSummaryView | null>()(z.strictObject({ threadId: ThreadId })),
    /** The user's edit; it keeps what the summary covers and becomes the next version. */
    update: endpoint<ThreadSummaryView>()(
      z.strictObject({
        threadId: ThreadId,
        content: z.string().max(100_000, { message: 'A summary is longer than 100,000 characters' })
      })
    ),
    /**
     * "/compress [focus]": folds the messages before the protected tail into the summary now
     * (iteratively, the focus topic getting most of it). Messages are kept; only what is sent
     * changes. The new summary is also published as `summary:changed`.
     */
    compress: endpoint<SummaryCompressResult>()(
      z.strictObject({
        threadId: ThreadId,
        focusTopic: z
          .string()
          .trim()
          .max(MAX_FOCUS_CHARS, {
            message: `A focus topic is longer than ${MAX_FOCUS_CHARS} characters`
          })
          .optional()
      })
    ),
    /** Every stored version of the thread's summary, newest first. */
    versions: endpoint<SummaryVersionView[]>()(z.strictObject({ threadId: ThreadId })),
    /** One version beside what it replaced (the previous version and the folded messages). */
    compare: endpoint<SummaryComparison>()(
      z.strictObject({ threadId: ThreadId, version: z.number().int().positive() })
    ),
    /** Makes an older version the newest one again; the history keeps every version. */
    restore: endpoint<ThreadSummaryView>()(
      z.strictObject({ threadId: ThreadId, version: z.number().int().positive() })
    ),
    /** Whether automatic summaries run (or stopped after failures), and whether one is due. */
    status: endpoint<SummaryAutomationStatus>()(z.strictObject({ threadId: ThreadId })),
    /** Resumes automatic summaries after they stopped, and runs one now when due. */
    retry: endpoint<SummaryAutomationStatus>()(z.strictObject({ threadId: ThreadId }))
  },
  memory: {
    /** The memory manager's list: newest activity first, by category and/or substring. */
    list: endpoint<MemoryListPage>()(
      z
        .strictObject({
          category: MemoryCategory.optional(),
          query: z.string().max(500).optional(),
          limit: z.number().int().min(1).max(500).optional(),
          offset: z.number().int().min(0).optional()
        })
        .optional()
    ),
    /** Same text or a near-duplicate (cosine >= 0.92) updates the existing memory instead. */
    create: endpoint<MemoryChange>()(
      z.strictObject({
        content: MemoryContent,
        category: MemoryCategory.optional(),
        sourceMessageId: MessageId.optional()
      })
    ),
    update: endpoint<Memory>()(
      z
        .strictObject({
          id: MemoryId,
          content: MemoryContent.optional(),
          category: MemoryCategory.optional()
        })
        .refine((input) => input.content !== undefined || input.category !== undefined, {
          message: 'Nothing to change'
        })
    ),
    /** Undo with `restore({id})`: the history keeps the deleted memory. */
    delete: endpoint<{ deleted: true; id: number }>()(z.strictObject({ id: MemoryId })),
    restore: endpoint<Memory>()(z.strictObject({ id: MemoryId })),
    /** Where a memory came from (its source message, if it still exists) and its history. */
    origin: endpoint<MemoryOrigin>()(z.strictObject({ id: MemoryId })),
    /** Hybrid recall (vector KNN + full text, fused): memories and messages of every thread. */
    search: endpoint<MemorySearchResult>()(
      z.strictObject({
        query: SearchText,
        limit: z.number().int().min(1).max(100).optional(),
        minSimilarity: z.number().min(0).max(1).optional(),
        categories: z.array(MemoryCategory).max(4).optional(),
        scope: z.enum(['thread', 'all']).optional(),
        threadId: ThreadId.optional(),
        kinds: z
          .array(z.enum(['memory', 'message']))
          .min(1)
          .max(2)
          .optional()
      })
    ),
    /** The model's state (download progress), indexing progress, and any degradation. */
    status: endpoint<MemoryStatus>()(NoInput),
    getSettings: endpoint<MemorySettings>()(NoInput),
    /** Changing the model folder loads the new model; a different model re-embeds everything. */
    updateSettings: endpoint<MemorySettings>()(
      z.strictObject({
        modelFolder: z.string().trim().min(1).max(4096).nullable().optional(),
        allowDownload: z.boolean().optional(),
        modelMirror: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .nullable()
          .optional(),
        autoExtract: z.boolean().optional(),
        embeddingModel: z.enum(EMBEDDING_MODEL_IDS).optional(),
        indexingThreads: z.number().int().min(1).max(MAX_INDEXING_THREADS).nullable().optional()
      })
    )
  },
  files: {
    /** A dropped or pasted file's bytes (base64); refusals come back as outcomes, by name. */
    attach: endpoint<AttachOutcome>()(
      z.strictObject({
        threadId: ThreadId,
        scope: AttachmentScope,
        name: z.string().trim().min(1).max(255),
        mime: z.string().max(200).nullable().optional(),
        data: z
          .string()
          .max(MAX_FILE_BASE64, { message: 'File is too large' })
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'File data is not base64' })
      })
    ),
    /** Opens the system's file dialog in main and attaches what the user picks. */
    pick: endpoint<PickOutcome>()(z.strictObject({ threadId: ThreadId, scope: AttachmentScope })),
    /** The thread's files: composer drafts, thread files and those sent with messages. */
    list: endpoint<AttachmentView[]>()(z.strictObject({ threadId: ThreadId })),
    /** Removes a draft or thread file (a sent message keeps its files). */
    remove: endpoint<{ removed: true }>()(z.strictObject({ id: z.uuid() }))
  },
  history: {
    /** Main asks for the file (never a path from the page) and imports it in the background. */
    import: endpoint<StartImportResult>()(
      z.strictObject({ withBranches: z.boolean().optional() }).optional()
    ),
    cancelImport: endpoint<{ cancelled: boolean }>()(z.strictObject({ importId: z.uuid() })),
    /** One thread, or all when threadId is absent; main asks where to save. */
    export: endpoint<ExportOutcome>()(
      z.strictObject({
        format: z.enum(['json', 'md']),
        threadId: ThreadId.optional(),
        withRequests: z.boolean().optional()
      })
    )
  },
  backup: {
    /** The backups folder, newest first. */
    list: endpoint<BackupInfo[]>()(NoInput),
    /** An online backup now, while the app runs; progress comes as `backup:progress`. */
    create: endpoint<BackupInfo>()(NoInput),
    /** Checks the listed backup, keeps the current database aside, swaps and reopens. */
    restore: endpoint<RestoreOutcome>()(z.strictObject({ name: z.string().min(1).max(255) })),
    /** The same for a file the user picks in main's dialog; null when cancelled. */
    restoreFile: endpoint<RestoreOutcome | null>()(NoInput)
  },
  tools: {
    /** MCP servers with their status, last error and tools. */
    listServers: endpoint<McpServerView[]>()(NoInput),
    /** Starts it at once when `enabled`; a failed start shows as its status, not as an error. */
    addServer: endpoint<McpServerView>()(McpServerInputSchema),
    updateServer: endpoint<McpServerView>()(
      z.strictObject({ id: z.uuid(), patch: McpServerPatchSchema })
    ),
    removeServer: endpoint<{ removed: true }>()(z.strictObject({ id: z.uuid() })),
    restartServer: endpoint<McpServerView>()(z.strictObject({ id: z.uuid() })),
    /** Every available tool (built-in and running servers') and whether the thread exposes it. */
    threadTools: endpoint<ThreadToolView[]>()(z.strictObject({ threadId: ThreadId })),
    setThreadTools: endpoint<ThreadToolView[]>()(
      z.strictObject({ threadId: ThreadId, keys: z.array(ToolKeySchema).max(1000) })
    ),
    setAlwaysAllowed: endpoint<{ ok: true }>()(
      z.strictObject({ key: ToolKeySchema, allowed: z.boolean() })
    ),
    /** Calls of the thread waiting for approval (after a reload, say). */
    pending: endpoint<ToolApprovalRequest[]>()(z.strictObject({ threadId: ThreadId })),
    /** The user's answer to a waiting call; `settled: false` when nothing waits under that id. */
    approve: endpoint<{ settled: boolean }>()(
      z.strictObject({
        threadId: ThreadId,
        callId: z.string().min(1).max(200),
        decision: z.enum(['once', 'always', 'deny'])
      })
    ),
    /** A stored tool result word for word (what the compressor may have shortened when sent). */
    output: endpoint<Message>()(z.strictObject({ messageId: MessageId }))
  },
  search: {
    query: endpoint<SearchHit[]>()(
      z.strictObject({
        query: SearchText,
        limit: z.number().int().min(1).max(200).optional()
      })
    )
  }
} as const

export const events = {
  /** A thread was created, renamed, deleted or received a message. */
  'threads:changed': event<{ threadId: string }>(),
  /** A message was sent: the exact request, for the inspector. */
  'context:built': event<StoredBuild>(),
  /** Model loading/download progress and background indexing progress (throttled). */
  'memory:status': event<MemoryStatus>(),
  /** A memory was created, updated, deleted or restored. */
  'memory:changed': event<{ memoryId: number }>(),
  /** After a turn, the thread's model found preferences or facts in the user's message. */
  'memory:extracted': event<MemoryExtracted>(),
  /** A provider was created, updated or removed. */
  'providers:changed': event<{ providerId: string }>(),
  /** One text chunk of a streaming reply (`messageId` is the send's `streamId`). */
  'chat:delta': event<ChatDelta>(),
  /** The reply finished and is stored (with usage and cost). */
  'chat:done': event<ChatDone>(),
  /** The reply failed (or was stopped: kind `aborted`); the partial text, if any, is stored. */
  'chat:error': event<ChatErrorEvent>(),
  /** The provider said the prompt was too long; rebuilt smaller and retried once. */
  'chat:retry': event<ChatRetry>(),
  /** A thread's summary was updated (in the background after a turn, or by the user). */
  'summary:changed': event<ThreadSummaryView>(),
  /** A thread's files changed: attached, removed, sent with a message, or embedded. */
  'files:changed': event<{ threadId: string }>(),
  /** An import's progress (throttled): conversations, messages, bytes read. */
  'history:progress': event<ImportProgress>(),
  /** An import ended (done, cancelled or stopped on malformed input), with its summary. */
  'history:done': event<ImportDone>(),
  /** An online backup copied another step of pages. */
  'backup:progress': event<BackupProgress>(),
  /** An MCP server was added, changed, removed, started or stopped. */
  'tools:changed': event<{ serverId: string }>(),
  /** A tool call waits for the user's consent. */
  'tools:approval': event<ToolApprovalRequest>(),
  /** A waiting call was answered (or Stop cancelled it). */
  'tools:approvalSettled': event<{
    threadId: string
    callId: string
    decision: ApprovalDecision
  }>(),
  /** The tool loop stored a step: the model's calls, or one tool's result. */
  'tools:step': event<ToolStepEvent>(),
  /** Automatic summaries of a thread started, finished, failed, stopped or became due. */
  'summary:status': event<SummaryAutomationStatus>()
} as const

type Contract = typeof contract
export type Domain = keyof Contract
export type Method<D extends Domain> = keyof Contract[D] & string
export type Endpoint<D extends Domain, M extends Method<D>> = Contract[D][M] extends {
  input: infer I
  output: infer O
}
  ? { input: I; output: O }
  : never
export type InputOf<D extends Domain, M extends Method<D>> = z.input<
  Endpoint<D, M>['input'] & z.ZodType
>
export type OutputOf<D extends Domain, M extends Method<D>> = Endpoint<D, M>['output']

export type EventName = keyof typeof events
export type EventPayload<E extends EventName> = (typeof events)[E]

const channelOf = (domain: string, method: string): string => `${domain}:${method}`

/** Every (domain, method) pair, for code that wires all channels at once. */
export const endpoints = (): { domain: Domain; method: string; channel: string }[] =>
  (Object.keys(contract) as Domain[]).flatMap((domain) =>
    Object.keys(contract[domain]).map((method) => ({
      domain,
      method,
      channel: channelOf(domain, method)
    }))
  )
