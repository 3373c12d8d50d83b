import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { AppInfo } from '@shared/domain'
import { o200kCounter } from '../context/tokenCounter'
import { MessageRepository } from '../store/messageRepository'
import { SearchRepository } from '../store/searchRepository'
import { SettingsRepository } from '../store/settingsRepository'
import { ThreadRepository } from '../store/threadRepository'
import { ChatService } from './chatService'
import type { Publish } from './events'
import { SearchService } from './searchService'
import { SettingsService } from './settingsService'
import { ThreadService } from './threadService'

export interface Services {
  info: AppInfo
  threads: ThreadService
  chat: ChatService
  search: SearchService
  settings: SettingsService
}

export interface ServiceOptions {
  db: Database.Database
  info: AppInfo
  publish: Publish
  now?: () => number
}

/** The composition root shared by the Electron main process and the browser test harness. */
export function createServices({ db, info, publish, now = Date.now }: ServiceOptions): Services {
  const threads = new ThreadService(new ThreadRepository(db), { now, newId: randomUUID, publish })
  return {
    info,
    threads,
    chat: new ChatService(new MessageRepository(db), threads, {
      now,
      tokens: o200kCounter,
      publish
    }),
    search: new SearchService(new SearchRepository(db)),
    settings: new SettingsService(new SettingsRepository(db))
  }
}
