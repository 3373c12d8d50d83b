/**
 * `npm run bench`: every performance figure in one run, each beside a baseline measured in the
 * same run, printed as tables and written as JSON (default .cache/bench/latest.json):
 *
 * - ContextBuilder latency on 1k/10k/100k-message threads vs recounting every message per build;
 * - embedding, for multilingual-e5-small and bge-small-zh-v1.5 side by side in the app's worker:
 *   query latency, indexing throughput on 200-500-token messages, worker process RSS;
 * - message KNN at 10k and 100k vectors: the app's two-stage search (binary codes, exact
 *   re-scoring) vs sqlite-vec's exact brute force, with recall@10;
 * - memory search as a build runs it at 100,000 messages and 10,000 memories, split into query
 *   embedding, full-text and vector lists, long and short thread, warm and first after opening,
 *   beside the old path over the same store;
 * - token counting throughput, English and Chinese: exact o200k and the CJK-aware estimate vs
 *   chars/4;
 * - the main thread's event-loop stall while sending and previewing a 2 M-character paste
 *   (base64, minified JS, Chinese, mixed, letters only) vs the old synchronous count;
 * - the tokens of 100 tool schemas and a build with them vs without, and chunking a 2 MB file
 *   on its structure vs counting it once;
 * - an attached 2 MB file (1 MB of the repository's code, 1 MB of its Markdown): embedding its
 *   chunks batched as the app does vs one per call, one build's scoring, and a draft's preview
 *   with the file attached vs without.
 *
 * - history import: a synthetic ChatGPT export (5,000 conversations, 100,000 messages; 500 with
 *   --quick) through the app's import worker while main chats, vs the chat path per message.
 *
 * Options: `--quick` (fewer runs, smaller texts, a 20,000-message store; a few minutes on 2
 * cores), `--json <path>`, `--skip-embedding` (no model needed), `--only <section>` (one of
 * ONLY_SECTIONS).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { DEFAULT_CONTEXT_CONFIG, type ContextConfigPatch } from '@shared/contextConfig'
import { EMBEDDING_MODEL_IDS } from '@shared/embeddingModelIds'
import { BUILDER_SIZES, builderFigures, builderRuns } from './bench/builderLatency'
import {
  embeddingChild,
  embeddingFigures,
  embeddingThreadCounts,
  modelsRootOf
} from './bench/embedding'
import {
  documentChunks,
  fileEmbeddingFigures,
  previewFigures,
  type FileFigures
} from './bench/fileChunks'
import { INPUT_KINDS, stallFigures, type StallFigures } from './bench/mainThreadStall'
import { preparedModel } from './preparedModels'
import { parseConfigPatch } from './configPatchFlag'
import { tokenizerAccuracy, tokenizerFigures } from './bench/tokenizerThroughput'
import { vectorSearchFigures } from './bench/vectorSearch'
import { chunkingFigures, toolFigures } from './bench/toolsAndFiles'
import { historyImportFigures, type HistoryImportFigures } from './bench/historyImport'
import { memorySearchFigures, type MemorySearchFigures } from './bench/memorySearch'
import type { Timing } from './bench/timing'
import { wholeTurnFigures, wholeTurnReport } from './bench/wholeTurn'
import { cacheReplayFigures, cacheReplayReport, type Dialect } from './bench/cacheReplay'
import { indexingFigures, indexingReport } from './bench/indexingReport'

const ROOT = resolve(dirname(process.argv[1] ?? '.'), '../..')
const DEFAULT_JSON = join(ROOT, '.cache/bench/latest.json')

/** Sections `--only` can run alone. */
const ONLY_SECTIONS = ['memory-search', 'history', 'turn', 'cache', 'indexing', 'stall'] as const
type OnlySection = (typeof ONLY_SECTIONS)[number]

interface Options {
  quick: boolean
  json: string
  skipEmbedding: boolean
  /** Run one section only. */
  only: OnlySection | null
  /** The cache replay's budgets and window policies, when not the run's defaults. */
  cacheBudgets: (number | 'default')[] | null
  cachePolicies: ('chunked' | 'sliding')[] | null
  cacheProviders: Dialect[] | null
  /** A context config patch every replayed thread starts with (a what-if). */
  cacheConfig: ContextConfigPatch | null
}

