/**
 * The evaluator: for every question, the context the app would send, and whether the messages
 * holding the answer are in it.
 *
 * Each group of questions that see the same history gets a real store (a temporary SQLite
 * file, the app's migrations), filled through the app's repositories with the messages' own
 * times, and the app's services over it (`createServices`, as in Electron and the e2e
 * harness). The app's indexer embeds everything with the real model, through an on-disk cache;
 * then every question is built with `ContextBuildService.preview(thread, question, {totalBudget})`:
 * the app's configuration with only the total budget changed, the app's engine, the app's
 * memory search (for `builder`). The evidence is then looked up in the build's trace.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import type { ContextConfigPatch } from '@shared/contextConfig'
import { MEMORY_CATEGORIES, type MemoryCategory } from '@shared/domain'
import { countMessageTokens } from '../../src/main/context/tokens/messageTokens'
import { recallQuery } from '../../src/main/context/recall/recallQuery'
import { o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { createServices } from '../../src/main/services/createServices'
import type { Services } from '../../src/main/services/serviceTypes'
import { MemoryIndexer } from '../../src/main/services/memory/memoryIndexer'
import type { EmbedderFactory } from '../../src/main/services/memory/memoryModels'
import { MemoryService } from '../../src/main/services/memory/memoryService'
import { QueryRanker } from '../../src/main/services/memory/queryRanker'
import { openDatabase } from '../../src/main/store/database'
import { EmbeddingQueueRepository } from '../../src/main/store/embeddingQueueRepository'
import {
  MemoryRepository,
  contentHash,
  normalizeMemoryText
} from '../../src/main/store/memoryRepository'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { RecallRepository } from '../../src/main/store/search/recallRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { VectorStore } from '../../src/main/store/vectors/vectorStore'
import type { Embedder } from '../../src/main/workers/embedding/embedder'
import type { EmbeddingModelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { candidateRows, type CandidateRow } from './candidates'
import { diagnoseQuestion, type EvidenceFunnel } from './diagnose'
import { CachedEmbedder, sharedView } from './embeddingCache'
import type { EvalDataset, EvalMessage, EvalQuestion } from './format'
import {
  aggregate,
  memoryRef,
  messageRef,
  retrievedCost,
  scoreBuild,
  type Budget,
  type BuildRecord,
  type EvidenceRef,
  type ResultRow
} from './metrics'
import { StrategySwitch, type Strategy } from './strategies'
import { groupByHistory, type HistoryGroup } from './visibility'

export interface EvaluateOptions {
  /** Fixed totals, or `default`: the configuration's own budget, as a user gets it. */
  budgets: readonly Budget[]
  strategies: readonly Strategy[]
  /** The first N questions of the file. */
  limit?: number
  /**
   * Prefix each message with its speaker's name ("Caroline: …"). Off by default: the app
   * stores what was said, not who the dataset says said it.
   */
  speakerPrefix?: boolean
  /** Overrides ContextBuildService's 20 memory candidates (to measure a proposed change). */
  recallLimit?: number
  /** Applied with the budget as a what-if patch (to measure a proposed configuration). */
  configPatch?: ContextConfigPatch
  /** The real model (a CachedEmbedder makes reruns fast); null: full text only. */
  embedder: { embedder: Embedder; spec: EmbeddingModelSpec } | null
  /** Also trace where the builder's retrieval loses evidence messages (see diagnose.ts). */
  diagnose?: boolean
  /** Every ungated search candidate with its signals, per question (see candidates.ts). */
  dumpCandidates?: (rows: CandidateRow[]) => void
  /** Where the temporary stores go (default: the OS temp folder). */
  tmpDir?: string
  progress?: (event: ProgressEvent) => void
}

export type ProgressEvent =
  | { kind: 'warm'; done: number; total: number }
  | { kind: 'group'; index: number; groups: number; messages: number; questions: number }
  | { kind: 'indexed'; index: number; ms: number }
  | { kind: 'question'; done: number; total: number }

export interface EvaluationResult {
  dataset: string
  questions: number
  results: ResultRow[]
  records: BuildRecord[]
  /** Evidence ids that name no message or memory of the file (not counted). */
  unknownEvidence: number
  /** Evidence ids outside the question's visible history (counted, never found). */
  unreachableEvidence: number
  stores: number
  timings: { warmMs: number; loadMs: number; indexMs: number; buildMs: number; totalMs: number }
  embedding: { texts: number; embedded: number; cacheHits: number; cacheMisses: number } | null
  /** With `diagnose`: one entry per evidence message and question. */
  funnels: EvidenceFunnel[]
}

