/** What the composition root (createServices.ts) takes and what it gives. */
import type Database from 'better-sqlite3'
import type { AppInfo } from '@shared/domain'
import type { MemorySearch } from '../context/recall/memorySearch'
import type { ImportRunner } from '../workers/import/importRunner'
import type { SearchWorkers } from '../workers/search/searchWorkerClient'
import type { BackupService, BackupServiceDeps } from './backup/backupService'
import type { ModelResolver } from './providers/modelResolver'
import type { MessageService } from './chat/messageService'
import type { TurnService } from './chat/turnService'
import type { ContextBuildService } from './contextBuilds/contextBuildService'
import type { ContextConfigService } from './contextBuilds/contextConfigService'
import type { CostReportService } from './providers/costReportService'
import type { Publish } from './events'
import type { FileService } from './files/fileService'
import type { ForkService } from './threads/forkService'
import type { HistoryService } from './history/historyService'
import type { AutomaticMemoryExtraction } from './memory/memoryExtraction'
import type { MemoryIndexer } from './memory/memoryIndexer'
import type { EmbedderFactory, MemoryModelManager } from './memory/memoryModels'
import type { MemoryService } from './memory/memoryService'
import type { StreamTimeouts } from './providers/modelClient'
import type { OllamaDetection } from './providers/ollamaDetector'
import type { ProviderService } from './providers/providerService'
import type { Cipher } from './providers/secretStore'
import type { SearchService } from './memory/searchService'
import type { SettingsService } from './settingsService'
import type { SummaryService } from './summaries/summaryService'
import type { ThreadService } from './threads/threadService'
import type { ToolService } from './tools/toolService'
import type { TurnProbe } from './chat/turnProbe'

export interface Services {
  info: AppInfo
  threads: ThreadService
  /** The turn: send, edit-and-resend, regenerate, stop. */
  chat: TurnService
  /** Stored messages outside the turn: pages, lookups, usage totals, flags. */
  messages: MessageService
  /** Which model answers a thread. */
  models: ModelResolver
  /** Builds: previews, each turn's request, the stored builds. */
  context: ContextBuildService
  /** The context configuration's layers and the token corrections usage calibrates. */
  contextConfig: ContextConfigService
  search: SearchService
  settings: SettingsService
  /** Thread summaries, updated in the background after turns. */
  summaries: SummaryService
  /** Each reply's cost explained, the thread's total and the what-if without cache-aware order. */
  costs: CostReportService
  /** Model providers (keys encrypted with the Cipher) and the connection test. */
  providers: ProviderService
  /** Long-term memory: curated memories and hybrid recall over every message. */
  memory: MemoryService
  /** The embedding model and background indexing; `start()` once, `stop()` at quit. */
  memoryModel: MemoryModelManager
  memoryIndexer: MemoryIndexer
  /** After a turn, the thread's model saves preferences and facts from the user's message. */
  memoryExtraction: AutomaticMemoryExtraction
  /** Files attached to messages and threads (content-addressed, chunked, embedded). */
  files: FileService
  /** Import (ChatGPT, Claude, our own JSON) and export (JSON, Markdown). */
  history: HistoryService
  /** "Branch from here": a new thread with the history up to a message. */
  forks: ForkService
  /** Online backups (manual, before migrations and imports) and restore. */
  backup: BackupService
  /** MCP servers, thread tools, approvals; `startEnabled()` once, `stopAll()` at quit. */
  tools: ToolService
}

export interface ServiceOptions {
  db: Database.Database
  info: AppInfo
  publish: Publish
  now?: () => number
  log?: (message: string, error: unknown) => void
  /**
   * Replaces the retrieved section's search (tests use fakes). By default it is the memory
   * service's hybrid recall.
   */
  memory?: MemorySearch
  /** Starts the embedding worker for the memory settings; without it recall is full text only. */
  embeddings?: EmbedderFactory | null
  /** Background indexing tuning (tests poll faster). */
  indexing?: { batchSize?: number; idleMs?: number }
  /**
   * Encrypts API keys at rest: Electron's safeStorage in the app, an AES-GCM test cipher in
   * tests. Without one, keys are refused (never stored in plaintext).
   */
  cipher?: Cipher
  /** Replaces Ollama detection on 127.0.0.1 (tests point it at a scripted server). */
  detectOllama?: () => Promise<OllamaDetection>
  /** Stall limits for streamed replies (tests shorten them). */
  streamTimeouts?: Partial<StreamTimeouts>
  /** Tokens of unsummarized history outside the window that trigger a summary update. */
  summaryMinTokens?: number
  /** The built file worker (out/main/fileWorker.js): PDFs and chunking; without it PDFs are refused. */
  fileWorkerPath?: string | null
  /**
   * Memory search's workers (workers/search/searchWorker.ts: the nearest messages
   * and the full-text lists), which the caller starts and closes; without them both are read
   * on this thread.
   */
  searchWorkers?: SearchWorkers
  /** The system's open-file dialog (Electron's); absent in tests and the browser harness. */
  pickFiles?: () => Promise<string[] | null>
  /**
   * Import and export: the file dialogs (main's in the app, a fixed path in tests), where
   * imports run (a worker thread in the app; in process by default), and a hook run before an
   * import writes anything (the backup).
   */
  history?: {
    pickImportFile?: () => Promise<string | null>
    pickExportFile?: (suggestedName: string) => Promise<string | null>
    runImport?: ImportRunner
    beforeImport?: () => Promise<void>
  }
  /**
   * How a restore reopens the store (index.ts relaunches, the e2e harness reopens), the file
   * dialog it picks from, and the backups folder (default: `backups/` beside the database).
   */
  backup?: Partial<
    Pick<BackupServiceDeps, 'dir' | 'keep' | 'nativeBinding' | 'reopen' | 'pickFile' | 'check'>
  >
  /** The moments of each turn, for the whole-turn benchmark (none in the app). */
  turnProbe?: TurnProbe
  /** The login shell's PATH for MCP servers, read once at start-up (tools/loginShellPath.ts). */
  loginShellPath?: Promise<string | null>
}
