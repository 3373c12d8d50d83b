/**
 * Who copies the write-ahead log back into the database file, and when.
 *
 * SQLite does it by default inside the commit that takes the log past 1,000 pages, on
 * whichever connection commits: the main thread's. A 2 M-character paste is about 6 MB of
 * UTF-8, so its commit checkpointed every time, and the commit took 80-110 ms instead of
 * 22-31 ms (a standalone measure on this machine; the checkpoint alone took 147 ms).
 *
 * So a worker's connection (the full-text search worker, idle between sends) checkpoints on
 * a timer, where it holds no one up, and every connection keeps SQLite's own checkpoint only
 * as a backstop at a much larger log, for runs without that worker (tests, the CLIs) or
 * should it fall behind. PASSIVE never waits for readers or blocks writers; what it cannot
 * copy now it copies next time.
 */
import type Database from 'better-sqlite3'

/** Pages (4 KB) the log may reach before a commit checkpoints it itself: 32 MB. */
export const BACKSTOP_PAGES = 8192

/** How often the worker checkpoints; a checkpoint with nothing to copy costs microseconds. */
export const WAL_CHECKPOINT_EVERY_MS = 1_000

/** Checkpoints `db`'s log every `everyMs` for as long as its thread runs (never keeping it alive). */
export function checkpointEvery(db: Database.Database, everyMs: number): void {
  setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)')
    } catch {
      // A busy or closing store: the next tick, or the commit's backstop, copies the log.
    }
  }, everyMs).unref()
}