const INDEX_TIMEOUT_MS = 30 * 60_000

function messageText(message: EvalMessage, speakerPrefix: boolean): string {
  return speakerPrefix && message.name ? `${message.name}: ${message.content}` : message.content
}

const timeOf = (iso: string | undefined, fallback: number): number =>
  iso === undefined ? fallback : Date.parse(iso)

function memoryCategory(category: string | undefined): MemoryCategory {
  return (MEMORY_CATEGORIES as readonly string[]).includes(category ?? '')
    ? (category as MemoryCategory)
    : 'other'
}

interface Store {
  db: Database.Database
  dir: string
  services: Services
  switcher: StrategySwitch
  threads: ThreadRepository
  /** Dataset id → how the trace names the stored item. */
  refs: Map<string, EvidenceRef>
  vectors: VectorStore
  recall: RecallRepository
}

function openStore(
  group: HistoryGroup,
  options: EvaluateOptions,
  embeddings: EmbedderFactory | null
): Store {
  const dir = mkdtempSync(join(options.tmpDir ?? tmpdir(), 'context-eval-'))
  const path = join(dir, 'eval.sqlite')
  const db = openDatabase(path)
  const switcher = new StrategySwitch(options.recallLimit)
  const log = (message: string, error: unknown) =>
    process.stderr.write(
      `[eval] ${message}: ${error instanceof Error ? error.message : String(error)}\n`
    )
  const services = createServices({
    db,
    info: { version: 'eval', systemLocale: 'en-US', databasePath: path, recoveredFromBackup: null },
    publish: () => {},
    memory: switcher,
    embeddings,
    indexing: { batchSize: 64, idleMs: 20 },
    log
  })
  // The app's full-text fallback: the same service over the same store, without a model.
  const queue = new EmbeddingQueueRepository(db)
  const vectors = new VectorStore(db)
  const textOnly = new MemoryService({
    memories: new MemoryRepository(db),
    recall: new RecallRepository(db),
    vectors,
    ranker: new QueryRanker(),
    queue,
    indexer: new MemoryIndexer({ queue, vectors, now: Date.now, log, changed: () => {} }),
    now: Date.now,
    log,
    changed: () => {}
  })
  switcher.attach(services.memory, textOnly)

  const threads = new ThreadRepository(db)
  const messages = new MessageRepository(db)
  const memories = new MemoryRepository(db)
  const refs = new Map<string, EvidenceRef>()
  const speakerPrefix = options.speakerPrefix ?? false
  db.transaction(() => {
    let clock = Date.UTC(2000, 0, 1)
    for (const { thread, messages: visible } of group.threads) {
      const first = visible[0]
      threads.create({
        id: thread.id,
        title: thread.title ?? '',
        now: timeOf(first?.created_at, clock),
        settings: {}
      })
      for (const message of visible) {
        const content = messageText(message, speakerPrefix)
        clock = timeOf(message.created_at, clock + 1_000)
        const stored = messages.append({
          threadId: thread.id,
          role: message.role,
          content,
          tokenCount: countMessageTokens(o200kCounter, { content }),
          createdAt: clock
        })
        refs.set(message.id, messageRef(stored.id))
      }
    }
    for (const memory of group.memories) {
      const content = normalizeMemoryText(memory.content)
      const existing = memories.findByHash(contentHash(content))
      const stored =
        existing ??
        memories.insert({
          content,
          category: memoryCategory(memory.category),
          sourceThreadId: null,
          sourceMessageId: null,
          now: timeOf(memory.created_at, clock),
          reason: 'eval'
        })
      refs.set(memory.id, memoryRef(stored.id))
    }
  })()
  return { db, dir, services, switcher, threads, refs, vectors, recall: new RecallRepository(db) }
}

async function closeStore(store: Store): Promise<void> {
  await store.services.memoryModel.stop()
  store.db.close()
  rmSync(store.dir, { recursive: true, force: true })
}

