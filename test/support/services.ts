import { join } from 'node:path'
import type Database from 'better-sqlite3'
import type { EventName } from '@shared/contract'
import type { MemorySearch } from '../../src/main/context/recall/memorySearch'
import { openDatabase, type OpenOptions } from '../../src/main/store/database'
import { createServices } from '../../src/main/services/createServices'
import type { ServiceOptions, Services } from '../../src/main/services/serviceTypes'
import { aesCipher } from './testCipher'

/** Real services over a real SQLite file in `dir`, recording every event they publish. */
export interface TestServices {
  db: Database.Database
  services: Services
  published: { event: EventName; payload: unknown }[]
  /** What the services logged as failures (instead of printing them). */
  logged: string[]
}

export function servicesIn(
  dir: string,
  now: () => number = Date.now,
  memory?: MemorySearch,
  {
    open,
    listen,
    ...extra
  }: Partial<
    Pick<
      ServiceOptions,
      'cipher' | 'detectOllama' | 'streamTimeouts' | 'summaryMinTokens' | 'searchWorkers'
    >
  > & {
    open?: OpenOptions
    /** Hears every event as it is published (the renderer tests deliver them to `window.api`). */
    listen?: (event: EventName, payload: unknown) => void
  } = {}
): TestServices {
  const db = openDatabase(join(dir, 'store.sqlite'), open)
  const published: { event: EventName; payload: unknown }[] = []
  const logged: string[] = []
  const services = createServices({
    db,
    now,
    memory,
    cipher: aesCipher(),
    ...extra,
    log: (message) => logged.push(message),
    publish: (event, payload) => {
      published.push({ event, payload })
      listen?.(event, payload)
    },
    info: {
      version: 'test',
      systemLocale: 'en-US',
      databasePath: join(dir, 'store.sqlite'),
      recoveredFromBackup: null
    }
  })
  return { db, services, published, logged }
}

/** A clock that advances one millisecond per reading, so activity order is deterministic. */
export function steppingClock(start = 1_700_000_000_000): () => number {
  let t = start
  return () => ++t
}
