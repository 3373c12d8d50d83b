import type Database from 'better-sqlite3'
import { BUDGETS_AND_COUNTS } from './schema/budgetsAndCounts'
import { CORE_TABLES } from './schema/coreTables'
import { FEATURE_TABLES } from './schema/featureTables'
import { MESSAGE_OUTLINE_INDEX } from './schema/messageOutlineIndex'
import { RECALL_SHARES } from './schema/recallShares'
import { SEARCH_INDEX_BOUNDS } from './schema/searchIndexBounds'

export interface Migration {
  version: number
  name: string
  sql: string
}

/**
 * Ordered schema changes (in schema/, by release). A migration is never edited once released:
 * add a new one.
 * Each runs inside one transaction together with the user_version bump, so a crash leaves the
 * database at the previous version, never half-migrated.
 */
const MIGRATIONS: readonly Migration[] = [
  ...CORE_TABLES,
  ...FEATURE_TABLES,
  ...BUDGETS_AND_COUNTS,
  ...SEARCH_INDEX_BOUNDS,
  ...MESSAGE_OUTLINE_INDEX,
  ...RECALL_SHARES
]

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0

export class SchemaTooNewError extends Error {
  constructor(readonly found: number) {
    super(
      `This database was written by a newer version of the app (schema ${found}, this app knows ${LATEST_VERSION}). Update the app to open it.`
    )
    this.name = 'SchemaTooNewError'
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Applies every migration above the file's version; `upTo` exists for migration tests. */
export function migrate(db: Database.Database, upTo: number = LATEST_VERSION): number {
  const current = schemaVersion(db)
  if (current > LATEST_VERSION) throw new SchemaTooNewError(current)
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > upTo) continue
    db.transaction(() => {
      db.exec(migration.sql)
      db.pragma(`user_version = ${migration.version}`)
    })()
  }
  return schemaVersion(db)
}