function parseArgs(argv: string[]): Options {
  let quick = false
  let skipEmbedding = false
  let only: OnlySection | null = null
  let json = DEFAULT_JSON
  let cacheBudgets: Options['cacheBudgets'] = null
  let cachePolicies: Options['cachePolicies'] = null
  let cacheProviders: Options['cacheProviders'] = null
  let cacheConfig: Options['cacheConfig'] = null
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--quick') quick = true
    else if (arg === '--skip-embedding') skipEmbedding = true
    else if (arg === '--only') {
      const value = argv[++i]
      only = ONLY_SECTIONS.find((section) => section === value) ?? null
      if (!only) throw new Error(`--only takes one of ${ONLY_SECTIONS.join(', ')}`)
    } else if (arg === '--json') {
      const value = argv[++i]
      if (!value) throw new Error('--json needs a path')
      json = resolve(value)
    } else if (arg?.startsWith('--json=')) json = resolve(arg.slice('--json='.length))
    else if (arg === '--budgets') cacheBudgets = parseBudgets(argv[++i])
    else if (arg === '--policies') cachePolicies = parsePolicies(argv[++i])
    else if (arg === '--providers') cacheProviders = parseProviders(argv[++i])
    else if (arg === '--config') cacheConfig = parseConfigPatch(argv[++i] ?? '')
    else {
      throw new Error(
        `unknown option ${arg}; use --quick, --json <path>, --skip-embedding, --only <section>, --budgets <8000,default>, --policies <chunked,sliding> and --providers <openai,anthropic> and --config <context config patch> (cache replay)`
      )
    }
  }
  return {
    quick,
    json,
    skipEmbedding,
    only,
    cacheBudgets,
    cachePolicies,
    cacheProviders,
    cacheConfig
  }
}

/** The cache replay's budgets: numbers of tokens, or `default` for the configuration's own. */
function parseBudgets(value: string | undefined): (number | 'default')[] {
  const budgets = (value ?? '').split(',').map((part) => {
    if (part === 'default') return 'default' as const
    const tokens = Number(part)
    if (!Number.isInteger(tokens) || tokens < 1000) {
      throw new Error(`--budgets takes token counts of at least 1000 or "default", not "${part}"`)
    }
    return tokens
  })
  return budgets
}

function parsePolicies(value: string | undefined): ('chunked' | 'sliding')[] {
  return (value ?? '').split(',').map((part) => {
    if (part !== 'chunked' && part !== 'sliding') {
      throw new Error(`--policies takes chunked and/or sliding, not "${part}"`)
    }
    return part
  })
}

function parseProviders(value: string | undefined): Dialect[] {
  return (value ?? '').split(',').map((part) => {
    if (part !== 'openai' && part !== 'anthropic') {
      throw new Error(`--providers takes openai and/or anthropic, not "${part}"`)
    }
    return part
  })
}

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`)

function table(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String))
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)))
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
  return [
    line(headers).join('  '),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.map((r) => line(r).join('  '))
  ].join('\n')
}

const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`
const perSecond = (n: number) => n.toLocaleString('en-US')

/** The real models, as the tests and the eval get them: prepared into .cache/models. */
async function modelsAndWorker(): Promise<{ modelsRoot: string; workerPath: string }> {
  let modelsRoot = ''
  for (const id of EMBEDDING_MODEL_IDS) modelsRoot = modelsRootOf(await preparedModel(ROOT, id))
  const workerPath = [
    join(dirname(process.argv[1] ?? ''), 'bench/embeddingWorker.cjs'),
    join(ROOT, 'out/cli/bench/embeddingWorker.cjs')
  ].find((candidate) => existsSync(candidate))
  if (!workerPath) throw new Error('the worker bundle is missing: run `npm run bench`')
  return { modelsRoot, workerPath }
}

