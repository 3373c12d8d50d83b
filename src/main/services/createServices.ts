import { randomUUID } from 'node:crypto'
import { EngineRegistry } from '../context/engine/engineRegistry'
import { tokenCounterFor } from '../context/tokens/tokenCounter'
import { BuildRepository } from '../store/buildRepository'
import { EmbeddingQueueRepository } from '../store/embeddingQueueRepository'
import { MemoryRepository } from '../store/memoryRepository'
import { MessageOutlines } from '../store/messageOutline'
import { MessageRepository } from '../store/messageRepository'
import { RecallRepository } from '../store/search/recallRepository'
import { SearchRepository } from '../store/search/searchRepository'
import { SettingsRepository } from '../store/settingsRepository'
import { ThreadRepository } from '../store/threadRepository'
import { VectorStore } from '../store/vectors/vectorStore'
import { MessageService } from './chat/messageService'
import { TurnService } from './chat/turnService'
import { ModelResolver } from './providers/modelResolver'
import { SummaryRepository } from '../store/summaryRepository'
import { ForkRepository } from '../store/forkRepository'
import { SummaryService } from './summaries/summaryService'
import { ForkService } from './threads/forkService'
import { BackupService } from './backup/backupService'
import { backupsDirFor } from './backup/backupFiles'
import { CostReportService } from './providers/costReportService'
import { EncryptedSecretStore, type Cipher } from './providers/secretStore'
import { ProviderService } from './providers/providerService'
import { ContextBuildService } from './contextBuilds/contextBuildService'
import { ContextConfigService } from './contextBuilds/contextConfigService'
import { ThreadMessageCache } from './chat/threadMessageCache'
import { ServiceEvents, throttle } from './events'
import type { ServiceOptions, Services } from './serviceTypes'
import { AutomaticMemoryExtraction } from './memory/memoryExtraction'
import { providerMemoryExtractor } from './memory/providerMemoryExtractor'
import { MemoryIndexer } from './memory/memoryIndexer'
import { MemoryModelManager } from './memory/memoryModels'
import { memoryRecall } from './memory/memoryRecall'
import { MemoryService } from './memory/memoryService'
import { QueryRanker } from './memory/queryRanker'
import { SearchService } from './memory/searchService'
import { SettingsService } from './settingsService'
import { ThreadService } from './threads/threadService'
import { FileRepository } from '../store/fileRepository'
import { ChunkRelevance } from './files/chunkRelevance'
import { fileJobRunner } from './files/fileJobs'
import { FileService } from './files/fileService'
import { HistoryService } from './history/historyService'
import { markdownLocaleFor } from './history/markdownExport'
import { inProcessImportRunner } from '../workers/import/importRunner'
import { McpServerRepository } from '../store/mcpServerRepository'
import { ToolService } from './tools/toolService'
import { workerMessageSearch } from './memory/messageSearch'

/** Used when no Cipher is given: reports encryption as unavailable, so keys are refused. */
const NO_CIPHER: Cipher = {
  isAvailable: () => false,
  encrypt: () => {
    throw new Error('No encryption backend')
  },
  decrypt: () => {
    throw new Error('No encryption backend')
  }
}

/** memory:status is pushed at most this often while indexing runs. */
const STATUS_INTERVAL_MS = 500

/** Builds kept per thread for the inspector's history. */
const BUILD_HISTORY = 20

/** Threads whose messages stay in memory for fast previews (see ThreadMessageCache). */
const CACHED_THREADS = 4

