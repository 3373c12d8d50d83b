/**
 * The whole turn as a user waits for it (issue #16): `TurnService.send` through the real
 * services on a real SQLite file, with the embedding model loaded and a local OpenAI-compatible
 * server that timestamps the moment a request body has fully arrived. One store holds a long
 * thread (100,000 messages), a short one (20) and 10,000 memories with vectors for every item;
 * the short thread is the baseline from the same run. Stages come from the services' own
 * marks (services/chat/turnProbe.ts); the memory search's parts are whatever the memory service
 * reports in its result.
 *
 * - warm: repeated sends in each thread after a first one (caches and indexes loaded), pasted
 *   (sent at once) and typed (the draft's preview ran first, as the inspector runs it while
 *   the user types: its query vectors are then cached);
 * - first: a fresh process on the same file (services, model loaded, start-up warm-up done),
 *   the long thread opened through `messages:list`, then the first send: pasted at once (the
 *   thread is still loading in the background) or typed (the draft's preview ran first);
 * - open: `messages:list` of the long thread to its first page, validated through the registry.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MemorySearchResult } from '@shared/domain'
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import { tokenCounterFor } from '../../src/main/context/tokens/tokenCounter'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import type { Services } from '../../src/main/services/serviceTypes'
import { benchServices, defaultToLocalServer } from './benchServices'
import type { TurnMark } from '../../src/main/services/chat/turnProbe'
import { openDatabase } from '../../src/main/store/database'
import { MemoryRepository } from '../../src/main/store/memoryRepository'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import {
  closeSearchWorkers,
  startSearchWorkers
} from '../../src/main/workers/search/searchWorkerClient'
import { modelSpec, spaceKey } from '../../src/main/workers/embedding/embeddingModels'
import { clusteredVectors } from './memoryStore'
import { syntheticMemories, syntheticThread } from './syntheticThread'
import { summarize, type Timing } from './timing'

const MODEL_ID = 'gpt-4o'
const SHORT_MESSAGES = 20

/** One send, split into stages (ms). */
interface TurnSample {
  /** send → the provider server has the whole body. */
  total: number
  /** Counting and storing the message, per-thread state: up to the memory search. */
  beforeSearch: number
  search: number
  /** What the memory service reported about its own parts (tookMs and any other *Ms figure). */
  searchParts: Record<string, number>
  build: number
  /** From the build to the request handed to fetch (provider SDK, body serialisation). */
  toRequest: number
  /** fetch called → body fully received by the server. */
  sentToReceived: number
  /** Storing the build (after the request left, off the total). */
  save: number
  bodyBytes: number
  /** The request's tokens as the build counted them. */
  promptTokens: number
}

interface StageFigures {
  runs: number
  total: Timing
  beforeSearch: Timing
  search: Timing
  searchParts: Record<string, Timing>
  build: Timing
  toRequest: Timing
  sentToReceived: Timing
  save: Timing
  bodyBytes: number
  promptTokens: number
}

export interface TurnFigures {
  messages: number
  memories: number
  model: string
  long: StageFigures
  short: StageFigures
  longTyped: StageFigures
  shortTyped: StageFigures
  first: TurnSample
  firstTyped: TurnSample
  /** The draft's first preview right after the long thread opened (the inspector's). */
  firstPreview: number
  /** Start-up to the memory warm-up's end (code index, first embedding), in the background. */
  warmUp: number
  /** messages:list of the long thread, through the registry, to the first page. */
  open: { firstPage: Timing; pageSize: number }
}

export interface ProviderServer {
  v1: string
  /** Receipt times of each request's full body (performance.now) and its size. */
  received: { at: number; bytes: number }[]
  close(): Promise<void>
}