/** Phrases for realistic messages: the fidelity fixture's zh/en/mixed sentences. */
const phrases = (): string[] =>
  (
    JSON.parse(readFileSync(join(ROOT, 'test/fixtures/e5-fidelity.json'), 'utf8')) as {
      sentences: string[]
    }
  ).sentences

async function main(): Promise<void> {
  const childIndex = process.argv.indexOf('--embedding-child')
  if (childIndex !== -1) {
    const { modelsRoot, workerPath } = await modelsAndWorker()
    await embeddingChild(process.argv[childIndex + 1] ?? '{}', workerPath, modelsRoot, phrases())
    return
  }
  const options = parseArgs(process.argv.slice(2))
  const started = performance.now()
  if (options.only === 'turn') {
    const turn = await turnFigures(options.quick)
    console.log(wholeTurnReport(turn, table))
    writeResult(options, { turn }, started)
    return
  }
  if (options.only === 'cache') {
    const cache = await cacheFigures(options)
    if (cache) console.log(cacheReplayReport(cache, table))
    writeResult(options, { cache }, started)
    return
  }
  if (options.only === 'indexing') {
    const indexing = await indexingFigures(
      { ...(await modelsAndWorker()), ...options, phrases: phrases() },
      progress
    )
    console.log(indexingReport(indexing, table))
    writeResult(options, { indexing }, started)
    return
  }
  if (options.only === 'history') {
    const history = await historyFigures(options.quick)
    printHistory(history)
    writeResult(options, { history }, started)
    return
  }
  if (options.only === 'stall') {
    const stalls = await allStallFigures(options.quick)
    printStalls(stalls)
    writeResult(options, { mainThreadStall: stalls }, started)
    return
  }
  if (options.only === 'memory-search') {
    const figures = await memorySearch(options)
    printMemorySearch(figures)
    writeResult(options, { memorySearch: figures }, started)
    return
  }

  const builds = BUILDER_SIZES.map((size) => {
    progress(`builder, ${size.toLocaleString('en-US')} messages`)
    return builderFigures(size, options.quick)
  })

  let embedding: Awaited<ReturnType<typeof embeddingFigures>>[] = []
  if (!options.skipEmbedding) {
    await modelsAndWorker()
    for (const model of EMBEDDING_MODEL_IDS) {
      for (const threads of embeddingThreadCounts(options.quick)) {
        progress(`embedding, ${model}, ${threads} ONNX thread(s)`)
        embedding.push(await embeddingFigures(process.argv[1] ?? '', model, threads, options.quick))
      }
    }
  } else {
    embedding = []
  }

  progress('attached file: previews with 2 MB attached')
  const chunked = documentChunks(ROOT)
  const files: FileFigures = {
    embedding: null,
    preview: await previewFigures(ROOT, options.quick)
  }
  if (!options.skipEmbedding) {
    progress(`attached file: embedding a sample of ${chunked.length} chunks`)
    const { modelsRoot, workerPath } = await modelsAndWorker()
    files.embedding = await fileEmbeddingFigures(workerPath, modelsRoot, chunked, options.quick)
  }

  const vectorSearch = [10_000, 100_000].map((count) => {
    progress(`vector search, ${count.toLocaleString('en-US')} vectors`)
    return vectorSearchFigures(count, options.quick ? 30 : 60)
  })

  const memorySearchResult = await memorySearch(options)

  progress('token counting')
  const tokenizer = tokenizerFigures(options.quick)
  const accuracy = tokenizerAccuracy(ROOT)

  const stalls = await allStallFigures(options.quick)

  progress('tool schemas and file chunking')
  const tools = toolFigures(options.quick)
  const chunking = (['markdown', 'code'] as const).map((kind) =>
    chunkingFigures(kind, options.quick)
  )
  // Needs the embedding model: the turn is measured as a user meets it, model loaded.
  const turn = options.skipEmbedding ? null : await turnFigures(options.quick)
  const indexing = options.skipEmbedding
    ? null
    : await indexingFigures(
        { ...(await modelsAndWorker()), ...options, phrases: phrases() },
        progress
      )

  const config = DEFAULT_CONTEXT_CONFIG
  const runs = builderRuns(options.quick)
  console.log(
    `Context Lens benchmark (${cpus().length} cores, Node ${process.version}${options.quick ? ', --quick' : ''})\n`
  )
  console.log(
    `ContextBuilder latency (${config.model}; builder ${runs.builder} builds per size; baseline recounts every message's tokens per build)`
  )
  console.log(
    table(
      [
        'messages',
        'sent',
        'prompt tokens',
        'builder p50',
        'builder p95',
        'baseline p50',
        'baseline p95',
        'speed-up'
      ],
      builds.map((b) => [
        b.messages,
        b.sent,
        b.promptTokens,
        ms(b.builder.p50),
        ms(b.builder.p95),
        ms(b.baseline.p50),
        ms(b.baseline.p95),
        `${b.speedup.toFixed(0)}x`
      ])
    )
  )

  console.log(
    `\n${tools.tools} tool schemas (2-5 parameters each) on a 10,000-message thread, default budget: tokens as sent, what the 5 % tools share let through, build time with and without`
  )
  console.log(
    table(
      ['schemas', 'tokens', 'sent', 'sent tokens', 'with p50', 'without p50'],
      [
        [
          tools.tools,
          tools.schemaTokens,
          tools.sentTools,
          tools.sentTokens,
          ms(tools.withTools.p50),
          ms(tools.without.p50)
        ]
      ]
    )
  )
  console.log('\nChunking a 2 MB file on its structure (400-token chunks) vs counting it once')
  console.log(
    table(
      ['kind', 'MB', 'chunks', 'chunking p50', 'MB/s', 'count p50'],
      chunking.map((c) => [
        c.kind,
        c.megabytes.toFixed(1),
        c.chunks,
        ms(c.chunking.p50),
        (c.megabytes / (c.chunking.p50 / 1000)).toFixed(1),
        ms(c.counting.p50)
      ])
    )
  )

  if (embedding.length > 0) {
    const indexed = embedding[0]?.indexing
    console.log(
      `\nEmbedding (int8, app's worker and batching; query: one short text per call; indexing: ${indexed?.texts} messages of 200-500 o200k tokens, ${indexed?.tokens} in all; RSS of a fresh process per model)`
    )
    console.log(
      table(
        [
          'model',
          'dim',
          'threads',
          'load',
          'query p50',
          'query p95',
          'index texts/s',
          'index tokens/s',
          'RSS bare',
          'RSS loaded',
          'RSS after index'
        ],
        embedding.map((e) => [
          e.model.replace(/^.*\//, ''),
          e.dimension,
          e.threads,
          ms(e.loadMs),
          ms(e.query.p50),
          ms(e.query.p95),
          e.indexing.textsPerSecond.toFixed(1),
          perSecond(Math.round(e.indexing.tokensPerSecond)),
          `${e.rss.bareMb} MB`,
          `${e.rss.loadedMb} MB`,
          `${e.rss.peakMb} MB`
        ])
      )
    )
  }

  if (files.preview) {
    const p = files.preview
    console.log(
      `\nTyping in a thread with the 2 MB attached (${p.chunks} chunks stored, none embedded; ${p.sentChunks} sent; baseline: the same preview without the file)`
    )
    console.log(
      table(
        ['preview p50', 'p95', 'baseline p50', 'p95', 'longest stall'],
        [
          [
            ms(p.withFile.p50),
            ms(p.withFile.p95),
            ms(p.without.p50),
            ms(p.without.p95),
            ms(p.stallMaxMs)
          ]
        ]
      )
    )
  }
  if (files.embedding) {
    const e = files.embedding
    console.log(
      `\nAttached file, embedding its chunks (${e.model.replace(/^.*\//, '')}, app's worker, batches of 16; baseline: one chunk per call; score: one query embedded and scored against every chunk)`
    )
    console.log(
      table(
        [
          'sample',
          'tokens',
          'time',
          'chunks/s',
          'tokens/s',
          'one per call, chunks/s',
          'whole file (est.)',
          'score'
        ],
        [
          [
            `${e.chunks} of ${e.fileChunks}`,
            e.tokens,
            ms(e.ms),
            e.chunksPerSecond.toFixed(1),
            perSecond(Math.round(e.tokensPerSecond)),
            `${e.onePerCall.chunksPerSecond.toFixed(1)} (${e.onePerCall.chunks})`,
            `${Math.round(e.wholeFileSeconds)} s`,
            ms(e.scoreMs)
          ]
        ]
      )
    )
  }

  console.log(
    '\nMessage KNN, k = 10, 512-d clustered vectors (two-stage: Hamming scan of binary codes + exact re-scoring of 400; baseline: exact sqlite-vec)'
  )
  console.log(
    table(
      [
        'vectors',
        'queries',
        'two-stage p50',
        'two-stage p95',
        'exact p50',
        'exact p95',
        'speed-up',
        'recall@10'
      ],
      vectorSearch.map((v) => [
        v.vectors,
        v.queries,
        ms(v.twoStage.p50),
        ms(v.twoStage.p95),
        ms(v.exact.p50),
        ms(v.exact.p95),
        `${(v.exact.p50 / v.twoStage.p50).toFixed(1)}x`,
        v.recallAt10.toFixed(3)
      ])
    )
  )
  console.log(
    "\nMessage lists as a build reads them (k = 50 each): the input's and the conversation's searched apart (before issue #21) and in one scan; one list in a 20-message thread of the store, beside the same list over the whole store"
  )
  console.log(
    table(
      ['vectors', 'two apart p50 / p95', 'two in one scan', 'whole store', 'one 20-message thread'],
      vectorSearch.map((v) => [
        v.vectors,
        ...[
          v.recallLists.twoApart,
          v.recallLists.twoInOneScan,
          v.recallLists.wholeStore,
          v.recallLists.oneThread
        ].map(({ p50, p95 }) => `${ms(p50)} / ${ms(p95)}`)
      ])
    )
  )

  printMemorySearch(memorySearchResult)

  console.log(
    `\nToken counting, ${tokenizer[0]?.chars.toLocaleString('en-US')} characters (o200k cold, as the app counts and as gpt-tokenizer counts; baseline: chars/4; error vs o200k)`
  )
  console.log(
    table(
      ['language', 'counter', 'tokens', 'error', 'ms', 'chars/s'],
      tokenizer.map((t) => [
        t.language,
        t.counter,
        t.tokens,
        `${t.error >= 0 ? '+' : ''}${(t.error * 100).toFixed(1)} %`,
        // chars/4 reads only the string's length: there is no throughput to show.
        t.counter === 'chars/4' ? '-' : ms(t.ms),
        t.counter === 'chars/4' ? 'O(1)' : perSecond(t.charsPerSecond)
      ])
    )
  )

  if (accuracy.length > 0) {
    console.log('\nToken counts on real text of the repository (error vs o200k)')
    console.log(
      table(
        ['file', 'chars', 'counter', 'tokens', 'error'],
        accuracy.map((a) => [
          a.file,
          a.chars,
          a.counter,
          a.tokens,
          `${a.error >= 0 ? '+' : ''}${(a.error * 100).toFixed(1)} %`
        ])
      )
    )
  }

  printStalls(stalls)

  const history = await historyFigures(options.quick)
  printHistory(history)
  if (turn) console.log(`\n${wholeTurnReport(turn, table)}`)
  if (indexing) console.log(`\n${indexingReport(indexing, table)}`)

  const result = {
    history,
    builder: { model: config.model, builds },
    embedding,
    vectorSearch,
    memorySearch: memorySearchResult,
    tokenizer,
    tokenizerAccuracy: accuracy,
    mainThreadStall: stalls,
    tools,
    chunking,
    attachedFile: files,
    turn,
    indexing
  }
  writeResult(options, result, started)
}

function writeResult(options: Options, result: object, started: number): void {
  const tookMs = Math.round(performance.now() - started)
  const full = {
    node: process.version,
    cores: cpus().length,
    quick: options.quick,
    tookMs,
    ...result
  }
  mkdirSync(dirname(options.json), { recursive: true })
  writeFileSync(options.json, `${JSON.stringify(full, null, 2)}\n`)
  console.log(`\nwritten to ${options.json} (${(tookMs / 1000).toFixed(0)} s)`)
}

async function historyFigures(quick: boolean): Promise<HistoryImportFigures> {
  progress('history import')
  const workerPath = [
    join(dirname(process.argv[1] ?? ''), 'bench/importWorker.cjs'),
    join(ROOT, 'out/cli/bench/importWorker.cjs')
  ].find((candidate) => existsSync(candidate))
  if (!workerPath) throw new Error('the import worker bundle is missing: run `npm run bench`')
  return historyImportFigures(workerPath, quick)
}

function printHistory(h: HistoryImportFigures): void {
  console.log(
    `\nHistory import: synthetic ChatGPT export, ${h.conversations.toLocaleString('en-US')} conversations, ${h.messages.toLocaleString('en-US')} messages, ${h.fileMb.toFixed(1)} MB, in the import worker while main stores a chat message every 50 ms (goal: <= 60 s, stall p99 < 50 ms); baseline: the chat path, one counted message per transaction on main`
  )
  console.log(
    table(
      [
        'path',
        'messages',
        'wall',
        'CPU',
        'messages/s',
        'peak RSS',
        'stall p50/p99/max',
        'chat write p50/p99/max'
      ],
      [
        [
          'import worker',
          h.messages,
          `${(h.wallMs / 1000).toFixed(1)} s`,
          `${(h.cpuMs / 1000).toFixed(1)} s`,
          Math.round(h.messagesPerSecond),
          `${h.peakRssMb} MB`,
          `${ms(h.stall.p50)} / ${ms(h.stall.p99)} / ${ms(h.stall.max)}`,
          `${ms(h.chatWrites.p50)} / ${ms(h.chatWrites.p99)} / ${ms(h.chatWrites.max)}`
        ],
        [
          'main alone, before (machine load)',
          '-',
          '-',
          '-',
          '-',
          '-',
          `${ms(h.idle.stall.p50)} / ${ms(h.idle.stall.p99)} / ${ms(h.idle.stall.max)}`,
          `${ms(h.idle.chatWrites.p50)} / ${ms(h.idle.chatWrites.p99)} / ${ms(h.idle.chatWrites.max)}`
        ],
        [
          'baseline: chat path',
          h.baseline.messages,
          `${(h.baseline.messages / h.baseline.messagesPerSecond).toFixed(1)} s`,
          '-',
          Math.round(h.baseline.messagesPerSecond),
          '-',
          `p99 ${ms(h.baseline.stallP99)}`,
          '-'
        ]
      ]
    )
  )
  console.log(
    `searchable at once: ${h.searchable ? 'yes' : 'NO'}; queued for embedding: ${h.queuedForEmbedding.toLocaleString('en-US')} messages (drained in the background at the indexing rate of the embedding table above)`
  )
}

async function memorySearch(options: Options): Promise<MemorySearchFigures> {
  progress(`memory search, ${options.quick ? '20,000' : '100,000'} messages`)
  const worker = options.skipEmbedding ? null : await modelsAndWorker()
  return memorySearchFigures(options.quick, worker)
}

function printMemorySearch(m: MemorySearchFigures): void {
  const pair = (t: Timing) => `${ms(t.p50)} / ${ms(t.p95)}`
  console.log(
    `\nMemory search as a build runs it (${m.messages.toLocaleString('en-US')} messages, ${m.memories.toLocaleString('en-US')} memories, limit ${m.limit}, query embedding: ${m.embedder === 'real' ? 'multilingual-e5-small, 1 thread' : 'synthetic'}; p50 / p95; old = embedding first, both vector lists at full depth, FTS5 ranking every match, index and model loaded by the first search)`
  )
  console.log(
    table(
      ['thread', 'state', 'path', 'total', 'query embedding', 'full text', 'vector lists'],
      m.rows.flatMap((r) =>
        (['now', 'old'] as const).map((path) => [
          r.thread,
          r.state,
          path,
          pair(r[path].total),
          pair(r[path].embed),
          pair(r[path].text),
          pair(r[path].vector)
        ])
      )
    )
  )
  console.log(
    `(now: the full-text list is read while the worker embeds the query, so the parts overlap; background warm-up after opening: ${ms(m.warmUp.ms)}, longest main-thread slice ${ms(m.warmUp.longestSliceMs)})`
  )
}

/** The search workers' bundle, built by `npm run bench`. */
function searchWorkerBundle(): string {
  const path = [
    join(dirname(process.argv[1] ?? ''), 'bench/searchWorker.cjs'),
    join(ROOT, 'out/cli/bench/searchWorker.cjs')
  ].find((candidate) => existsSync(candidate))
  if (!path) throw new Error('the search worker bundle is missing: run `npm run bench`')
  return path
}

async function turnFigures(quick: boolean) {
  const { modelsRoot, workerPath } = await modelsAndWorker()
  const searchWorkerPath = searchWorkerBundle()
  return wholeTurnFigures(
    { quick, modelsRoot, workerPath, searchWorkerPath, phrases: phrases() },
    progress
  )
}

/**
 * The prompt cache on the real send path: a LoCoMo conversation replayed through the app at
 * 8,000 and 32,000 tokens and the default budget, chunked against sliding, as OpenAI and as Anthropic cache (issue #17). Without
 * ../shared/benchdata it says so and skips.
 */
async function cacheFigures({
  quick,
  cacheBudgets,
  cachePolicies,
  cacheProviders,
  cacheConfig
}: Options) {
  const locomoPath = join(ROOT, '../shared/benchdata/locomo/locomo10.json')
  const { modelsRoot, workerPath } = await modelsAndWorker()
  const rows = await cacheReplayFigures({
    locomoPath,
    modelsRoot,
    workerPath,
    turns: quick ? 60 : 240,
    budgets: cacheBudgets ?? (quick ? [8000, 32000] : [8000, 32000, 'default']),
    policies: cachePolicies ?? (quick ? ['chunked'] : ['chunked', 'sliding']),
    dialects: cacheProviders ?? ['openai', 'anthropic'],
    ...(cacheConfig && { config: cacheConfig }),
    progress
  })
  if (!rows) progress(`cache replay skipped: ${locomoPath} is not here`)
  return rows
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})

