/**
 * An in-memory `window.api.memory` (and `messages.remember`) for renderer tests of the memory
 * UI: real state, the same result shapes as main, no model. fakeApi.ts wires it into the fake
 * backend (as `backend.memory`); `related` stands in for the embedding model's matches.
 */
import { DEFAULT_EMBEDDING_MODEL_ID } from '@shared/embeddingModelIds'
import type { Api } from '@shared/api'
import type {
  Memory,
  MemoryCategory,
  MemoryHistoryEntry,
  MemorySearchHit,
  MemoryStatus,
  Role
} from '@shared/domain'
import { fail, ok } from '@shared/result'

export interface FakeMemoryApi {
  memory: Api['memory']
  remember: Api['messages']['remember']
  /** The memories as stored, for assertions. */
  memories: Map<number, Memory>
  status: MemoryStatus
  /** What "the model" finds related to a query (vector hits); nothing unless a test says so. */
  related: (query: string) => MemorySearchHit[]
}

/** A stored message as the fake backend knows it. */
export interface FakeSourceMessage {
  content: string
  threadId: string
  threadTitle?: string
  seq?: number
  role?: Role
  createdAt?: number
}

export function createFakeMemoryApi(
  options: {
    now?: () => number
    /** A stored message, for `messages.remember` and a memory's origin. */
    message?: (id: number) => FakeSourceMessage | undefined
    /** Called like main's `memory:changed` event. */
    changed?: (memoryId: number) => void
  } = {}
): FakeMemoryApi {
  // A second per reading, so "newest first" has an order to show.
  let clock = Date.UTC(2025, 0, 15, 9, 0, 0)
  const now = options.now ?? (() => (clock += 1000))
  const memories = new Map<number, Memory>()
  const history: MemoryHistoryEntry[] = []
  let nextId = 1
  const status: MemoryStatus = {
    model: {
      state: 'ready',
      id: 'Xenova/bge-small-zh-v1.5',
      dimension: 512,
      progress: [],
      error: null
    },
    index: {
      pendingMessages: 0,
      pendingMemories: 0,
      failed: 0,
      indexedMessages: 0,
      indexedMemories: 0,
      totalMessages: 0,
      totalMemories: 0,
      reembedding: false,
      itemsPerSecond: null,
      secondsLeft: null
    },
    warning: null
  }
  const record = (
    memory: Memory,
    action: MemoryHistoryEntry['action'],
    reason: string,
    before?: Memory
  ) =>
    history.push({
      id: history.length + 1,
      memoryId: memory.id,
      action,
      reason,
      content: memory.content,
      category: memory.category,
      previousContent: before?.content ?? null,
      previousCategory: before?.category ?? null,
      sourceThreadId: memory.sourceThreadId,
      sourceMessageId: memory.sourceMessageId,
      createdAt: now()
    })
  const create = (
    content: string,
    category: MemoryCategory,
    threadId: string | null,
    messageId: number | null
  ) => {
    const existing = [...memories.values()].find(
      (m) => m.content.toLowerCase() === content.toLowerCase()
    )
    if (existing)
      return ok({
        memory: existing,
        action: 'unchanged' as const,
        dedup: 'hash' as const,
        similarity: null
      })
    const memory: Memory = {
      id: nextId++,
      content,
      category,
      sourceThreadId: threadId,
      sourceMessageId: messageId,
      contentHash: content.toLowerCase(),
      createdAt: now(),
      updatedAt: now()
    }
    memories.set(memory.id, memory)
    record(memory, 'create', messageId === null ? 'explicit' : 'remember_message')
    changed(memory.id)
    return ok({ memory, action: 'created' as const, dedup: null, similarity: null })
  }
  const missing = () => fail({ code: 'not_found', message: 'This memory no longer exists.' })
  const changed = (memoryId: number) => options.changed?.(memoryId)

  const memory: Api['memory'] = {
    list: async (input) => {
      const items = [...memories.values()]
        .filter((m) => !input?.category || m.category === input.category)
        .filter((m) => !input?.query || m.content.toLowerCase().includes(input.query.toLowerCase()))
        .sort((a, b) => b.updatedAt - a.updatedAt)
      const offset = input?.offset ?? 0
      return ok({ items: items.slice(offset, offset + (input?.limit ?? 100)), total: items.length })
    },
    create: async (input) => {
      const source =
        input.sourceMessageId === undefined ? undefined : options.message?.(input.sourceMessageId)
      return create(
        input.content.trim(),
        input.category ?? 'other',
        source?.threadId ?? null,
        input.sourceMessageId ?? null
      )
    },
    update: async ({ id, content, category }) => {
      const before = memories.get(id)
      if (!before) return missing()
      const after = {
        ...before,
        content: content ?? before.content,
        category: category ?? before.category,
        updatedAt: now()
      }
      memories.set(id, after)
      record(after, 'update', 'edit', before)
      changed(id)
      return ok(after)
    },
    delete: async ({ id }) => {
      const before = memories.get(id)
      if (!before) return missing()
      memories.delete(id)
      record(before, 'delete', 'user_delete')
      changed(id)
      return ok({ deleted: true as const, id })
    },
    restore: async ({ id }) => {
      const last = history.filter((h) => h.memoryId === id).at(-1)
      if (!last || last.action !== 'delete') return missing()
      const restored: Memory = {
        id,
        content: last.content,
        category: last.category,
        sourceThreadId: last.sourceThreadId,
        sourceMessageId: last.sourceMessageId,
        contentHash: last.content.toLowerCase(),
        createdAt: now(),
        updatedAt: now()
      }
      memories.set(id, restored)
      record(restored, 'restore', 'undo_delete')
      changed(id)
      return ok(restored)
    },
    origin: async ({ id }) => {
      const found = memories.get(id)
      if (!found) return missing()
      const message =
        found.sourceMessageId === null ? undefined : options.message?.(found.sourceMessageId)
      const source = message && {
        threadId: message.threadId,
        threadTitle: message.threadTitle ?? '',
        messageId: found.sourceMessageId,
        seq: message.seq ?? null,
        role: message.role ?? null,
        excerpt: message.content.slice(0, 200),
        createdAt: message.createdAt ?? null
      }
      return ok({
        memory: found,
        source: source ?? null,
        history: history.filter((h) => h.memoryId === id)
      })
    },
    search: async ({ query, kinds }) => {
      const related = fake.related(query).filter((hit) => !kinds || kinds.includes(hit.kind))
      const hits = [...memories.values()]
        .filter((m) => m.content.toLowerCase().includes(query.toLowerCase()))
        .map((m) => ({
          kind: 'memory' as const,
          ref: `memory:${m.id}`,
          id: m.id,
          content: m.content,
          score: 1,
          similarity: null,
          cosine: null,
          matchedBy: ['text' as const],
          category: m.category,
          threadId: m.sourceThreadId,
          threadTitle: null,
          messageId: m.sourceMessageId,
          seq: null,
          role: null,
          createdAt: m.updatedAt
        }))
      const texts = !kinds || kinds.includes('memory') ? hits : []
      return ok({
        hits: [...related, ...texts],
        mode: related.length > 0 ? ('hybrid' as const) : ('text_only' as const),
        warnings: [],
        tookMs: 0
      })
    },
    status: async () => ok(status),
    getSettings: async () =>
      ok({
        modelFolder: null,
        embeddingModel: DEFAULT_EMBEDDING_MODEL_ID,
        allowDownload: true,
        autoExtract: true
      }),
    updateSettings: async (patch) =>
      ok({
        modelFolder: patch.modelFolder ?? null,
        embeddingModel: patch.embeddingModel ?? DEFAULT_EMBEDDING_MODEL_ID,
        allowDownload: patch.allowDownload ?? true,
        autoExtract: patch.autoExtract ?? true,
        indexingThreads: patch.indexingThreads ?? null
      })
  }

  const remember: Api['messages']['remember'] = async ({ id, category }) => {
    const message = options.message?.(id)
    if (!message) return fail({ code: 'not_found', message: 'This message no longer exists.' })
    return create(message.content, category ?? 'user_preference', message.threadId, id)
  }

  const fake: FakeMemoryApi = { memory, remember, memories, status, related: () => [] }
  return fake
}