const chunk = (delta: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: MODEL_ID, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`

/** A local OpenAI-compatible server: reads the whole body, notes when it arrived, streams "ok". */
export async function startProvider(): Promise<ProviderServer> {
  const received: ProviderServer['received'] = []
  const server: Server = createServer((request: IncomingMessage, response) => {
    const parts: Buffer[] = []
    request.on('data', (part: Buffer) => parts.push(part))
    request.on('end', () => {
      received.push({ at: performance.now(), bytes: parts.reduce((n, p) => n + p.length, 0) })
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(chunk({ role: 'assistant', content: 'ok' }))
      response.write(
        `data: ${JSON.stringify({
          id: 'bench',
          object: 'chat.completion.chunk',
          created: 0,
          model: MODEL_ID,
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1000, completion_tokens: 1, total_tokens: 1001 }
        })}\n\n`
      )
      response.end('data: [DONE]\n\n')
    })
  })
  // Node closes idle keep-alive sockets after 5 s; a send on a busy machine can take longer
  // between requests, and a request written to a socket being closed fails as a network error.
  server.keepAliveTimeout = 120_000
  server.headersTimeout = 130_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    v1: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

interface Seeded {
  path: string
  longId: string
  shortId: string
}

/**
 * The store: threads and messages written the way the app writes them (FTS triggers index
 * them), memories through the repository, and a vector for every message and memory in the
 * model's space, so nothing is left for the indexer.
 */
function seedStore(dir: string, messages: number, memories: number, dimension: number): Seeded {
  const path = join(dir, 'turn.sqlite')
  const db = openDatabase(path)
  const counter = tokenCounterFor(MODEL_ID)
  const now = Date.now()
  const longId = '11111111-1111-4111-8111-111111111111'
  const shortId = '22222222-2222-4222-8222-222222222222'
  const insertThread = db.prepare(
    'INSERT INTO threads (id, title, created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?)'
  )
  const insertMessage = db.prepare(
    `INSERT INTO messages (thread_id, seq, role, content, tool_calls, tool_call_id, token_count, created_at, pinned, excluded)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const fill = (threadId: string, count: number, seed: number) => {
    const { messages: rows } = syntheticThread(count, counter, seed)
    db.transaction(() => {
      rows.forEach((m, i) =>
        insertMessage.run(
          threadId,
          m.seq,
          m.role,
          m.content,
          m.toolCalls ? JSON.stringify(m.toolCalls) : null,
          m.toolCallId,
          m.tokenCount,
          now - (count - i) * 60_000,
          Number(m.pinned),
          Number(m.excluded)
        )
      )
    })()
  }
  insertThread.run(longId, 'Long thread', now, now, '{}')
  insertThread.run(shortId, 'Short thread', now, now, '{}')
  fill(longId, messages, 42)
  fill(shortId, SHORT_MESSAGES, 43)
  const repository = new MemoryRepository(db)
  db.transaction(() => {
    syntheticMemories(memories).forEach((m, i) =>
      repository.insert({
        content: `${m.content} (${i})`,
        category: 'fact',
        sourceThreadId: null,
        sourceMessageId: null,
        now,
        reason: 'bench'
      })
    )
  })()

  const spec = modelSpec(E5_MODEL_ID)
  const vectors = new VectorStore(db)
  const { space } = vectors.activate(spaceKey(spec, dimension), spec.id, dimension, now)
  const sample = clusteredVectors(9, dimension)
  const put = (ids: number[], write: (rows: { id: number; vector: Float32Array }[]) => void) => {
    for (let i = 0; i < ids.length; i += 1000)
      write(ids.slice(i, i + 1000).map((id) => ({ id, vector: sample() })))
  }
  const messageIds = (db.prepare('SELECT id FROM messages').pluck().all() as number[]).slice()
  put(messageIds, (rows) => vectors.putMessages(space, rows))
  const memoryIds = db.prepare('SELECT id FROM memories').pluck().all() as number[]
  put(memoryIds, (rows) => vectors.putMemories(space, rows))
  db.close()
  return { path, longId, shortId }
}

interface Session {
  services: Services
  marks: Map<TurnMark, number>
  searches: MemorySearchResult[]
  /** From the model's start to the end of the start-up warm-up. */
  warmUp: number
  close(): Promise<void>
}