function printStalls(stalls: StallFigures[]): void {
  console.log(
    `\nMain-thread stall on a huge paste (${stalls[0]?.chars.toLocaleString('en-US')} characters, real services and SQLite, gpt-4o; goal p99 <= 50 ms, preview <= 150 ms behind a keystroke; baseline: the old synchronous o200k count alone, on a smaller input)`
  )
  console.log(
    table(
      [
        'input',
        'send',
        'stored after',
        'exact count after',
        'send stall p50/p99/max',
        'FTS index alone',
        'counted',
        'sent after its preview',
        'its stall max',
        'sent as its preview counts',
        'its stall max',
        'paste preview',
        'typing lag p50/max',
        'typing stall p99/max',
        'counted',
        'old: chars',
        'old: stall'
      ],
      stalls.map((s) => [
        s.kind,
        ms(s.send.ms),
        ms(s.send.storedMs),
        ms(s.send.countedMs),
        `${ms(s.send.stall.p50)} / ${ms(s.send.stall.p99)} / ${ms(s.send.stall.max)}`,
        ms(s.send.ftsWriteMs),
        s.send.counted,
        ms(s.typedSend.ms),
        ms(s.typedSend.stall.max),
        ms(s.glancedSend.ms),
        ms(s.glancedSend.stall.max),
        `${ms(s.paste.ms)}, ${s.paste.counted}`,
        `${ms(s.preview.lagP50)} / ${ms(s.preview.lagMax)}`,
        `${ms(s.preview.stall.p99)} / ${ms(s.preview.stall.max)}`,
        s.preview.counted,
        s.baseline.chars,
        ms(s.baseline.countMs)
      ])
    )
  )
}

async function allStallFigures(quick: boolean): Promise<StallFigures[]> {
  const stalls: StallFigures[] = []
  for (const kind of INPUT_KINDS) {
    progress(`main-thread stall, ${kind}`)
    stalls.push(await stallFigures(kind, quick, searchWorkerBundle()))
  }
  return stalls
}
