import type Database from 'better-sqlite3'
import type { Role, SearchHit } from '@shared/domain'
import { INDEXED_CHARS } from '../schema/searchIndexBounds'
import { isRepetitive, MAX_TERM_CHARS } from './queryTerms'

/** The trigram tokenizer indexes 3-character windows; shorter terms cannot use the index. */
const TRIGRAM = 3
const MAX_TERMS = 8
const SNIPPET_BEFORE = 30
const SNIPPET_LENGTH = 140

/**
 * Words of the query. Control characters (a NUL from a paste) separate words like spaces do:
 * SQLite would cut an FTS string at a NUL, and nobody means to search for one. A long word is
 * searched by its first 32 characters (a row holding it holds those), and a repetitive one
 * not at all: either would cost seconds of the main thread (queryTerms.ts).
 */
export function splitTerms(query: string): string[] {
  const terms = query
    .split(/[\s\p{Cc}]+/u)
    .map((term) => [...term.trim()].slice(0, MAX_TERM_CHARS).join(''))
    .filter((term) => term && !isRepetitive(term))
  return [...new Set(terms)].slice(0, MAX_TERMS)
}

/** Each term becomes an FTS5 string literal, so user text can never be read as query syntax. */
export function toMatchExpression(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ')
}

export function toLikePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

const charLength = (text: string) => [...text].length

/** A plain-text excerpt starting shortly before the first term found (case-insensitive). */
export function makeSnippet(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/gu, ' ').trim()
  const lower = flat.toLowerCase()
  const positions = terms
    .map((term) => lower.indexOf(term.toLowerCase()))
    .filter((index) => index >= 0)
  const first = positions.length > 0 ? Math.min(...positions) : 0
  const start = Math.max(0, first - SNIPPET_BEFORE)
  const excerpt = flat.slice(start, start + SNIPPET_LENGTH)
  return `${start > 0 ? '…' : ''}${excerpt}${start + SNIPPET_LENGTH < flat.length ? '…' : ''}`
}

interface MessageHitRow {
  id: number
  thread_id: string
  title: string
  seq: number
  role: Role
  content: string
  created_at: number
}

interface ThreadHitRow {
  id: string
  title: string
  updated_at: number
}

/**
 * Full-text search over message text and thread titles, in any language. Terms of 3+
 * characters go through the trigram FTS index (ranked by BM25); shorter ones, such as most
 * Chinese words (两字词) or "AI", are matched with LIKE over the candidates, or over the
 * table when the query has no long term at all.
 */
export class SearchRepository {
  constructor(private readonly db: Database.Database) {}

  search(query: string, limit: number): SearchHit[] {
    const terms = splitTerms(query)
    if (terms.length === 0) return []
    const long = terms.filter((term) => charLength(term) >= TRIGRAM)
    const short = terms.filter((term) => charLength(term) < TRIGRAM)
    const threads = this.searchThreads(long, short, limit)
    const messages = this.searchMessages(long, short, limit)
    return [...threads, ...messages.map((row) => toMessageHit(row, terms))].slice(0, limit)
  }

  /**
   * A message is searched, and its snippet made, by the part the full-text index holds (its
   * first INDEXED_CHARS characters): reading and flattening a stored 2 M-character paste for
   * its snippet held the main thread for 0.2 s per hit.
   */
  private searchMessages(long: string[], short: string[], limit: number): MessageHitRow[] {
    const head = `substr(m.content, 1, ${INDEXED_CHARS})`
    const likeClauses = short.map(() => `${head} LIKE ? ESCAPE '\\'`)
    const likeParams = short.map(toLikePattern)
    const columns = `m.id, m.thread_id, t.title, m.seq, m.role, ${head} AS content, m.created_at`
    if (long.length > 0) {
      return this.db
        .prepare(
          `SELECT ${columns}
             FROM messages_fts f
             JOIN messages m ON m.id = f.rowid
             JOIN threads t ON t.id = m.thread_id
            WHERE messages_fts MATCH ? ${likeClauses.map((c) => `AND ${c}`).join(' ')}
            ORDER BY f.rank
            LIMIT ?`
        )
        .all(toMatchExpression(long), ...likeParams, limit) as MessageHitRow[]
    }
    return this.db
      .prepare(
        `SELECT ${columns}
           FROM messages m
           JOIN threads t ON t.id = m.thread_id
          WHERE ${likeClauses.join(' AND ')}
          ORDER BY m.created_at DESC
          LIMIT ?`
      )
      .all(...likeParams, limit) as MessageHitRow[]
  }

  private searchThreads(long: string[], short: string[], limit: number): SearchHit[] {
    const likeClauses = short.map(() => `t.title LIKE ? ESCAPE '\\'`)
    const likeParams = short.map(toLikePattern)
    const rows =
      long.length > 0
        ? (this.db
            .prepare(
              `SELECT t.id, t.title, t.updated_at
                 FROM threads_fts f
                 JOIN threads t ON t.id = f.thread_id
                WHERE threads_fts MATCH ? ${likeClauses.map((c) => `AND ${c}`).join(' ')}
                ORDER BY f.rank
                LIMIT ?`
            )
            .all(toMatchExpression(long), ...likeParams, limit) as ThreadHitRow[])
        : (this.db
            .prepare(
              `SELECT t.id, t.title, t.updated_at FROM threads t
                WHERE ${likeClauses.join(' AND ')}
                ORDER BY t.updated_at DESC
                LIMIT ?`
            )
            .all(...likeParams, limit) as ThreadHitRow[])
    return rows.map((row) => ({
      kind: 'thread',
      threadId: row.id,
      threadTitle: row.title,
      messageId: null,
      seq: null,
      role: null,
      snippet: row.title,
      createdAt: row.updated_at
    }))
  }
}

function toMessageHit(row: MessageHitRow, terms: string[]): SearchHit {
  return {
    kind: 'message',
    threadId: row.thread_id,
    threadTitle: row.title,
    messageId: row.id,
    seq: row.seq,
    role: row.role,
    snippet: makeSnippet(row.content, terms),
    createdAt: row.created_at
  }
}
