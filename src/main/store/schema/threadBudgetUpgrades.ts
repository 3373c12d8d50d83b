/**
 * The migrations that rewrote a thread's saved budget, with the statement each ran on threads.
 * A thread imported from an export written at an older schema is upgraded by the same
 * statements, so its budget means what it meant when it was exported: a budget saved before
 * the attachments and tools sections (17) or before the 15/40 split (21) would otherwise add up
 * to over 100 % and refuse every build of the thread (docs/HISTORY.md).
 */
import type Database from 'better-sqlite3'
import { FIT_THREAD_SECTIONS } from './budgetsAndCounts'
import { PIN_THREAD_RETRIEVED } from './recallShares'

const UPGRADES: readonly { version: number; update: string }[] = [
  { version: 17, update: FIT_THREAD_SECTIONS },
  { version: 21, update: PIN_THREAD_RETRIEVED }
]

/**
 * Prepared once per connection: a function that runs on one thread, in order, every upgrade
 * newer than `schema`, the store it was saved in.
 */
export function threadBudgetUpgrader(
  db: Database.Database
): (threadId: string, schema: number) => void {
  const statements = UPGRADES.map(({ version, update }) => ({
    version,
    statement: db.prepare(`${update} AND id = ?`)
  }))
  return (threadId, schema) => {
    for (const { version, statement } of statements) if (version > schema) statement.run(threadId)
  }
}
