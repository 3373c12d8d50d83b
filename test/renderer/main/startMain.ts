/**
 * The real main process for renderer tests: the services over a SQLite file in a temp folder
 * and the handler registry in front of them, with direct access to the store for setup.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { ContextConfigPatch } from '@shared/contextConfig'
import { tokenCounterFor } from '../../../src/main/context/tokens/tokenCounter'
import { createHandlers } from '../../../src/main/ipc/handlers'
import { createRegistry } from '../../../src/main/ipc/registry'
import { BuildRepository } from '../../../src/main/store/buildRepository'
import { openDatabase } from '../../../src/main/store/database'
import { MemoryRepository } from '../../../src/main/store/memoryRepository'
import { MessageRepository } from '../../../src/main/store/messageRepository'
import { SettingsRepository } from '../../../src/main/store/settingsRepository'
import { SummaryRepository } from '../../../src/main/store/summaryRepository'
import { ThreadRepository } from '../../../src/main/store/threadRepository'
import { servicesIn, steppingClock } from '../../support/services'
import { aesCipher } from '../../support/testCipher'
import type { MainOptions, MainProcess } from '../support/mainProcess'

/** 2025-01-15 09:00 UTC, a millisecond further at every reading: times read "Jan 15". */
const BASE_TIME = Date.UTC(2025, 0, 15, 9, 0, 0)

/** A store migrated once per test file (migrating takes about 50 ms); each test gets a copy. */
let templateDir: string | null = null

function freshStore(): string {
  if (templateDir === null) {
    templateDir = mkdtempSync(join(tmpdir(), 'context-lens-template-'))
    openDatabase(join(templateDir, 'store.sqlite')).close()
  }
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-renderer-'))
  copyFileSync(join(templateDir, 'store.sqlite'), join(dir, 'store.sqlite'))
  return dir
}

/** Removes the file's template once its tests are done (register.ts). */
export function removeTemplate(): void {
  if (templateDir !== null) rmSync(templateDir, { recursive: true, force: true })
  templateDir = null
}

export function startMain(options: MainOptions): MainProcess {
  const dir = freshStore()
  const cipher = aesCipher()
  const now = steppingClock(BASE_TIME)
  const { db, services } = servicesIn(dir, now, undefined, {
    cipher: { ...cipher, isAvailable: options.encryptionAvailable },
    detectOllama: async () => options.ollama(),
    listen: options.listen
  })
  const registry = createRegistry(createHandlers(services), (channel, error) =>
    console.error(`[main] ${channel} failed`, error)
  )
  const threads = new ThreadRepository(db)
  const messages = new MessageRepository(db)
  const settings = new SettingsRepository(db)
  const summaries = new SummaryRepository(db)
  const memories = new MemoryRepository(db)
  const builds = new BuildRepository(db, Number.MAX_SAFE_INTEGER)
  const counter = tokenCounterFor('gpt-4o')
  const stored = (threadId: string, role: 'user' | 'assistant', content: string) => ({
    threadId,
    role,
    content,
    tokenCount: counter.count(content),
    createdAt: now()
  })

  return {
    invoke: (channel, input) => registry.invoke(channel, input),
    settings: () => services.settings.get(),
    providers: () => services.providers.list(),
    info: services.info,
    close() {
      db.close()
      rmSync(dir, { recursive: true, force: true })
    },
    store: {
      addThread: (title, { updatedAt = now() } = {}) =>
        threads.create({ id: randomUUID(), title, now: updatedAt, settings: {} }),
      addMessages: (threadId, contents) =>
        db.transaction(() =>
          contents.map((content) => messages.append(stored(threadId, 'user', content)))
        )(),
      addReply: (threadId, content, reply = {}) =>
        messages.appendReply(stored(threadId, 'assistant', content), {
          providerId: 'p1',
          modelId: 'scripted-model',
          status: 'complete',
          usage: null,
          cost: null,
          estimatedPromptTokens: null,
          finishReason: 'stop',
          supersededBy: null,
          ...reply
        }),
      supersede: (id, by) => void messages.supersede(id, by),
      messagesOf: (threadId) => messages.listByThread(threadId),
      buildsOf: (threadId) => builds.list(threadId).reverse(),
      globalConfig: () => (settings.get('context') as ContextConfigPatch | undefined) ?? {},
      threadConfig: (threadId) => threads.get(threadId)?.settings.context ?? {},
      setThreadConfig: (threadId, patch) => threads.updateSettings(threadId, { context: patch }),
      addProvider: (input) => services.providers.create(input),
      summaryOf: (threadId) => summaries.get(threadId),
      setSummary(summary) {
        db.prepare(
          `INSERT OR REPLACE INTO thread_summaries
           (thread_id, content, last_message_seq, version, source, updated_at, stale_since_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?)`
        ).run(
          summary.threadId,
          summary.content,
          summary.lastMessageSeq,
          summary.version,
          summary.source,
          summary.updatedAt,
          summary.staleSinceSeq ?? null
        )
      },
      memoryOf: (id) => memories.get(id),
      memories: () => memories.list({ limit: Number.MAX_SAFE_INTEGER, offset: 0 }).items
    }
  }
}
