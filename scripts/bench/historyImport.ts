/**
 * Import of a synthetic ChatGPT export (scripts/bench/syntheticExport.ts) as the app runs it:
 * the import worker on its own connection, main relaying progress, while main also stores a
 * chat message every 50 ms on its connection (what a user chatting during an import does).
 * Measured: wall and CPU time to store and full-text index every message, peak RSS of the
 * process (main and worker) while streaming, main's event-loop stall, and how long main's
 * chat writes took meanwhile.
 *
 * Baseline, in the same run: the same kind of messages stored the way a chat stores them
 * (counted, then one transaction per message on main), for a sample of them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { yieldToEventLoop } from '@shared/eventLoop'
import { tokenCounterFor } from '../../src/main/context/tokens/tokenCounter'
import { workerImportRunner } from '../../src/main/workers/import/workerImportRunner'
import { openDatabase } from '../../src/main/store/database'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { SearchRepository } from '../../src/main/store/search/searchRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { syntheticConversation, writeSyntheticExport } from './syntheticExport'

interface Spread {
  p50: number
  p99: number
  max: number
}

/**
 * Records main's event-loop delay, peak RSS, and the time of a chat write every 50 ms until
 * the returned function is called.
 */
function observeMain(write: (text: string) => void) {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  const writes: number[] = []
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
    const start = performance.now()
    write(String(writes.length))
    writes.push(performance.now() - start)
  }, 50)
  histogram.enable()
  return () => {
    histogram.disable()
    clearInterval(sampler)
    const sorted = [...writes].sort((a, b) => a - b)
    const toMs = (ns: number) => ns / 1e6
    return {
      peakRss,
      stall: {
        p50: toMs(histogram.percentile(50)),
        p99: toMs(histogram.percentile(99)),
        max: toMs(histogram.max)
      },
      writes: {
        count: writes.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0
      }
    }
  }
}

export interface HistoryImportFigures {
  conversations: number
  messages: number
  fileMb: number
  wallMs: number
  cpuMs: number
  messagesPerSecond: number
  peakRssMb: number
  stall: Spread
  chatWrites: Spread & { count: number }
  /** The same observation before the import, with nothing else running in this process. */
  idle: { stall: Spread; chatWrites: Spread & { count: number } }
  /** A word of the last conversation, found by full-text search right after the import. */
  searchable: boolean
  queuedForEmbedding: number
  baseline: { messages: number; messagesPerSecond: number; stallP99: number }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number)

export async function historyImportFigures(
  workerPath: string,
  quick: boolean
): Promise<HistoryImportFigures> {
  const size = { conversations: quick ? 500 : 5000, messagesPerConversation: 20 }
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-import-'))
  try {
    const file = join(dir, 'conversations.json')
    const bytes = writeSyntheticExport(file, size)
    const databasePath = join(dir, 'store.sqlite')
    const db = openDatabase(databasePath)
    const threads = new ThreadRepository(db)
    const messages = new MessageRepository(db)
    const chat = threads.create({ id: 'bench-chat', title: 'chat', now: Date.now(), settings: {} })
    const counter = tokenCounterFor('gpt-4o')

    const chatWhile = (label: string) =>
      observeMain((text) =>
        messages.append({
          threadId: chat.id,
          role: 'user',
          content: `${label} ${text}`,
          tokenCount: counter.count(text),
          createdAt: Date.now()
        })
      )
    // The same observation with nothing else running: what this machine's load alone costs.
    const idle = chatWhile('idle')
    await new Promise((resolve) => setTimeout(resolve, quick ? 2000 : 5000))
    const idleFigures = idle()
    const observing = chatWhile('while importing')
    const cpu = process.cpuUsage()
    const started = performance.now()
    const summary = await workerImportRunner({ workerPath, databasePath })(
      { path: file, withBranches: false },
      { progress: () => {}, cancelled: () => false }
    )
    const wallMs = performance.now() - started
    const used = process.cpuUsage(cpu)
    const during = observing()
    if (summary.error) throw new Error(`bench import failed: ${summary.error}`)
    const last = syntheticConversation(size.conversations - 1, size)
    const lastText =
      (last.mapping.m3?.message as { content: { parts: string[] } }).content.parts[0] ?? ''
    const searchable = new SearchRepository(db).search(lastText.slice(0, 40), 5).length > 0
    const queued = db
      .prepare("SELECT count(*) FROM embedding_queue WHERE kind = 'message'")
      .pluck()
      .get() as number

    // Baseline: the chat path, one counted message per transaction on main.
    const sample = quick ? 2000 : 10_000
    const baselineHistogram = monitorEventLoopDelay({ resolution: 5 })
    baselineHistogram.enable()
    const baselineThread = threads.create({
      id: 'bench-baseline',
      title: 'baseline',
      now: Date.now(),
      settings: {}
    })
    const baselineStart = performance.now()
    for (let c = 0, stored = 0; stored < sample; c++) {
      const conversation = syntheticConversation(c, size, 99)
      for (const node of Object.values(conversation.mapping)) {
        const content = (node.message as { content?: { parts?: string[] } } | null)?.content
          ?.parts?.[0]
        if (!content || stored >= sample) continue
        messages.append({
          threadId: baselineThread.id,
          role: 'user',
          content,
          tokenCount: counter.count(content),
          createdAt: Date.now()
        })
        stored++
      }
      // The chat path yields between messages (each is its own IPC call).
      await yieldToEventLoop()
    }
    const baselineMs = performance.now() - baselineStart
    baselineHistogram.disable()
    db.close()

    return {
      conversations: size.conversations,
      messages: summary.messages,
      fileMb: bytes / 1024 / 1024,
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      messagesPerSecond: summary.messages / (wallMs / 1000),
      peakRssMb: Math.round(during.peakRss / 1024 / 1024),
      stall: during.stall,
      chatWrites: during.writes,
      idle: { stall: idleFigures.stall, chatWrites: idleFigures.writes },
      searchable,
      queuedForEmbedding: queued,
      baseline: {
        messages: sample,
        messagesPerSecond: sample / (baselineMs / 1000),
        stallP99: baselineHistogram.percentile(99) / 1e6
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
