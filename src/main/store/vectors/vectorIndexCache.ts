import type Database from 'better-sqlite3'
import { yieldToEventLoop } from '@shared/eventLoop'
import { MemoryVectorIndex } from './memoryVectorIndex'
import { MessageCodeIndex } from './messageCodeIndex'
import { floats } from './vectorBlobs'
import { tables, type VectorSpace } from './vectorSpaces'

/** A message vector as written: what a code index (here or in a worker) takes. */
export interface IndexedVector {
  id: number
  threadId: string
  code: Uint8Array
  vector: Float32Array
}

type IndexedMessage = Omit<IndexedVector, 'id'>

/** message_id, thread_id, code, embedding */
type IndexRow = [number, string, Buffer, Buffer]
/** memory_id, embedding, category */
type MemoryRow = [number, Buffer, string]

/** Rows read per slice when the code index loads in the background (about 5 ms each). */
const PRELOAD_SLICE = 5_000
/** Memory rows read per slice of their load (vec0 reads them slower: about 20 ms each). */
const MEMORY_SLICE = 1_000

/**
 * The in-memory copies of a space's vectors that searches read: message codes
 * (MessageCodeIndex) and memory vectors (MemoryVectorIndex). Each loads in slices in the
 * background or, when a search comes first, at once; writes committed meanwhile are kept in
 * step, so a finished load never misses one.
 */
export class VectorIndexCache {
  /** Code indexes by space id, loaded on first search and kept in step by indexMessages. */
  private readonly codeIndexes = new Map<number, MessageCodeIndex>()
  /** Memory vectors by space id, loaded at warm-up (or the first search), kept in step here. */
  private readonly memoryIndexes = new Map<number, MemoryVectorIndex>()
  /** Memory indexes loading in slices: kept in step by writes, like a finished one. */
  private readonly memoryLoads = new Map<number, MemoryVectorIndex>()
  /** Background loads in progress: codes written meanwhile wait here (newest wins). */
  private readonly preloads = new Map<number, Map<number, IndexedMessage>>()

  constructor(private readonly db: Database.Database) {}

  /** Forgets a dropped space's copies. */
  forget(spaceId: number): void {
    this.codeIndexes.delete(spaceId)
    this.memoryIndexes.delete(spaceId)
  }

  /** The space's codes lost rows to deletes: reloaded by the next search. */
  invalidateCodes(spaceId: number): void {
    this.codeIndexes.delete(spaceId)
  }

  /** Adds committed message vectors to the space's code index, or to its load in progress. */
  indexMessages(spaceId: number, rows: readonly IndexedVector[]): void {
    const index = this.codeIndexes.get(spaceId)
    const pending = this.preloads.get(spaceId)
    for (const { id, ...row } of rows) {
      index?.add(id, row.threadId, row.code, row.vector)
      pending?.set(id, row)
    }
  }

  /** Adds committed memory vectors to the space's index, loaded or loading. */
  indexMemories(
    spaceId: number,
    rows: readonly { id: number; vector: Float32Array; category: string }[]
  ): void {
    const index = this.memoryIndexes.get(spaceId) ?? this.memoryLoads.get(spaceId)
    for (const row of rows) index?.put(row.id, row.vector, row.category)
  }

  setMemoryCategory(spaceId: number, memoryId: number, category: string): void {
    const index = this.memoryIndexes.get(spaceId) ?? this.memoryLoads.get(spaceId)
    index?.setCategory(memoryId, category)
  }