export async function evaluate(
  dataset: EvalDataset,
  options: EvaluateOptions
): Promise<EvaluationResult> {
  const started = performance.now()
  const questions = dataset.questions.slice(0, options.limit ?? dataset.questions.length)
  const groups = groupByHistory(dataset, questions)
  const speakerPrefix = options.speakerPrefix ?? false
  const known = new Set<string>([
    ...dataset.threads.flatMap((t) => t.messages.map((m) => m.id)),
    ...(dataset.memories ?? []).map((m) => m.id)
  ])
  const progress = options.progress ?? (() => {})
  const timings = { warmMs: 0, loadMs: 0, indexMs: 0, buildMs: 0, totalMs: 0 }

  // Everything the indexer and the searches will embed, embedded once up front in large
  // batches (and cached on disk), so indexing each store is a cache read.
  const source = options.embedder
  const cached = source?.embedder instanceof CachedEmbedder ? source.embedder : null
  let embedding: EvaluationResult['embedding'] = null
  if (cached) {
    const texts = new Set<string>()
    const queries = new Set<string>()
    for (const group of groups) {
      for (const { messages } of group.threads) {
        for (const m of messages) texts.add(messageText(m, speakerPrefix))
      }
      for (const memory of group.memories) texts.add(normalizeMemoryText(memory.content))
    }
    for (const q of questions) {
      queries.add(q.question.trim())
      // The conversation query the build will form (recallQuery.ts), so searches hit the cache.
      const thread = dataset.threads.find((t) => t.id === q.thread_id)
      const visible = (thread?.messages ?? []).filter(
        (m) => !q.asked_at || !m.created_at || Date.parse(m.created_at) <= Date.parse(q.asked_at)
      )
      const context = recallQuery(
        q.question,
        visible.map((m) => ({ ...m, content: messageText(m, speakerPrefix), excluded: false }))
      ).context
      if (context) queries.add(context)
    }
    const report = (done: number, total: number) => progress({ kind: 'warm', done, total })
    const stored = await cached.warm(texts, report)
    // Searches embed these as queries (e5 prefixes them differently from stored items).
    const asked = await cached.warm(queries, report, { role: 'query' })
    timings.warmMs = stored.ms + asked.ms
    embedding = {
      texts: texts.size + queries.size,
      embedded: stored.embedded + asked.embedded,
      cacheHits: 0,
      cacheMisses: 0
    }
  }
  const afterWarm = cached ? { ...cached.stats } : null
  const embeddings: EmbedderFactory | null = source
    ? () => ({
        embedder: sharedView(source.embedder),
        spec: source.spec
      })
    : null

  const records: BuildRecord[] = []
  const funnels: EvidenceFunnel[] = []
  let unknownEvidence = 0
  let unreachableEvidence = 0
  let done = 0
  for (const [index, group] of groups.entries()) {
    const loadStarted = performance.now()
    progress({
      kind: 'group',
      index,
      groups: groups.length,
      messages: group.threads.reduce((sum, t) => sum + t.messages.length, 0),
      questions: group.questions.length
    })
    const store = openStore(group, options, embeddings)
    try {
      store.services.memoryModel.start()
      const indexStarted = performance.now()
      timings.loadMs += indexStarted - loadStarted
      if (source) {
        await store.services.memoryIndexer.drained(INDEX_TIMEOUT_MS)
        // Questions are asked of a warm store, as a user's are: the start-up warm-up's own
        // embeddings and search are done (and cached), not counted against the dataset.
        await store.services.memory.warmedUp()
      }
      const indexMs = performance.now() - indexStarted
      timings.indexMs += indexMs
      progress({ kind: 'indexed', index, ms: indexMs })

      const buildStarted = performance.now()
      const messageIds = [...store.refs.values()]
        .filter((ref) => ref.startsWith('message:'))
        .map((ref) => Number(ref.slice('message:'.length)))
      for (const question of group.questions) {
        records.push(...(await buildQuestion(store, question, options)))
        if (options.dumpCandidates) {
          const thread = dataset.threads.find((t) => t.id === question.thread_id)
          const visible = (thread?.messages ?? []).filter(
            (m) => !question.asked_at || !m.created_at || m.created_at <= question.asked_at
          )
          const context = recallQuery(
            question.question,
            visible.map((m) => ({ ...m, content: messageText(m, speakerPrefix), excluded: false }))
          ).context
          const evidence = new Set(
            question.evidence.map((id) => store.refs.get(id)).filter((r) => r !== undefined)
          )
          options.dumpCandidates(
            await candidateRows(
              store.services.memory,
              {
                id: question.id,
                category: question.category ?? 'all',
                text: question.question.trim(),
                context,
                threadId: question.thread_id
              },
              evidence,
              (content) => countMessageTokens(o200kCounter, { content })
            )
          )
        }
        if (options.diagnose) {
          const evidence = question.evidence
            .map((id) => store.refs.get(id))
            .filter((ref): ref is string => ref?.startsWith('message:') === true)
            .map((ref) => Number(ref.slice('message:'.length)))
          funnels.push(
            ...(await diagnoseQuestion(
              {
                memory: store.services.memory,
                indexer: store.services.memoryIndexer,
                vectors: store.vectors,
                recall: store.recall,
                messageIds
              },
              question.question,
              question.category ?? 'all',
              evidence
            ))
          )
        }
        const named = question.evidence.filter((id) => known.has(id))
        unknownEvidence += question.evidence.length - named.length
        unreachableEvidence += named.filter((id) => !store.refs.has(id)).length
        progress({ kind: 'question', done: ++done, total: questions.length })
      }
      timings.buildMs += performance.now() - buildStarted
    } finally {
      await closeStore(store)
    }
  }
  if (cached && embedding && afterWarm) {
    embedding.cacheHits = cached.stats.hits - afterWarm.hits
    embedding.cacheMisses = cached.stats.misses - afterWarm.misses
  }
  timings.totalMs = performance.now() - started
  return {
    dataset: dataset.name,
    questions: questions.length,
    results: aggregate(records),
    records,
    unknownEvidence,
    unreachableEvidence,
    stores: groups.length,
    timings,
    embedding,
    funnels
  }

  async function buildQuestion(
    store: Store,
    question: EvalQuestion,
    opts: EvaluateOptions
  ): Promise<BuildRecord[]> {
    if (!store.threads.get(question.thread_id)) {
      store.threads.create({
        id: question.thread_id,
        title: '',
        now: timeOf(question.asked_at, Date.UTC(2000, 0, 1)),
        settings: {}
      })
    }
    const evidence = question.evidence
      .filter((id) => known.has(id))
      .map((id) => store.refs.get(id) ?? `unreachable:${id}`)
    const out: BuildRecord[] = []
    for (const strategy of opts.strategies) {
      store.switcher.strategy = strategy
      for (const budget of opts.budgets) {
        store.switcher.lastSearchMs = 0
        const t0 = performance.now()
        const built = await store.services.context.preview(
          question.thread_id,
          question.question,
          budget === 'default'
            ? { ...opts.configPatch }
            : { ...opts.configPatch, totalBudget: budget }
        )
        const buildMs = performance.now() - t0
        const retrieved = retrievedCost(built)
        out.push({
          questionId: question.id,
          category: question.category ?? 'all',
          strategy,
          budget,
          evidence: new Set(evidence).size,
          ...scoreBuild(built, evidence),
          contextTokens: built.tokenStats.total,
          retrievedTokens: retrieved.tokens,
          retrievedItems: retrieved.items,
          buildMs,
          searchMs: store.switcher.lastSearchMs,
          upstreamWarnings: built.metadata.warnings.filter((w) => w.code === 'upstream').length
        })
      }
    }
    return out
  }
}