/** The composition root shared by the Electron main process and the browser test harness. */
export function createServices({
  db,
  info,
  publish: emit,
  now = Date.now,
  log = (message, error) => console.error(`[services] ${message}`, error),
  memory: memorySearch,
  embeddings = null,
  indexing = {},
  cipher = NO_CIPHER,
  detectOllama,
  streamTimeouts,
  summaryMinTokens,
  fileWorkerPath = null,
  searchWorkers,
  pickFiles,
  history: historyOptions = {},
  backup = {},
  turnProbe,
  loginShellPath
}: ServiceOptions): Services {
  const recall = new RecallRepository(db)
  const vectors = new VectorStore(db)
  const queue = new EmbeddingQueueRepository(db)
  const publishStatus = throttle(() => {
    // A trailing update may fire after the store was closed at quit: nothing left to report.
    if (db.open) emit('memory:status', memoryService.status())
  }, STATUS_INTERVAL_MS)
  const memoryIndexer = new MemoryIndexer({
    queue,
    vectors,
    now,
    log,
    changed: publishStatus,
    // Load the vector index and run the model once at start-up, not on the first send.
    activated: (model) => void memoryService.warmUp(model),
    ...indexing
  })
  const events = new ServiceEvents(emit)
  // Stored messages wake the indexer; a deleted thread's queued embedding work is cancelled
  // (its vectors and queue rows went with its messages, by trigger).
  events.on('threads:changed', ({ threadId }) => {
    if (recall.threadExists(threadId)) memoryIndexer.wake()
    else memoryIndexer.cancelThread(threadId)
  })
  const publish = events.publish
  // One query-vector cache for memory, files and tools, keyed by vector space.
  const ranker = new QueryRanker()
  const memoryService = new MemoryService({
    memories: new MemoryRepository(db),
    recall,
    vectors,
    ranker,
    ...(searchWorkers && { messageSearch: workerMessageSearch(vectors, searchWorkers, log) }),
    queue,
    indexer: memoryIndexer,
    now,
    log,
    changed: (memoryId) => {
      emit('memory:changed', { memoryId })
      publishStatus()
    }
  })

  const threadRepository = new ThreadRepository(db)
  const messages = new MessageRepository(db)
  const settingsRepository = new SettingsRepository(db)
  const cache = new ThreadMessageCache(messages, new MessageOutlines(db), CACHED_THREADS)
  const settings = new SettingsService(settingsRepository)
  const threads = new ThreadService(threadRepository, { now, newId: randomUUID, publish })
  const providers = new ProviderService({
    settings: settingsRepository,
    secrets: new EncryptedSecretStore(cipher, settingsRepository),
    changed: (providerId) => {
      // Settled before the event, so the renderer's refresh reads the new default.
      settings.keepDefaultModel(providers.list())
      emit('providers:changed', { providerId })
    },
    ...(detectOllama && { detect: detectOllama })
  })
  // A store saved before the default was adopted (providers, but no default) answers too.
  settings.keepDefaultModel(providers.list())
  const summaryRepository = new SummaryRepository(db)
  const forkRepository = new ForkRepository(db)
  const summaries = new SummaryService({
    summaries: summaryRepository,
    cache,
    providers,
    publish,
    now,
    log,
    ...(summaryMinTokens !== undefined && { minTokens: summaryMinTokens })
  })
  const memoryModel = new MemoryModelManager({
    settings: settingsRepository,
    indexer: memoryIndexer,
    factory: embeddings,
    log
  })
  const memoryExtraction = new AutomaticMemoryExtraction({
    memory: memoryService,
    extractorFor: (target) => providerMemoryExtractor(providers, target),
    enabled: () => memoryModel.settings().autoExtract,
    previousReply: (message) => cache.previousReply(message),
    publish,
    log
  })
  const fileRepository = new FileRepository(db)
  const files = new FileService({
    files: fileRepository,
    relevance: new ChunkRelevance({
      files: fileRepository,
      model: () => memoryIndexer.active(),
      ranker,
      log,
      embedded: (hash) => {
        for (const threadId of fileRepository.threadsOf(hash)) emit('files:changed', { threadId })
      }
    }),
    runJob: fileWorkerPath ? fileJobRunner(fileWorkerPath) : null,
    requireThread: (threadId) => void threads.get(threadId),
    now,
    publish,
    log,
    pickFiles: pickFiles ?? null
  })
  const tools = new ToolService({
    servers: new McpServerRepository(db),
    settings: settingsRepository,
    threads: threadRepository,
    builtins: {
      search: (query, options) => memoryService.search(query, options),
      messages,
      threadTitle: (threadId) => threadRepository.get(threadId)?.title ?? null
    },
    publish,
    now,
    log,
    model: () => memoryIndexer.active(),
    ranker,
    loginShellPath
  })
  const models = new ModelResolver({
    threads,
    providers,
    defaultModel: () => settings.get().defaultModel
  })
  const contextConfig = new ContextConfigService({
    threads: threadRepository,
    settings: settingsRepository,
    chatModel: (threadId) => models.limitsFor(threadId)
  })
  const context = new ContextBuildService({
    messages,
    cache,
    config: contextConfig,
    builds: new BuildRepository(db, BUILD_HISTORY),
    engines: new EngineRegistry(),
    memory: memorySearch ?? memoryRecall(memoryService),
    systemPrompt: () => settings.get().systemPrompt,
    now,
    publish,
    summary: (threadId) => summaries.forBuild(threadId),
    attachments: (threadId, input, query) => files.forBuild(threadId, input, query),
    lineage: forkRepository,
    tools: (threadId, query) => tools.forBuild(threadId, query),
    ...(turnProbe && { probe: turnProbe })
  })
  const messageChanged = (threadId: string, seq: number) => summaries.messageChanged(threadId, seq)
  // An opened thread still loading behind the window, or a long paste still being counted,
  // when the store closes at quit fails on the closed store: nothing lost, nothing to report.
  const logWhileOpen = (message: string, error: unknown) => {
    if (db.open) log(message, error)
  }
  const messageService = new MessageService({
    messages,
    cache,
    threads,
    log: logWhileOpen,
    messageChanged,
    opened: (threadId, newest) => context.prepareRecall(threadId, newest)
  })
  const chat = new TurnService({
    messages,
    cache,
    threads,
    context,
    now,
    // Stored counts are o200k; a GPT-4o build reuses a paste's count (DraftCounts).
    tokens: tokenCounterFor('gpt-4o'),
    publish,
    log: logWhileOpen,
    providers,
    models,
    cacheTtl: () => settings.get().promptCacheTtl,
    afterTurn: (threadId, build, input, target) => {
      context.prepareRecall(threadId)
      summaries.afterTurn(threadId, build, input.seq, target)
      memoryExtraction.afterTurn(input, target)
    },
    tools,
    ...(streamTimeouts && { timeouts: streamTimeouts }),
    ...(turnProbe && { probe: turnProbe }),
    messageChanged,
    userMessageStored: (message) => files.claimDrafts(message.threadId, message.id)
  })
  const backupService = new BackupService({
    db,
    databasePath: info.databasePath,
    dir: backupsDirFor(info.databasePath),
    now,
    publish,
    ...backup
  })
  const history = new HistoryService({
    db,
    runImport: historyOptions.runImport ?? inProcessImportRunner(db, now),
    publish: emit,
    newId: randomUUID,
    log,
    pickImportFile: historyOptions.pickImportFile ?? (async () => null),
    pickExportFile: historyOptions.pickExportFile ?? (async () => null),
    // An import writes thousands of rows: a backup first, unless the caller brings its own hook.
    beforeImport:
      historyOptions.beforeImport ?? (() => backupService.backupNow('pre-import').then(() => {})),
    wakeIndexer: () => memoryIndexer.wake(),
    locale: () => markdownLocaleFor(settings.language(info.systemLocale)),
    now
  })
  const costs = new CostReportService({
    messages: (threadId) => messageService.list(threadId),
    builds: (threadId) => context.builds(threadId),
    prices: (providerId, modelId) =>
      providerId === null ? null : (providers.describeModel(providerId, modelId)?.model ?? null),
    replay: (threadId, message, patch) => context.replayTurn(threadId, message, patch),
    log
  })
  return {
    info,
    history,
    threads,
    context,
    contextConfig,
    memory: memoryService,
    memoryModel,
    memoryIndexer,
    memoryExtraction,
    chat,
    messages: messageService,
    models,
    providers,
    summaries,
    forks: new ForkService({
      threads: threadRepository,
      messages,
      summaries: summaryRepository,
      forks: forkRepository,
      now,
      newId: randomUUID,
      publish
    }),
    backup: backupService,
    tools,
    costs,
    search: new SearchService(new SearchRepository(db)),
    settings,
    files
  }
}
