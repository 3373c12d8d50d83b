import {
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  rmSync,
  writeSync
} from 'node:fs'
import Database from 'better-sqlite3'
import type { SalvageReport, SalvagedTable } from '@shared/domain'
import { openDatabase, type OpenOptions } from './database'

/**
 * The tables salvage copies, parents before children. Everything else is derived and rebuilt
 * from these rows instead of copied: the FTS indexes and the embedding queue are filled by the
 * insert triggers, vectors are re-embedded from the queue, context builds are history the
 * inspector can live without only if unreadable (they are copied when readable); the
 * sidebar's per-thread stats are rebuilt from the newest readable build.
 */
const TABLES = [
  'threads',
  'import_keys',
  'messages',
  'thread_summaries',
  'summary_versions',
  'message_usage',
  'context_builds',
  'settings',
  'memories',
  'memory_history',
  // Attached files (migration 12): their chunks and vectors are derived and rebuilt on use.
  'files',
  'attachments',
  'mcp_servers'
] as const

/** Row ids read per query; a failing range is halved until the unreadable ids are isolated. */
const RANGE = 256
/** Queries per table at most, so a table whose root page is gone cannot bisect forever. */
const MAX_QUERIES_PER_TABLE = 50_000

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1')

/** What a thread that lost its own row but kept messages is called after salvage. */
export const RECOVERED_THREAD_TITLE = 'Recovered conversation'

/**
 * Copies every readable row of a damaged database into a fresh one at `targetPath`, table by
 * table and row-id range by row-id range, skipping what SQLite cannot read. `sourcePath` (the
 * backup) is never modified: a scratch copy is read instead, because opening a WAL database
 * replays and removes its WAL.
 */
export function salvageDatabase(
  sourcePath: string,
  targetPath: string,
  options: OpenOptions = {}
): SalvageReport {
  const scratch = `${targetPath}.source`
  removeDatabaseFiles(scratch)
  removeDatabaseFiles(targetPath)
  copyFileSync(sourcePath, scratch)
  if (existsSync(`${sourcePath}-wal`)) copyFileSync(`${sourcePath}-wal`, `${scratch}-wal`)
  const headerRepaired = repairMagic(scratch)
  padToHeaderSize(scratch)

  const target = openDatabase(targetPath, options)
  try {
    let source: Database.Database | null = null
    try {
      source = new Database(scratch, { nativeBinding: options.nativeBinding })
      source.prepare('SELECT count(*) FROM sqlite_master').get()
    } catch {
      source?.close()
      source = null
    }
    const report: SalvageReport = {
      headerRepaired,
      schemaReadable: source !== null,
      tables: [],
      threadsRecreated: 0
    }
    if (source) {
      target.pragma('foreign_keys = OFF')
      for (const table of TABLES) report.tables.push(copyTable(source, target, table))
      source.close()
      report.threadsRecreated = repairReferences(target)
      target.pragma('foreign_keys = ON')
    }
    // A self-contained file: no WAL to carry along when it replaces the damaged one.
    target.pragma('journal_mode = DELETE')
    return report
  } finally {
    target.close()
    removeDatabaseFiles(scratch)
  }
}

export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true })
}

/** A damaged magic string alone makes SQLite refuse the whole file; the pages may be fine. */
function repairMagic(path: string): boolean {
  const fd = openSync(path, 'r+')
  try {
    const header = Buffer.alloc(SQLITE_MAGIC.length)
    const read = readSync(fd, header, 0, header.length, 0)
    if (read < header.length || header.equals(SQLITE_MAGIC)) return false
    writeSync(fd, SQLITE_MAGIC, 0, SQLITE_MAGIC.length, 0)
    return true
  } finally {
    closeSync(fd)
  }
}

/**
 * SQLite refuses a whole file that is shorter than its header says (a truncated copy, a
 * crash mid-sync). Padding the scratch copy with zero pages turns the missing tail into
 * unreadable pages, which salvage skips like any other.
 */
function padToHeaderSize(path: string): void {
  const header = Buffer.alloc(100)
  const fd = openSync(path, 'r+')
  try {
    if (readSync(fd, header, 0, 100, 0) < 100) return
    const rawPageSize = header.readUInt16BE(16)
    const pageSize = rawPageSize === 1 ? 65536 : rawPageSize
    const expected = pageSize * header.readUInt32BE(28)
    const actual = fstatSync(fd).size
    // Only a plausible header: a power-of-two page size, and no more than a truncation could
    // have cut off (garbage in these bytes must not grow the copy without bound).
    const plausible = pageSize >= 512 && (pageSize & (pageSize - 1)) === 0
    if (plausible && expected > actual && expected <= actual * 64) ftruncateSync(fd, expected)
  } finally {
    closeSync(fd)
  }
}

function columnsOf(db: Database.Database, table: string): string[] {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name)
}

