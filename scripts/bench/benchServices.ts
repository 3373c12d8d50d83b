import type Database from 'better-sqlite3'
import {
  createServices,
  type ServiceOptions,
  type Services
} from '../../src/main/services/createServices'

/**
 * The app's services over a bench store: nothing published or logged unless `options` says
 * otherwise (they override these defaults).
 */
export function benchServices(
  db: Database.Database,
  databasePath: string,
  options: Partial<ServiceOptions> = {}
): Services {
  return createServices({
    db,
    publish: () => {},
    log: () => {},
    info: { version: 'bench', systemLocale: 'en-US', databasePath, recoveredFromBackup: null },
    ...options
  })
}
