/** Messages between the main process and the search worker (searchWorker.ts). */
import type { VectorHit, VectorQuery } from '../../store/vectors/vectorStore'
import type { VectorSpace } from '../../store/vectors/vectorSpaces'
import type { IndexedVector } from '../../store/vectors/vectorIndexCache'
import type { FullTextIds, FullTextQuery } from '../../store/search/fullTextIds'

export interface SearchWorkerData {
  databasePath: string
  /** better-sqlite3 built for Electron's ABI, when it is not the copy in node_modules. */
  nativeBinding?: string
  /** Checkpoint the store's write-ahead log this often (store/walCheckpoints.ts). */
  checkpointEveryMs?: number
}

export type ToSearchWorker =
  | { type: 'preload'; id: number; space: VectorSpace }
  | { type: 'indexed'; spaceId: number; rows: IndexedVector[] }
  | {
      type: 'nearest'
      id: number
      space: VectorSpace
      queries: VectorQuery[]
      threadId?: string
    }
  | ({ type: 'fullText'; id: number } & FullTextQuery)

export type FromSearchWorker =
  | { type: 'done'; id: number; lists?: VectorHit[][]; ids?: FullTextIds }
  | { type: 'error'; id: number; message: string }