/** A fresh "process" on the store: services, the model loaded, the provider configured. */
async function openSession(
  seeded: Seeded,
  server: ProviderServer,
  modelsRoot: string,
  workerPath: string,
  searchWorkerPath: string
): Promise<Session> {
  const db = openDatabase(seeded.path)
  const searchWorkers = startSearchWorkers(searchWorkerPath, { databasePath: seeded.path })
  const marks = new Map<TurnMark, number>()
  const searches: MemorySearchResult[] = []
  const spec = modelSpec(E5_MODEL_ID)
  const services = benchServices(db, seeded.path, {
    searchWorkers,
    publish: (event, payload) => {
      if (event === 'chat:error') {
        const { error } = payload as { error: { kind: string; message: string } }
        process.stderr.write(`[bench] reply failed: ${error.kind}: ${error.message}\n`)
      }
    },
    log: (message, error) => process.stderr.write(`[bench] ${message}: ${String(error)}\n`),
    detectOllama: async () => ({ found: false, baseUrl: '', reason: 'not_running' }),
    embeddings: () => ({
      embedder: new EmbeddingClient({
        workerPath,
        spec,
        source: { kind: 'folder', root: modelsRoot, name: E5_MODEL_ID },
        threads: 1
      }),
      spec
    }),
    // Background requests after a turn (a summary of the long thread, memory extraction) would
    // reach the same server during the next send: the bench measures the send path alone.
    summaryMinTokens: Number.MAX_SAFE_INTEGER,
    turnProbe: (_threadId, mark) => {
      if (!marks.has(mark) || mark === 'built') marks.set(mark, performance.now())
    }
  })
  const created = services
  // The app's recall, with each result kept so the bench can read the service's own figures.
  const search = created.memory.search.bind(created.memory)
  created.memory.search = async (...args) => {
    const result = await search(...args)
    searches.push(result)
    return result
  }
  await created.memoryModel.updateSettings({ autoExtract: false })
  defaultToLocalServer(created, server.v1, {
    id: MODEL_ID,
    contextWindow: 128_000,
    maxOutput: 4_096
  })
  // As startApp starts them: the memory model and its warm-up, the providers' request code
  // (startApp waits 3 s for its window's first calls; the bench has no window).
  const starting = performance.now()
  created.memoryModel.start()
  const providersReady = created.providers.warmUp((message, error) =>
    process.stderr.write(`[bench] ${message}: ${String(error)}\n`)
  )
  const embedder = created.memoryIndexer.embedder()
  if (!embedder) throw new Error('the embedding model did not start')
  await embedder.ready()
  // The space is activated right after the model loads, and the warm-up starts with it.
  while (!created.memoryIndexer.active()) await new Promise((r) => setTimeout(r, 10))
  await created.memory.warmedUp()
  await providersReady
  const warmUp = performance.now() - starting
  return {
    services: created,
    marks,
    searches,
    warmUp,
    async close() {
      await created.chat.settled()
      await created.memoryModel.stop()
      await closeSearchWorkers(searchWorkers)
      db.close()
    }
  }
}

const NUMBERED = /Ms$/

/**
 * After each reply the bench waits this long before the next send, as a user reads the reply:
 * what the app does when a reply ends (embedding the conversation the next input will be read
 * in, issue #21) has that long, never the seconds a person takes. A first send after opening
 * waits for nothing.
 */
const READING_MS = 250

/**
 * Sends `content`, waits for the reply and the stored build, and splits the time. `typed`: the
 * draft's preview runs first (untimed), as the composer's inspector runs it while typing.
 */
async function measuredSend(
  session: Session,
  server: ProviderServer,
  threadId: string,
  content: string,
  typed = false
): Promise<TurnSample> {
  if (typed) await session.services.context.preview(threadId, content)
  session.marks.clear()
  session.searches.length = 0
  const receivedBefore = server.received.length
  const start = performance.now()
  const outcome = await session.services.chat.send(threadId, content)
  await session.services.chat.settled(threadId)
  await new Promise((resolve) => setTimeout(resolve, READING_MS))
  const body = server.received[receivedBefore]
  if (!body) {
    throw new Error(
      `the provider server received no request (${outcome.status}${outcome.buildError ? `: ${outcome.buildError}` : ''})`
    )
  }
  const mark = (name: TurnMark): number => {
    const at = session.marks.get(name)
    if (at === undefined) throw new Error(`the turn reported no ${name}`)
    return at
  }
  const searchParts: Record<string, number> = {}
  const reported = session.searches[0] as unknown as Record<string, unknown> | undefined
  for (const source of [reported, reported?.timings as Record<string, unknown> | undefined]) {
    for (const [key, value] of Object.entries(source ?? {})) {
      if (typeof value === 'number' && (NUMBERED.test(key) || source !== reported))
        searchParts[key] = value
    }
  }
  return {
    total: body.at - start,
    beforeSearch: mark('search_start') - start,
    search: mark('search_end') - mark('search_start'),
    searchParts,
    build: mark('built') - mark('search_end'),
    toRequest: mark('request_sent') - mark('built'),
    sentToReceived: body.at - mark('request_sent'),
    // The save follows the build (old path) or the request (new path): from whichever came last.
    save:
      mark('saved') -
      Math.max(...[mark('built'), mark('request_sent')].filter((at) => at <= mark('saved'))),
    bodyBytes: body.bytes,
    promptTokens: outcome.build?.context.tokenStats.total ?? 0
  }
}