  /**
   * Loads the space's code index in slices that give the event loop back, so the first search
   * after start-up does not pay for it (about 0.5 s at 100,000 messages, issue #16). A search
   * that comes first loads it at once, and this load then stops, as it does when `space`
   * stops being the active one.
   */
  async preload(
    space: VectorSpace,
    isActive: (spaceId: number) => boolean,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    // Only the active space is searched: a worker's index of a replaced model goes (main's
    // goes when the space is dropped, which a worker does not see).
    for (const id of this.codeIndexes.keys()) if (id !== space.id) this.codeIndexes.delete(id)
    if (this.codeIndexes.has(space.id) || this.preloads.has(space.id)) return
    const pending = new Map<number, IndexedMessage>()
    this.preloads.set(space.id, pending)
    try {
      const index = new MessageCodeIndex(space.dimension / 8)
      const slice = this.db.prepare(
        `SELECT message_id, thread_id, code, embedding FROM ${tables(space).messages}
          WHERE message_id > ? ORDER BY message_id LIMIT ${PRELOAD_SLICE}`
      )
      let after = 0
      for (;;) {
        if (!this.db.open || this.codeIndexes.has(space.id) || !isActive(space.id)) return
        const rows = slice.raw().all(after) as IndexRow[]
        for (const [id, thread, code, embedding] of rows) {
          if (!pending.has(id)) index.add(id, thread, code, floats(embedding))
        }
        if (rows.length < PRELOAD_SLICE) break
        after = (rows[rows.length - 1] as IndexRow)[0]
        await yieldToEvents()
      }
      // Codes written while loading (the scan may have read them before or after the write).
      for (const [id, { threadId, code, vector }] of pending) index.add(id, threadId, code, vector)
      this.codeIndexes.set(space.id, index)
    } finally {
      this.preloads.delete(space.id)
    }
  }

  /** The space's code index, loaded at once if no load has finished. */
  codeIndex(space: VectorSpace): MessageCodeIndex {
    let index = this.codeIndexes.get(space.id)
    if (!index) {
      index = new MessageCodeIndex(space.dimension / 8)
      const rows = this.db
        .prepare(`SELECT message_id, thread_id, code, embedding FROM ${tables(space).messages}`)
        .raw()
        .iterate() as IterableIterator<IndexRow>
      for (const [id, thread, code, embedding] of rows) {
        index.add(id, thread, code, floats(embedding))
      }
      this.codeIndexes.set(space.id, index)
    }
    return index
  }

  /**
   * Loads the space's memory vectors at start-up, not on the first search, in slices that give
   * the event loop back (10,000 memories took 160 ms at once). A search that comes first loads
   * them at once, and this load then stops.
   */
  async loadMemories(
    space: VectorSpace,
    yieldToEvents: () => Promise<unknown> = yieldToEventLoop
  ): Promise<void> {
    if (this.memoryIndexes.has(space.id) || this.memoryLoads.has(space.id)) return
    const index = new MemoryVectorIndex(space.dimension)
    this.memoryLoads.set(space.id, index)
    try {
      const slice = this.db.prepare(
        `SELECT memory_id, embedding, category FROM ${tables(space).memories}
          WHERE memory_id > ? ORDER BY memory_id LIMIT ${MEMORY_SLICE}`
      )
      let after = 0
      for (;;) {
        if (!this.db.open || this.memoryIndexes.has(space.id)) return
        const rows = slice.raw().all(after) as MemoryRow[]
        // A row written meanwhile reads as written, so `put` in either order leaves it right.
        for (const [id, embedding, category] of rows) index.put(id, floats(embedding), category)
        if (rows.length < MEMORY_SLICE) break
        after = (rows[rows.length - 1] as MemoryRow)[0]
        await yieldToEvents()
      }
      this.memoryIndexes.set(space.id, index)
    } finally {
      this.memoryLoads.delete(space.id)
    }
  }

  /** The space's memory index, loaded at once if no load has finished. */
  memoryIndex(space: VectorSpace): MemoryVectorIndex {
    let index = this.memoryIndexes.get(space.id)
    if (!index) {
      index = new MemoryVectorIndex(space.dimension)
      const rows = this.db
        .prepare(`SELECT memory_id, embedding, category FROM ${tables(space).memories}`)
        .raw()
        .iterate() as IterableIterator<MemoryRow>
      for (const [id, embedding, category] of rows) index.put(id, floats(embedding), category)
      this.memoryIndexes.set(space.id, index)
    }
    return index
  }
}
