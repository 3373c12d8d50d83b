import { join } from 'node:path'
import { afterEach, beforeAll } from 'vitest'
import type Database from 'better-sqlite3'
import type { EventName } from '@shared/contract'
import type { MemorySearch } from '../../src/main/context/recall/memorySearch'
import { createServices } from '../../src/main/services/createServices'
import type { Services } from '../../src/main/services/serviceTypes'
import type { EmbedderFactory } from '../../src/main/services/memory/memoryModels'
import { openDatabase } from '../../src/main/store/database'
import type { SearchWorkers } from '../../src/main/workers/search/searchWorkerClient'
import type { Cipher } from '../../src/main/services/providers/secretStore'
import { prepareEmbeddings, testEmbeddings, type TestModel } from './embeddings'
import type { TurnProbe } from '../../src/main/services/chat/turnProbe'

export interface MemoryTestServices {
  db: Database.Database
  services: Services
  published: { event: EventName; payload: unknown }[]
  logged: string[]
  /** Stops the indexer and the worker; call before the temp folder goes. */
  close(): Promise<void>
}

/** Real services with long-term memory over a real SQLite file in `dir`. */
export function memoryServicesIn(
  dir: string,
  options: {
    embeddings?: EmbedderFactory | null
    now?: () => number
    memory?: MemorySearch
    file?: string
    /** The bundled file worker (prepareFileWorker), for PDFs and chunking. */
    fileWorkerPath?: string
    /** Memory search's workers, as the app searches with them. */
    searchWorkers?: SearchWorkers
    /** Stands in for the OS key store, so a provider can be saved (testCipher.ts). */
    cipher?: Cipher
    /** Told the moments of each turn (services/chat/turnProbe.ts). */
    turnProbe?: TurnProbe
  } = {}
): MemoryTestServices {
  const path = join(dir, options.file ?? 'store.sqlite')
  const db = openDatabase(path)
  const published: { event: EventName; payload: unknown }[] = []
  const logged: string[] = []
  const services = createServices({
    db,
    now: options.now,
    memory: options.memory,
    embeddings: options.embeddings ?? null,
    indexing: { idleMs: 50 },
    fileWorkerPath: options.fileWorkerPath ?? null,
    ...(options.searchWorkers && { searchWorkers: options.searchWorkers }),
    ...(options.cipher && { cipher: options.cipher }),
    ...(options.turnProbe && { turnProbe: options.turnProbe }),
    log: (message, error) =>
      logged.push(`${message}: ${error instanceof Error ? error.message : String(error)}`),
    publish: (event, payload) => published.push({ event, payload }),
    info: { version: 'test', systemLocale: 'en-US', databasePath: path, recoveredFromBackup: null }
  })
  services.memoryModel.start()
  return {
    db,
    services,
    published,
    logged,
    async close() {
      await services.memoryModel.stop()
      db.close()
    }
  }
}

/**
 * For a test file: memory services over a fresh folder that close after each test, with the
 * real embedding model (fetched once per file) or without any.
 */
export function useMemoryServices(tempDir: () => string): {
  /** With bge-small-zh-v1.5 unless another model is given (e.g. `e5Model()`). */
  withModel(model?: TestModel): Promise<MemoryTestServices>
  withoutModel(): MemoryTestServices
  /** With an embedder the test makes over the bundled worker (`workerPath`). */
  withEmbeddings(embeddings: EmbedderFactory): MemoryTestServices
  workerPath(): string
} {
  let workerPath = ''
  const open: MemoryTestServices[] = []
  beforeAll(async () => {
    workerPath = await prepareEmbeddings()
  }, 300_000)
  afterEach(async () => {
    for (const setup of open.splice(0)) await setup.close()
  })
  const track = (setup: MemoryTestServices) => {
    open.push(setup)
    return setup
  }
  return {
    async withModel(model?: TestModel) {
      const setup = track(
        memoryServicesIn(tempDir(), { embeddings: testEmbeddings(workerPath, model) })
      )
      await setup.services.memoryIndexer.drained()
      return setup
    },
    withoutModel: () => track(memoryServicesIn(tempDir())),
    withEmbeddings: (embeddings) => track(memoryServicesIn(tempDir(), { embeddings })),
    workerPath: () => workerPath
  }
}