/**
 * Several datasets evaluated apart (the dev set: one per person) as one result: the figures
 * are recomputed over all their builds, so each question weighs the same wherever it came from.
 */
export function mergeResults(parts: readonly EvaluationResult[]): EvaluationResult {
  const [first] = parts
  if (!first) throw new Error('Nothing to merge.')
  if (parts.length === 1) return first
  const records = parts.flatMap((p) => p.records)
  const sum = (pick: (p: EvaluationResult) => number) => parts.reduce((s, p) => s + pick(p), 0)
  const timings = Object.fromEntries(
    Object.keys(first.timings).map((key) => [
      key,
      sum((p) => p.timings[key as keyof EvaluationResult['timings']])
    ])
  ) as EvaluationResult['timings']
  const embedded = parts.map((p) => p.embedding)
  return {
    dataset: `${first.dataset.replace(/\/[^/]*$/u, '')} (${parts.map((p) => p.dataset).join(', ')})`,
    questions: sum((p) => p.questions),
    results: aggregate(records),
    records,
    unknownEvidence: sum((p) => p.unknownEvidence),
    unreachableEvidence: sum((p) => p.unreachableEvidence),
    stores: sum((p) => p.stores),
    timings,
    embedding: embedded.every((e) => e !== null)
      ? {
          texts: sum((p) => p.embedding?.texts ?? 0),
          embedded: sum((p) => p.embedding?.embedded ?? 0),
          cacheHits: sum((p) => p.embedding?.cacheHits ?? 0),
          cacheMisses: sum((p) => p.embedding?.cacheMisses ?? 0)
        }
      : null,
    funnels: parts.flatMap((p) => p.funnels)
  }
}
