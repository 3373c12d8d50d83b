/**
 * The search worker: a worker_threads entry (out/main/searchWorker.js) that holds
 * the message code index (store/vectors/messageCodeIndex.ts) and answers nearest-message searches on
 * its own read connection, so that memory search's largest part runs beside the main thread's
 * full-text search and memory list instead of after them, and the index's load at start-up
 * (every message vector read once, 150 MB at 100,000 messages) never holds the main thread.
 * Writes stay on the main connection, which tells this worker what it wrote (`indexed`).
 *
 * A second instance answers memory search's full-text lists (issue #22; SearchWorkers in
 * searchWorkerClient.ts): better-sqlite3 cannot interrupt a query, so a full-text query that
 * runs long runs there, where it holds no one up; the main thread stops waiting at its
 * deadline and builds with what it has. That instance also checkpoints the store's
 * write-ahead log (store/walCheckpoints.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from '../../store/database'
import { MemoryRepository } from '../../store/memoryRepository'
import { fullTextIds } from '../../store/search/fullTextIds'
import { RecallRepository } from '../../store/search/recallRepository'
import { VectorStore } from '../../store/vectors/vectorStore'
import { checkpointEvery } from '../../store/walCheckpoints'
import type { FromSearchWorker, SearchWorkerData, ToSearchWorker } from './searchWorkerProtocol'

const data = workerData as SearchWorkerData
const port = parentPort
const db = openDatabase(data.databasePath, {
  quickCheckMaxBytes: 0,
  ...(data.nativeBinding && { nativeBinding: data.nativeBinding })
})
if (data.checkpointEveryMs) checkpointEvery(db, data.checkpointEveryMs)
const vectors = new VectorStore(db)
const memories = new MemoryRepository(db)
const recall = new RecallRepository(db)
const post = (message: FromSearchWorker) => port?.postMessage(message)

port?.on('message', (message: ToSearchWorker) => {
  void answer(message)
})

async function answer(message: ToSearchWorker): Promise<void> {
  if (message.type === 'indexed') {
    vectors.indexMessages(message.spaceId, message.rows)
    return
  }
  try {
    if (message.type === 'preload') {
      await vectors.preload(message.space)
      post({ type: 'done', id: message.id })
    } else if (message.type === 'fullText') {
      const { id, ...query } = message
      post({ type: 'done', id, ids: fullTextIds(memories, recall, query) })
    } else {
      const { space, queries, threadId } = message
      post({
        type: 'done',
        id: message.id,
        lists: vectors.nearestMessagesEach(space, queries, threadId)
      })
    }
  } catch (error) {
    post({
      type: 'error',
      id: message.id,
      message: error instanceof Error ? error.message : String(error)
    })
  }
}
