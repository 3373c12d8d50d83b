/**
 * Export of one thread or all of them, as our lossless JSON (read back by ownFormat.ts) or as
 * readable Markdown, optionally with the exact requests that were sent (the stored builds).
 * Written thread by thread to a temporary file that replaces the target only when complete,
 * so a failed export never leaves half a file under the chosen name.
 */
import { open, rename, rm } from 'node:fs/promises'
import type Database from 'better-sqlite3'
import type { ExportFormat, ExportResult } from '@shared/history'
import { HistoryRepository } from '../../store/historyRepository'
import { schemaVersion } from '../../store/migrations'
import { markdownThread, type MarkdownLocale } from './markdownExport'
import {
  OWN_FORMAT,
  OWN_FORMAT_VERSION,
  type ExportedMemory,
  type ExportedThread
} from '../../workers/import/ownFormat'

export interface ExportOptions {
  format: ExportFormat
  /** One thread; all threads when absent. */
  threadId?: string
  withRequests?: boolean
  locale?: MarkdownLocale
  now?: () => number
}

export class ExportNotFoundError extends Error {}

export async function exportHistory(
  db: Database.Database,
  path: string,
  options: ExportOptions
): Promise<ExportResult> {
  const repository = new HistoryRepository(db)
  const threads = repository.exportThreads(options.threadId)
  if (options.threadId && threads.length === 0)
    throw new ExportNotFoundError(`No conversation with id ${options.threadId}`)
  const temporary = `${path}.partial-${process.pid}`
  const file = await open(temporary, 'w')
  let messages = 0
  try {
    const exportedAt = (options.now ?? Date.now)()
    if (options.format === 'json') {
      await file.write(
        `[\n${JSON.stringify({ format: OWN_FORMAT, version: OWN_FORMAT_VERSION, schema: schemaVersion(db), exportedAt, withRequests: !!options.withRequests })}`
      )
    }
    for (const thread of threads) {
      const list = repository.threadMessages(thread.id)
      messages += list.length
      const summary = repository.summary(thread.id)
      const builds = options.withRequests ? repository.builds(thread.id) : []
      if (options.format === 'md') {
        await file.write(
          markdownThread({ thread, messages: list, summary, builds }, options.locale ?? 'en')
        )
        continue
      }
      const element: ExportedThread = {
        type: 'thread',
        id: thread.id,
        title: thread.title,
        createdAt: thread.createdAt,
        updatedAt: thread.updatedAt,
        settings: thread.settings,
        forkedFrom:
          thread.forkedFromThreadId !== null
            ? { threadId: thread.forkedFromThreadId, seq: thread.forkedFromSeq ?? 0 }
            : null,
        summary: summary && {
          content: summary.content,
          lastMessageSeq: summary.lastMessageSeq,
          version: summary.version,
          source: summary.source,
          updatedAt: summary.updatedAt
        },
        messages: list.map((m) => ({
          id: m.id,
          seq: m.seq,
          role: m.role,
          content: m.content,
          toolCalls: m.toolCalls,
          toolCallId: m.toolCallId,
          tokenCount: m.tokenCount,
          createdAt: m.createdAt,
          pinned: m.pinned,
          excluded: m.excluded,
          ...(m.reply && { reply: m.reply })
        })),
        ...(options.withRequests && { builds })
      }
      await file.write(`,\n${JSON.stringify(element)}`)
    }
    if (options.format === 'json') {
      for (const memory of repository.exportMemories(options.threadId)) {
        const element: ExportedMemory = {
          type: 'memory',
          content: memory.content,
          category: memory.category,
          sourceThreadId: memory.sourceThreadId,
          sourceMessageId: memory.sourceMessageId,
          createdAt: memory.createdAt,
          updatedAt: memory.updatedAt,
          history: memory.history.map(({ id: _id, memoryId: _memory, ...entry }) => entry)
        }
        await file.write(`,\n${JSON.stringify(element)}`)
      }
      await file.write('\n]\n')
    }
    await file.close()
    await rename(temporary, path)
  } catch (error) {
    await file.close().catch(() => {})
    await rm(temporary, { force: true })
    throw error
  }
  return { path, threads: threads.length, messages }
}
