import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry, type HandlerRegistry } from '../../src/main/ipc/registry'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { servicesIn, steppingClock, type TestServices } from './services'

export interface PopulatedStore {
  path: string
  /** Every stored message's content by id, as written. */
  messages: Map<number, string>
  threadIds: string[]
  memories: string[]
}

/**
 * A store written the way the app writes it (through the real registry): three threads of
 * long messages, so the messages table spans many pages, plus memories and a setting.
 * The file is closed (checkpointed) when this returns.
 */
export async function populatedStore(dir: string, messagesPerThread = 60): Promise<PopulatedStore> {
  const test = servicesIn(dir, steppingClock())
  const registry = createRegistry(createHandlers(test.services))
  const threadIds: string[] = []
  for (const title of ['Trip planning', '数据库恢复', 'Recipes']) {
    threadIds.push(unwrap<{ id: string }>(await registry.invoke('threads:create', { title })).id)
  }
  // Most messages through the repository (a full send also builds and stores a context,
  // which would make these files slow to write), the last ones through the registry.
  const repository = new MessageRepository(test.db)
  for (let i = 0; i < messagesPerThread; i++) {
    for (const [t, threadId] of threadIds.entries()) {
      const content = `message ${t}-${i} ` + `${i} 数据 words to fill the page `.repeat(12)
      if (i < messagesPerThread - 1) {
        repository.append({
          threadId,
          role: 'user',
          content,
          tokenCount: 90,
          createdAt: 1_700_000_000_000 + i
        })
      } else {
        unwrap(await registry.invoke('messages:send', { threadId, content }))
      }
    }
  }
  const memories = ['Prefers window seats', '住在上海', 'Allergic to peanuts']
  for (const content of memories) await registry.invoke('memory:create', { content })
  await registry.invoke('settings:update', { systemPrompt: 'Answer briefly.' })
  const messages = new Map<number, string>(
    (
      test.db.prepare('SELECT id, content FROM messages').all() as { id: number; content: string }[]
    ).map((row) => [row.id, row.content])
  )
  test.db.close()
  return { path: join(dir, 'store.sqlite'), messages, threadIds, memories }
}

export function unwrap<T>(result: Awaited<ReturnType<HandlerRegistry['invoke']>>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.data as T
}

export function registryOver(
  test: TestServices,
  onUnexpected?: (channel: string, error: unknown) => void
): HandlerRegistry {
  return createRegistry(createHandlers(test.services), onUnexpected)
}

/** Leaf pages of a table's b-tree, in page order (SQLite's dbstat table). */
export function leafPages(path: string, table: string): { pages: number[]; pageSize: number } {
  const db = new Database(path, { readonly: true })
  try {
    const pages = db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno")
      .pluck()
      .all(table) as number[]
    return { pages, pageSize: db.pragma('page_size', { simple: true }) as number }
  } finally {
    db.close()
  }
}

/** Overwrites bytes of the file in place, as a failing disk or a stray write would. */
export function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, bytes, 0, bytes.length, offset)
  } finally {
    closeSync(fd)
  }
}

export function zeroPage(path: string, pageno: number, pageSize: number): void {
  overwrite(path, (pageno - 1) * pageSize, Buffer.alloc(pageSize))
}

export function storedMessages(path: string): Map<number, string> {
  const db = new Database(path, { readonly: true })
  try {
    return new Map(
      (
        db.prepare('SELECT id, content FROM messages').all() as { id: number; content: string }[]
      ).map((row) => [row.id, row.content])
    )
  } finally {
    db.close()
  }
}
