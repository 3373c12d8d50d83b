import type Database from 'better-sqlite3'

/**
 * Top-k full-text search that never ranks every match (issue #16).
 *
 * FTS5's `ORDER BY rank` scores every row that matches any term, and its bm25() first counts,
 * for each term, every row that holds it: on a 100,000-message store, a question made of common
 * words ranks most of the store (0.7 s here). Rows in newest-first order, though, come off the
 * index lazily: `ORDER BY rowid DESC LIMIT n` stops after n.
 *
 * So each term is read on its own, newest first, at most `cap` rows:
 * - when every term has fewer matches than `cap` (every small store, and any question with rare
 *   words only), the candidate set is small and FTS5's own BM25 ranks it: exactly the old result;
 * - otherwise the candidates are the union of the per-term lists: every match of every rare term
 *   (those are the discriminating ones) and the newest `cap` matches of each common term. They
 *   are scored by the BM25 weight of the terms they hold (the inverse document frequency; a
 *   common term's frequency is estimated from how densely its newest matches are packed), and
 *   ties go to the newer row. A row that holds only common terms and is older than their newest
 *   `cap` matches is not considered: for such a row the text says little anyway.
 */

export interface TopKOptions {
  /** The FTS5 table (`messages_fts`, `memories_fts`); its rowid is the item's id. */
  table: string
  /** Quoted FTS5 literals, one per term (memoryRanking.ts). */
  terms: readonly string[]
  limit: number
  /** Rows read per term at most; at least `limit`. */
  cap: number
  /**
   * Which rows may be returned, as an SQL condition on `<table>.rowid` (excluded messages,
   * roles, a thread), applied while reading, so a list holds `cap` eligible rows.
   */
  where?: { sql: string; params: readonly unknown[] }
  /**
   * The condition keeps few rows (one thread of many): apply it while reading each term's
   * list. Otherwise it is checked on the best candidates only, since a per-row check while
   * reading cost five times the read (12 Chinese trigrams at 100,000 messages: 111 ms, 22 ms).
   */
  narrow?: boolean
}

/**
 * Rows read per term: twice what is asked for, at least 1,000. On a store where no query term
 * reaches it (every LoCoMo and LongMemEval store, about 600 messages at most) the result is
 * exactly FTS5's ranking; at 100,000 messages 24 terms read in about 20 ms.
 */
export const fullTextCap = (limit: number): number => Math.max(1_000, 2 * limit)

/** The inverse document frequency as BM25 (Lucene's form, never negative). */
const idf = (total: number, matches: number): number =>
  Math.log(1 + (total - matches + 0.5) / (matches + 0.5))

export function fullTextTopK(db: Database.Database, options: TopKOptions): number[] {
  const { table, terms, limit } = options
  if (terms.length === 0 || limit <= 0) return []
  const cap = Math.max(options.cap, limit)
  const where = options.where ? `AND ${options.where.sql}` : ''
  const params = options.where?.params ?? []
  const readWhere = options.narrow ? where : ''
  const readParams = options.narrow ? params : []
  const perTerm = db
    .prepare(
      `SELECT rowid FROM ${table} WHERE ${table} MATCH ? ${readWhere} ORDER BY rowid DESC LIMIT ?`
    )
    .pluck()
  const lists = terms.map((term) => perTerm.all(term, ...readParams, cap) as number[])

  if (lists.every((ids) => ids.length < cap)) {
    // Small candidate set: FTS5's BM25 over it is cheap and exactly what it always returned.
    return db
      .prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ${where} ORDER BY rank LIMIT ?`)
      .pluck()
      .all(terms.join(' OR '), ...params, limit) as number[]
  }

  const total = Math.max(
    1,
    (db.prepare(`SELECT max(rowid) FROM ${table}`).pluck().get() as number | null) ?? 0
  )
  const scores = new Map<number, number>()
  for (const ids of lists) {
    let matches = ids.length
    if (ids.length >= cap) {
      // The newest `cap` matches spread over rowids newest..oldest: as dense over the table.
      const span = (ids[0] as number) - (ids[ids.length - 1] as number) + 1
      matches = Math.min(total, Math.round((ids.length / span) * total))
    }
    const weight = idf(total, matches)
    for (const id of ids) scores.set(id, (scores.get(id) ?? 0) + weight)
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).map(([id]) => id)
  if (!where || options.narrow) return ranked.slice(0, limit)
  // The best candidates that pass the condition, checked a batch at a time.
  const out: number[] = []
  const batch = Math.max(256, 2 * limit)
  for (let i = 0; i < ranked.length && out.length < limit; i += batch) {
    const ids = ranked.slice(i, i + batch)
    const kept = new Set(
      db
        .prepare(`SELECT rowid FROM ${table} WHERE rowid IN (${ids.join(',')}) ${where}`)
        .pluck()
        .all(...params) as number[]
    )
    for (const id of ids) if (kept.has(id) && out.length < limit) out.push(id)
  }
  return out
}