function copyTable(
  source: Database.Database,
  target: Database.Database,
  table: string
): SalvagedTable {
  const result: SalvagedTable = { table, copied: 0, unreadable: 0, invalid: 0, unknownLoss: false }
  let sourceColumns: string[]
  try {
    sourceColumns = columnsOf(source, table)
  } catch {
    sourceColumns = []
  }
  const columns = columnsOf(target, table).filter((c) => sourceColumns.includes(c))
  if (columns.length === 0) return result // the table did not exist yet in that version

  const list = columns.map((c) => `"${c}"`).join(', ')
  const select = source.prepare(
    `SELECT ${list} FROM "${table}" WHERE rowid BETWEEN ? AND ? ORDER BY rowid`
  )
  const insert = target.prepare(
    `INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')})`
  )
  const bounds = rowidBounds(source, table)
  let failedIds = 0
  let queries = 0
  const pending: [number, number][] = []
  if (Array.isArray(bounds)) {
    for (let lo = bounds[0]; lo <= bounds[1]; lo += RANGE) {
      pending.push([lo, Math.min(bounds[1], lo + RANGE - 1)])
    }
  }
  pending.reverse()
  while (pending.length > 0) {
    const [lo, hi] = pending.pop() as [number, number]
    if (++queries > MAX_QUERIES_PER_TABLE) {
      failedIds += hi - lo + 1
      continue
    }
    let rows: unknown[][]
    try {
      rows = select.raw().all(lo, hi) as unknown[][]
    } catch {
      if (lo === hi) failedIds++
      else {
        const mid = Math.floor((lo + hi) / 2)
        pending.push([mid + 1, hi], [lo, mid])
      }
      continue
    }
    target.transaction(() => {
      for (const row of rows) {
        try {
          if (insert.run(...row).changes > 0) result.copied++
          else result.invalid++
        } catch {
          result.invalid++ // readable but no longer valid (a CHECK or a garbled value)
        }
      }
    })()
  }
  // An index names every row the table had; its count makes the loss exact where ids are sparse.
  const expected = indexedRowCount(source, table)
  if (bounds === 'unreadable' && expected === null) result.unknownLoss = true
  result.unreadable =
    expected === null ? failedIds : Math.max(0, expected - result.copied - result.invalid)
  return result
}

/** The first and last row id; null for an empty table. */
function rowidBounds(db: Database.Database, table: string): [number, number] | null | 'unreadable' {
  try {
    const row = db.prepare(`SELECT min(rowid) AS lo, max(rowid) AS hi FROM "${table}"`).get() as {
      lo: number | null
      hi: number | null
    }
    return row.lo === null || row.hi === null ? null : [row.lo, row.hi]
  } catch {
    return 'unreadable'
  }
}

function indexedRowCount(db: Database.Database, table: string): number | null {
  let indexes: { name: string; partial: number }[]
  try {
    indexes = db.pragma(`index_list(${table})`) as { name: string; partial: number }[]
  } catch {
    return null
  }
  for (const index of indexes.filter((i) => i.partial === 0)) {
    try {
      return db
        .prepare(`SELECT count(*) FROM "${table}" INDEXED BY "${index.name}"`)
        .pluck()
        .get() as number
    } catch {
      // this index is damaged too; try the next one
    }
  }
  return null
}

/**
 * Rows whose parent was unreadable. Messages keep their conversation (a thread is recreated
 * around them); memories lose only their link to the source; records that exist only for a
 * parent (usage, builds, summaries of threads with nothing left) go. Returns threads recreated.
 */
function repairReferences(db: Database.Database): number {
  return db.transaction(() => {
    const recreated = db
      .prepare(
        `INSERT INTO threads (id, title, created_at, updated_at)
         SELECT thread_id, ?, min(created_at), max(created_at) FROM messages
         WHERE thread_id NOT IN (SELECT id FROM threads) GROUP BY thread_id`
      )
      .run(RECOVERED_THREAD_TITLE).changes
    db.exec(`
      DELETE FROM thread_summaries WHERE thread_id NOT IN (SELECT id FROM threads);
      DELETE FROM import_keys WHERE thread_id NOT IN (SELECT id FROM threads);
      DELETE FROM summary_versions WHERE thread_id NOT IN (SELECT id FROM threads);
      DELETE FROM context_builds WHERE thread_id NOT IN (SELECT id FROM threads);
      -- The sidebar's per-thread stats are derived from the newest build: rebuilt, not copied.
      INSERT INTO thread_build_stats (thread_id, build_id, created_at, stats)
        SELECT thread_id, id, created_at, json_extract(built, '$.tokenStats') FROM context_builds
         WHERE id IN (SELECT max(id) FROM context_builds GROUP BY thread_id)
           AND json_type(built, '$.tokenStats') = 'object';
      UPDATE context_builds SET message_id = NULL
        WHERE message_id IS NOT NULL AND message_id NOT IN (SELECT id FROM messages);
      DELETE FROM message_usage WHERE message_id NOT IN (SELECT id FROM messages);
      UPDATE message_usage SET superseded_by = NULL
        WHERE superseded_by IS NOT NULL AND superseded_by NOT IN (SELECT id FROM messages);
      UPDATE threads SET forked_from_thread_id = NULL, forked_from_seq = NULL
        WHERE forked_from_thread_id IS NOT NULL
          AND forked_from_thread_id NOT IN (SELECT id FROM threads);
      UPDATE memories SET source_thread_id = NULL
        WHERE source_thread_id IS NOT NULL AND source_thread_id NOT IN (SELECT id FROM threads);
      UPDATE memories SET source_message_id = NULL
        WHERE source_message_id IS NOT NULL AND source_message_id NOT IN (SELECT id FROM messages);
      -- An attachment without its file has nothing to give back; one whose thread is gone has
      -- nowhere to show. One whose message is gone returns to its thread's composer as a draft.
      DELETE FROM attachments WHERE file_hash NOT IN (SELECT hash FROM files)
        OR thread_id NOT IN (SELECT id FROM threads);
      UPDATE attachments SET message_id = NULL
        WHERE message_id IS NOT NULL AND message_id NOT IN (SELECT id FROM messages);
    `)
    return recreated
  })()
}
