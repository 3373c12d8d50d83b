/**
 * A test-only stand-in for the Electron main process: serves the built renderer over http and
 * answers `window.api` calls by invoking the REAL handler registry over the REAL services on a
 * real SQLite file. Only the transport differs from the app (HTTP + SSE instead of Electron IPC).
 */
import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve, sep } from 'node:path'
import type Database from 'better-sqlite3'
import { build } from 'vite'
import type { EventName } from '@shared/contract'
import { fail } from '@shared/result'
import { createHandlers } from '../../../src/main/ipc/handlers'
import { createRegistry } from '../../../src/main/ipc/registry'
import { createServices } from '../../../src/main/services/createServices'
import type { ServiceOptions, Services } from '../../../src/main/services/serviceTypes'
import type { Publish } from '../../../src/main/services/events'
import { openDatabase } from '../../../src/main/store/database'
import {
  closeSearchWorkers,
  startSearchWorkers,
  type SearchWorkers
} from '../../../src/main/workers/search/searchWorkerClient'
import { defaultModel, e5Model, prepareEmbeddings, testEmbeddings } from '../../support/embeddings'
import { aesCipher } from '../../support/testCipher'

const ROOT = resolve(import.meta.dirname, '../../..')
const RENDERER_DIR = join(ROOT, 'out/renderer')

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm'
}

let bridgeBundle: Promise<string> | undefined

/** The IIFE that installs `window.api`; built once per test process from test/e2e/harness/bridge.ts. */
function bridgeScript(): Promise<string> {
  bridgeBundle ??= build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    resolve: { alias: { '@shared': join(ROOT, 'src/shared') } },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: false,
      emptyOutDir: false,
      lib: {
        entry: join(import.meta.dirname, 'bridge.ts'),
        formats: ['iife'],
        name: 'ContextLensBridge',
        fileName: () => 'bridge.js'
      }
    }
  }).then((result) => {
    const outputs = Array.isArray(result) ? result : [result]
    for (const output of outputs) {
      if (!('output' in output)) continue
      const chunk = output.output.find((item) => item.type === 'chunk')
      if (chunk && chunk.type === 'chunk') return chunk.code
    }
    throw new Error('Building the e2e bridge produced no JavaScript chunk.')
  })
  return bridgeBundle
}

export interface HarnessOptions {
  /** The SQLite file; start a second harness on the same path to prove persistence. */
  databasePath: string
  /** What `app.info` reports as the OS locale. */
  systemLocale?: string
  /**
   * Runs a real embedding model from .cache/models in the real worker, with background
   * indexing, as the app does: `true` bge-small-zh-v1.5 (what most tests were written
   * against), `'e5'` multilingual-e5-small (the app's default, whose relevance gate is
   * calibrated). Without it memory recall is full text only.
   */
  embeddings?: boolean | 'e5'
  /** Replaces Ollama detection on 127.0.0.1:11434 (point it at a scripted server). */
  detectOllama?: ServiceOptions['detectOllama']
  /** Stands in for main's file dialogs (and may run imports elsewhere). */
  history?: ServiceOptions['history']
  /** Tokens of unsummarized history outside the window that trigger a summary (default 2,000). */
  summaryMinTokens?: number
  /** Stands in for main's file dialog of "Restore from a file". */
  pickRestoreFile?: () => Promise<string | null>
}