function stageFigures(samples: TurnSample[]): StageFigures {
  const of = (pick: (s: TurnSample) => number) => summarize(samples.map(pick))
  const partNames = [...new Set(samples.flatMap((s) => Object.keys(s.searchParts)))]
  return {
    runs: samples.length,
    total: of((s) => s.total),
    beforeSearch: of((s) => s.beforeSearch),
    search: of((s) => s.search),
    searchParts: Object.fromEntries(
      partNames.map((name) => [name, of((s) => s.searchParts[name] ?? 0)])
    ),
    build: of((s) => s.build),
    toRequest: of((s) => s.toRequest),
    sentToReceived: of((s) => s.sentToReceived),
    save: of((s) => s.save),
    bodyBytes: Math.round(samples.reduce((n, s) => n + s.bodyBytes, 0) / samples.length),
    promptTokens: Math.round(samples.reduce((n, s) => n + s.promptTokens, 0) / samples.length)
  }
}

export async function wholeTurnFigures(
  options: {
    quick: boolean
    modelsRoot: string
    workerPath: string
    /** The search worker's bundle: the app searches messages there. */
    searchWorkerPath: string
    phrases: readonly string[]
  },
  progress: (message: string) => void
): Promise<TurnFigures> {
  const messages = options.quick ? 10_000 : 100_000
  const memories = options.quick ? 1_000 : 10_000
  const runs = options.quick ? 8 : 30
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-turn-'))
  const server = await startProvider()
  try {
    progress(`whole turn: seeding ${messages.toLocaleString('en-US')} messages`)
    const dimension = await modelDimension(options.modelsRoot, options.workerPath)
    const seeded = seedStore(dir, messages, memories, dimension)
    const question = (i: number) =>
      `${options.phrases[i % options.phrases.length]} What did we decide about that? (${i})`

    // First send after opening: a fresh session, the thread opened, then the send.
    progress('whole turn: first send after opening')
    const opening = await openSession(
      seeded,
      server,
      options.modelsRoot,
      options.workerPath,
      options.searchWorkerPath
    )
    const registry = createRegistry(createHandlers(opening.services), () => {})
    const openStart = performance.now()
    const page = await registry.invoke('messages:list', { threadId: seeded.longId })
    const firstOpen = performance.now() - openStart
    if (!page.ok) throw new Error(`messages:list failed: ${page.error.message}`)
    const pageSize = pageLength(page.data)
    const first = await measuredSend(opening, server, seeded.longId, question(0))

    progress('whole turn: warm sends')
    const long: TurnSample[] = []
    const short: TurnSample[] = []
    const longTyped: TurnSample[] = []
    const shortTyped: TurnSample[] = []
    await measuredSend(opening, server, seeded.shortId, question(1))
    for (let i = 0; i < runs; i++) {
      const q = 2 + 4 * i
      long.push(await measuredSend(opening, server, seeded.longId, question(q)))
      short.push(await measuredSend(opening, server, seeded.shortId, question(q + 1)))
      longTyped.push(await measuredSend(opening, server, seeded.longId, question(q + 2), true))
      shortTyped.push(await measuredSend(opening, server, seeded.shortId, question(q + 3), true))
    }
    await opening.close()

    progress('whole turn: first send after opening, typed')
    const typing = await openSession(
      seeded,
      server,
      options.modelsRoot,
      options.workerPath,
      options.searchWorkerPath
    )
    const typingRegistry = createRegistry(createHandlers(typing.services), () => {})
    await typingRegistry.invoke('messages:list', { threadId: seeded.longId })
    // The inspector's first preview as the user starts typing in the thread just opened.
    const previewStarted = performance.now()
    await typing.services.context.preview(seeded.longId, question(10_000))
    const firstPreview = performance.now() - previewStarted
    const firstTyped = await measuredSend(typing, server, seeded.longId, question(10_000), true)
    await typing.close()

    // Opening the thread again and again, each time in a fresh session (no cache).
    progress('whole turn: opening the long thread')
    const opens: number[] = [firstOpen]
    for (let i = 0; i < (options.quick ? 2 : 4); i++) {
      const db = openDatabase(seeded.path)
      const services = benchServices(db, seeded.path)
      const again = createRegistry(createHandlers(services), () => {})
      const start = performance.now()
      await again.invoke('messages:list', { threadId: seeded.longId })
      opens.push(performance.now() - start)
      await services.chat.settled()
      await new Promise((r) => setTimeout(r, 50))
      db.close()
    }
    return {
      messages,
      memories,
      model: MODEL_ID,
      long: stageFigures(long),
      short: stageFigures(short),
      longTyped: stageFigures(longTyped),
      shortTyped: stageFigures(shortTyped),
      first,
      firstTyped,
      firstPreview,
      warmUp: opening.warmUp,
      open: { firstPage: summarize(opens), pageSize }
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** messages:list answers a page ({messages}) or, before paging, the whole thread. */
function pageLength(data: unknown): number {
  if (Array.isArray(data)) return data.length
  return ((data as { messages?: unknown[] }).messages ?? []).length
}

async function modelDimension(modelsRoot: string, workerPath: string): Promise<number> {
  const client = new EmbeddingClient({
    workerPath,
    spec: modelSpec(E5_MODEL_ID),
    source: { kind: 'folder', root: modelsRoot, name: E5_MODEL_ID },
    threads: 1
  })
  try {
    return (await client.ready()).dimension
  } finally {
    await client.close()
  }
}

type Table = (headers: string[], rows: (string | number)[][]) => string

/** The whole-turn tables: stages per thread, the first send, opening the long thread. */
export function wholeTurnReport(figures: TurnFigures, table: Table): string {
  const ms = (n: number) => `${n < 10 ? n.toFixed(1) : n.toFixed(0)}`
  // Warm columns give p50 / p95 over their sends; a first send is one figure.
  const columns: { title: string; stages: StageFigures; one: boolean }[] = [
    { title: 'long thread, warm, pasted', stages: figures.long, one: false },
    { title: `short thread (${SHORT_MESSAGES}), warm, pasted`, stages: figures.short, one: false },
    { title: 'long, warm, typed', stages: figures.longTyped, one: false },
    { title: 'short, warm, typed', stages: figures.shortTyped, one: false },
    {
      title: 'long, first after opening, pasted',
      stages: stageFigures([figures.first]),
      one: true
    },
    {
      title: 'long, first after opening, typed',
      stages: stageFigures([figures.firstTyped]),
      one: true
    }
  ]
  const cell = (timing: Timing | undefined, one: boolean) =>
    timing === undefined ? '-' : one ? ms(timing.p50) : `${ms(timing.p50)} / ${ms(timing.p95)}`
  const parts = [...new Set(columns.flatMap((c) => Object.keys(c.stages.searchParts)))]
  const stages: [string, (f: StageFigures) => Timing | undefined][] = [
    ['send → request fully received', (f) => f.total],
    ['before the search', (f) => f.beforeSearch],
    ['memory search', (f) => f.search],
    ...parts.map((name): [string, (f: StageFigures) => Timing | undefined] => [
      `· ${name} (memory service)`,
      (f) => f.searchParts[name]
    ]),
    ['build', (f) => f.build],
    ['build → request handed to fetch', (f) => f.toRequest],
    ['request sent → fully received', (f) => f.sentToReceived],
    ['save the build (after the request)', (f) => f.save]
  ]
  const rows = [
    ...stages.map(([name, pick]) => [name, ...columns.map((c) => cell(pick(c.stages), c.one))]),
    ['request body (kB)', ...columns.map((c) => (c.stages.bodyBytes / 1e3).toFixed(0))],
    [
      "request tokens (the build's count)",
      ...columns.map((c) => c.stages.promptTokens.toLocaleString('en-US'))
    ]
  ]
  return [
    `Whole turn (${figures.messages.toLocaleString('en-US')}-message thread, ${figures.memories.toLocaleString('en-US')} memories, multilingual-e5-small loaded, local OpenAI-compatible server, ${figures.model} 128k; ms, p50 / p95 over ${figures.long.runs} sends; targets: long p50 <= 80 / p95 <= 150, short p50 <= 25, first <= 300). Pasted: sent at once; typed: the draft's preview ran first, as the inspector runs it while the user types.`,
    table(['ms', ...columns.map((c) => c.title)], rows),
    '',
    `Start-up warm-up in the background (code index, first embedding, the provider's request code), done before the first sends: ${ms(figures.warmUp)} ms.`,
    `Opening the long thread (messages:list through the registry, fresh services each time, ${figures.open.pageSize} messages returned; target <= 150 ms): p50 ${ms(figures.open.firstPage.p50)} ms, p95 ${ms(figures.open.firstPage.p95)} ms over ${figures.open.firstPage.runs}`,
    `The draft's first preview right after opening the long thread (the inspector's first build): ${ms(figures.firstPreview)} ms.`
  ].join('\n')
}
