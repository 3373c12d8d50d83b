import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { AppInfo } from '@shared/domain'
import { EngineRegistry } from '../context/engine/engineRegistry'
import type { MemorySearch } from '../context/memorySearch'
import { o200kCounter } from '../context/tokenCounter'
import { BuildRepository } from '../store/buildRepository'
import { MessageRepository } from '../store/messageRepository'
import { SearchRepository } from '../store/searchRepository'
import { SettingsRepository } from '../store/settingsRepository'
import { ThreadRepository } from '../store/threadRepository'
import { ChatService } from './chatService'
import { ContextService } from './contextService'
import { ThreadMessageCache } from './threadMessageCache'
import type { Publish } from './events'
import { SearchService } from './searchService'
import { SettingsService } from './settingsService'
import { ThreadService } from './threadService'

export interface Services {
  info: AppInfo
  threads: ThreadService
  chat: ChatService
  context: ContextService
  search: SearchService
  settings: SettingsService
}

export interface ServiceOptions {
  db: Database.Database
  info: AppInfo
  publish: Publish
  now?: () => number
  log?: (message: string, error: unknown) => void
  /** Long-term memory arrives with the memory issue; until then the section has no candidates. */
  memory?: MemorySearch
}

/** Builds kept per thread for the inspector's history. */
const BUILD_HISTORY = 20

/** Threads whose messages stay in memory for fast previews (see ThreadMessageCache). */
const CACHED_THREADS = 4

const noLongTermMemory: MemorySearch = { search: async () => [] }

/** The composition root shared by the Electron main process and the browser test harness. */
export function createServices({
  db,
  info,
  publish,
  now = Date.now,
  log = (message, error) => console.error(`[services] ${message}`, error),
  memory = noLongTermMemory
}: ServiceOptions): Services {
  const threadRepository = new ThreadRepository(db)
  const messages = new MessageRepository(db)
  const settingsRepository = new SettingsRepository(db)
  const cache = new ThreadMessageCache(messages, CACHED_THREADS)
  const settings = new SettingsService(settingsRepository)
  const threads = new ThreadService(threadRepository, { now, newId: randomUUID, publish })
  const context = new ContextService({
    threads: threadRepository,
    messages,
    cache,
    settings: settingsRepository,
    builds: new BuildRepository(db, BUILD_HISTORY),
    engines: new EngineRegistry(),
    memory,
    systemPrompt: () => settings.get().systemPrompt,
    now,
    publish
  })
  return {
    info,
    threads,
    context,
    chat: new ChatService(messages, cache, threads, context, {
      now,
      tokens: o200kCounter,
      publish,
      log
    }),
    search: new SearchService(new SearchRepository(db)),
    settings
  }
}