export interface Harness {
  url: string
  databasePath: string
  db: Database.Database
  services: Services
  /** The bundle that installs `window.api`, for `context.addInitScript`. */
  bridge: string
  /** Every event the services published, in order. */
  published: { event: EventName; payload: unknown }[]
  /** Errors the registry caught and turned into `internal`/`storage_error` results. */
  unexpectedErrors: { channel: string; error: unknown }[]
  /** How many pages are listening on /events; lets a test wait until events can arrive. */
  eventClientCount(): number
  close(): Promise<void>
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const rendererDir = resolve(RENDERER_DIR)
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(
      `No built renderer at ${rendererDir}. Run \`npm run build\` (electron-vite build) before the e2e tests.`
    )
  }
  const bridge = await bridgeScript()
  const { databasePath } = options
  const embeddings = options.embeddings
    ? testEmbeddings(
        await prepareEmbeddings(),
        options.embeddings === 'e5' ? e5Model() : defaultModel()
      )
    : null
  const sseClients = new Set<ServerResponse>()
  const published: Harness['published'] = []
  const unexpectedErrors: Harness['unexpectedErrors'] = []
  const publish: Publish = (event, payload) => {
    published.push({ event, payload })
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`
    for (const client of sseClients) client.write(frame)
  }
  // A restore closes the store, swaps the file and opens it again, as the app's relaunch does.
  let db = openDatabase(databasePath)
  // With a model, nearest messages are searched in the worker `npm run build` emitted, as in the app.
  let searchWorkers: SearchWorkers | undefined
  let services = open(db)
  let registry = registryFor(services)

  function open(store: Database.Database): Services {
    searchWorkers = embeddings
      ? startSearchWorkers(join(ROOT, 'out/main/searchWorker.js'), { databasePath })
      : undefined
    const opened = createServices({
      db: store,
      ...(searchWorkers && { searchWorkers }),
      publish,
      embeddings,
      // Stands in for safeStorage: keys entered in the e2e settings are encrypted at rest.
      cipher: aesCipher(),
      // The test polls the queue faster than the app's default, so indexing settles sooner.
      ...(embeddings && { indexing: { idleMs: 50 } }),
      ...(options.detectOllama && { detectOllama: options.detectOllama }),
      ...(options.history && { history: options.history }),
      ...(options.summaryMinTokens !== undefined && { summaryMinTokens: options.summaryMinTokens }),
      // The file worker `npm run build` emitted beside the renderer, as the app starts it.
      fileWorkerPath: join(ROOT, 'out/main/fileWorker.js'),
      backup: {
        ...(options.pickRestoreFile && { pickFile: options.pickRestoreFile }),
        reopen: async (swap) => {
          await closeServices()
          try {
            swap()
          } finally {
            db = openDatabase(databasePath)
            services = open(db)
            registry = registryFor(services)
          }
        }
      },
      info: {
        version: 'e2e',
        systemLocale: options.systemLocale ?? 'en-US',
        databasePath,
        recoveredFromBackup: null
      }
    })
    if (embeddings) opened.memoryModel.start()
    return opened
  }

  function registryFor(opened: Services) {
    return createRegistry(createHandlers(opened), (channel, error) => {
      unexpectedErrors.push({ channel, error })
      console.error(`[e2e harness] ${channel} failed`, error)
    })
  }

  async function closeServices() {
    // An import writes until it ends: stop it before the store closes.
    await services.history.stop()
    // A streaming reply writes when it ends: stop it before the store closes.
    for (const thread of services.threads.list()) services.chat.stop(thread.id)
    await services.chat.settled()
    await services.summaries.settled()
    await services.memoryExtraction.settled()
    // MCP servers are child processes: none may outlive the test.
    await services.tools.stopAll()
    // The indexer may be writing a batch: stop it and the worker before the store closes.
    if (embeddings) await services.memoryModel.stop()
    if (searchWorkers) await closeSearchWorkers(searchWorkers)
    db.close()
  }

  async function handleIpc(channel: string, request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    let input: unknown
    try {
      input = (JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { input?: unknown })
        .input
    } catch {
      return sendJson(response, fail({ code: 'invalid_input', message: 'Body is not JSON.' }))
    }
    sendJson(response, await registry.invoke(channel, input))
  }

  function handleEvents(request: IncomingMessage, response: ServerResponse) {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive'
    })
    response.write(': connected\n\n')
    sseClients.add(response)
    request.on('close', () => sseClients.delete(response))
  }

  async function serveStatic(pathname: string, response: ServerResponse) {
    if (pathname === '/__bridge.js') return send(response, 200, CONTENT_TYPES['.js']!, bridge)
    const file = resolve(rendererDir, `.${pathname === '/' ? '/index.html' : pathname}`)
    if (!file.startsWith(rendererDir + sep) || !isFile(file)) {
      // Chromium asks for a favicon on its own; Electron never does, so that is not an app error.
      if (pathname === '/favicon.ico') return send(response, 204, 'image/x-icon', '')
      return send(response, 404, 'text/plain; charset=utf-8', 'Not found')
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream'
    send(response, 200, type, await readFile(file))
  }

  async function route(request: IncomingMessage, response: ServerResponse) {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)
    if (request.method === 'POST' && pathname.startsWith('/ipc/')) {
      return handleIpc(pathname.slice('/ipc/'.length), request, response)
    }
    if (pathname === '/events') return handleEvents(request, response)
    return serveStatic(pathname, response)
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      console.error('[e2e harness] request failed', error)
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', String(error))
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}/`,
    databasePath,
    get db() {
      return db
    },
    get services() {
      return services
    },
    bridge,
    published,
    unexpectedErrors,
    eventClientCount: () => sseClients.size,
    async close() {
      for (const client of sseClients) client.end()
      server.closeAllConnections()
      await new Promise<void>((done, reject) =>
        server.close((error) => (error ? reject(error) : done()))
      )
      await closeServices()
    }
  }
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer) {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  response.end(body)
}

function sendJson(response: ServerResponse, body: unknown) {
  send(response, 200, CONTENT_TYPES['.json']!, JSON.stringify(body))
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false
}
