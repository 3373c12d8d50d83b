/**
 * A chat turn while indexing runs, against the same turn idle (issue #21: within 20 %).
 * `TurnService.send` through the real services on a real SQLite file, multilingual-e5-small,
 * a local OpenAI-compatible server noting when each request body has arrived: a backlog of
 * realistic messages lands in another thread (as an import would) and a short thread gets
 * pasted sends while it is being indexed; once the backlog is indexed, the same sends again,
 * idle, over the same store (so recall searches as much in both). Each embedder is measured so:
 * the previous release's single worker, and the pool at 1 and 2 indexing workers.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import type { Embedder } from '../../src/main/workers/embedding/embedder'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { openDatabase } from '../../src/main/store/database'
import { benchServices, closeBenchSession, defaultToLocalServer } from './benchServices'
import { realisticMessages } from './embedding'
import { summarize, type Timing } from './timing'
import { startProvider, type ProviderServer } from './wholeTurn'

export interface TurnDuringIndexing {
  label: string
  idle: Timing
  indexing: Timing
  /** Items the indexer embedded per second while the busy sends ran. */
  itemsPerSecond: number
  /** The backlog still pending after the last busy send (it must not have run out). */
  pendingAfter: number
}

const CHAT = '00000000-0000-4000-8000-0000000000c1'
const BACKLOG = '00000000-0000-4000-8000-0000000000c2'
/** A quick user's pace between sends (reading a short reply): indexing resumes in between. */
export const PAUSE_MS = 1_500

export async function turnDuringIndexing(
  options: {
    label: string
    embedder: () => Embedder
    phrases: readonly string[]
    quick: boolean
  },
  progress: (message: string) => void
): Promise<TurnDuringIndexing> {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-bench-indexing-'))
  const server = await startProvider()
  const path = join(dir, 'store.sqlite')
  const db = openDatabase(path)
  const spec = modelSpec(E5_MODEL_ID)
  const services = benchServices(db, path, {
    embeddings: () => ({ embedder: options.embedder(), spec }),
    detectOllama: async () => ({ found: false, baseUrl: '', reason: 'not_running' }),
    summaryMinTokens: Number.MAX_SAFE_INTEGER
  })
  try {
    await services.memoryModel.updateSettings({ autoExtract: false })
    const messages = realisticMessages(options.quick ? 160 : 312, options.phrases)
    insertThread(db, CHAT, 'Chat', messages.slice(0, 12))
    services.memoryModel.start()
    await services.memoryIndexer.embedder()?.ready()
    await services.memoryIndexer.drained(300_000)
    await services.memory.warmedUp()
    defaultToLocalServer(services, server.v1, {
      id: 'gpt-4o',
      contextWindow: 128_000,
      maxOutput: 4_096
    })
    const sends = options.quick ? 8 : 16
    const questions = options.phrases.slice(0, sends)
    const ask = async (samples: number[]) => {
      for (const question of questions) {
        await pause(PAUSE_MS)
        samples.push(await send(services, server, question))
      }
    }
    await send(services, server, 'warm-up')

    progress(
      `turn during indexing, ${options.label}: while ${messages.length - 12} messages are indexed`
    )
    insertThread(db, BACKLOG, 'Imported', messages.slice(12))
    services.memoryIndexer.wake()
    const before = pending(services)
    const started = performance.now()
    const busy: number[] = []
    await ask(busy)
    const after = pending(services)
    const itemsPerSecond = (before - after) / ((performance.now() - started) / 1000)

    progress(`turn during indexing, ${options.label}: the backlog's rest, then idle`)
    await services.memoryIndexer.drained(900_000)
    const idle: number[] = []
    await ask(idle)
    return {
      label: options.label,
      idle: summarize(idle),
      indexing: summarize(busy),
      // The sends' own messages are queued too, so this slightly undercounts.
      itemsPerSecond,
      pendingAfter: after
    }
  } finally {
    await closeBenchSession(services, db, server, dir)
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const pending = (services: ReturnType<typeof benchServices>) =>
  services.memory.status().index.pendingMessages

function insertThread(
  db: ReturnType<typeof openDatabase>,
  id: string,
  title: string,
  contents: string[]
): void {
  db.prepare('INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, 0, 0)').run(
    id,
    title
  )
  const insert = db.prepare(
    `INSERT INTO messages (thread_id, seq, role, content, token_count, created_at)
     VALUES (?, ?, ?, ?, 300, 0)`
  )
  db.transaction(() =>
    contents.forEach((text, i) => insert.run(id, i + 1, i % 2 ? 'assistant' : 'user', text))
  )()
}

/** One pasted send: ms from the call to the request body's arrival at the server. */
async function send(
  services: ReturnType<typeof benchServices>,
  server: ProviderServer,
  content: string
): Promise<number> {
  const receivedBefore = server.received.length
  const start = performance.now()
  await services.chat.send(CHAT, content)
  await services.chat.settled(CHAT)
  const body = server.received[receivedBefore]
  if (!body) throw new Error('the provider server received no request')
  return body.at - start
}
