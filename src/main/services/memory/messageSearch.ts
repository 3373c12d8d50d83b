import type { VectorHit, VectorQuery, VectorStore } from '../../store/vectors/vectorStore'
import type { VectorSpace } from '../../store/vectors/vectorSpaces'
import type { SearchWorkers } from '../../workers/search/searchWorkerClient'
import type { FullTextIds, FullTextQuery } from '../../store/search/fullTextIds'

/**
 * Where memory search finds its nearest messages and reads its full-text lists: in the message
 * vector worker when the app has one (workers/search/searchWorker.ts), else on this thread
 * (tests, the CLI tools, the evaluator). Either way from the same store code, so the results
 * are the same.
 */
export interface MessageSearch {
  /** Each query's nearest messages, in one scan (VectorStore.nearestMessagesEach). */
  nearest(
    space: VectorSpace,
    queries: readonly VectorQuery[],
    threadId?: string
  ): Promise<VectorHit[][]>
  /** Loads the space's message index ahead of the first search. */
  preload(space: VectorSpace): Promise<void>
  /** The full-text lists; `here` reads them on this thread's connection. */
  fullText(query: FullTextQuery, here: () => FullTextIds): Promise<FullTextIds>
}

export function inProcessMessageSearch(vectors: VectorStore): MessageSearch {
  return {
    nearest: async (space, queries, threadId) =>
      vectors.nearestMessagesEach(space, queries, threadId),
    preload: (space) => vectors.preload(space),
    fullText: async (_query, here) => here()
  }
}

/**
 * Searches in the worker, which `vectors` tells of every vector it writes. Should the worker
 * fail, search goes on in process (the index loads here on the next search) and says so once.
 */
export function workerMessageSearch(
  vectors: VectorStore,
  workers: SearchWorkers,
  log: (message: string, error: unknown) => void
): MessageSearch {
  const client = workers.vectors
  const local = inProcessMessageSearch(vectors)
  vectors.forwardIndexedTo((spaceId, rows) => client.indexed(spaceId, rows))
  let reported = false
  const fallBack = (error: unknown) => {
    if (!reported) log('the search worker failed; searching on the main thread', error)
    reported = true
  }
  return {
    nearest: (space, queries, threadId) =>
      client.nearest(space, queries, threadId).catch((error: unknown) => {
        fallBack(error)
        return local.nearest(space, queries, threadId)
      }),
    preload: (space) =>
      client.preload(space).catch((error: unknown) => {
        fallBack(error)
        return local.preload(space)
      }),
    fullText: (query, here) =>
      workers.fullText.fullText(query).catch((error: unknown) => {
        fallBack(error)
        return here()
      })
  }
}
