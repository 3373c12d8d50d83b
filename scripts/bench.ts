/**
 * `npm run bench`: every performance figure in one run, each beside a baseline measured in the
 * same run, printed as tables and written as JSON (default .cache/bench/latest.json):
 *
 * - ContextBuilder latency on 1k/10k/100k-message threads vs recounting every message per build;
 * - embedding, for multilingual-e5-small and bge-small-zh-v1.5 side by side in the app's worker:
 *   query latency, indexing throughput on 200-500-token messages, worker process RSS;
 * - message KNN at 10k and 100k vectors: the app's two-stage search (binary codes, exact
 *   re-scoring) vs sqlite-vec's exact brute force, with recall@10;
 * - token counting throughput, English and Chinese: exact o200k and the CJK-aware estimate vs
 *   chars/4;
 * - the main thread's event-loop stall while sending and previewing a 2 M-character paste
 *   (base64, minified JS, Chinese, mixed, letters only) vs the old synchronous count.
 *
 * Options: `--quick` (fewer runs, smaller texts; a few minutes on 2 cores), `--json <path>`,
 * `--skip-embedding` (no model needed).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { DEFAULT_CONTEXT_CONFIG } from '@shared/contextConfig'
import { EMBEDDING_MODEL_IDS } from '@shared/embeddingModelIds'
import { BUILDER_SIZES, builderFigures, builderRuns } from './bench/builderLatency'
import {
  embeddingChild,
  embeddingFigures,
  embeddingThreadCounts,
  modelsRootOf
} from './bench/embedding'
import { INPUT_KINDS, stallFigures, type StallFigures } from './bench/mainThreadStall'
import { preparedModel } from './preparedModels'
import { tokenizerAccuracy, tokenizerFigures } from './bench/tokenizerThroughput'
import { vectorSearchFigures } from './bench/vectorSearch'
import { wholeTurnFigures, wholeTurnReport } from './bench/wholeTurn'

const ROOT = resolve(dirname(process.argv[1] ?? '.'), '../..')
const DEFAULT_JSON = join(ROOT, '.cache/bench/latest.json')

function parseArgs(argv: string[]): {
  quick: boolean
  json: string
  skipEmbedding: boolean
  turnOnly: boolean
} {
  let quick = false
  let skipEmbedding = false
  let turnOnly = false
  let json = DEFAULT_JSON
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--quick') quick = true
    else if (arg === '--skip-embedding') skipEmbedding = true
    else if (arg === '--turn-only') turnOnly = true
    else if (arg === '--json') {
      const value = argv[++i]
      if (!value) throw new Error('--json needs a path')
      json = resolve(value)
    } else if (arg?.startsWith('--json=')) json = resolve(arg.slice('--json='.length))
    else
      throw new Error(
        `unknown option ${arg}; use --quick, --json <path>, --skip-embedding, --turn-only`
      )
  }
  return { quick, json, skipEmbedding, turnOnly }
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
  if (options.turnOnly) {
    const turn = await turnFigures(options.quick)
    console.log(wholeTurnReport(turn, table))
    writeResult(options.json, {
      node: process.version,
      cores: cpus().length,
      quick: options.quick,
      tookMs: Math.round(performance.now() - started),
      turn
    })
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

  const vectorSearch = [10_000, 100_000].map((count) => {
    progress(`vector search, ${count.toLocaleString('en-US')} vectors`)
    return vectorSearchFigures(count, options.quick ? 30 : 60)
  })

  progress('token counting')
  const tokenizer = tokenizerFigures(options.quick)
  const accuracy = tokenizerAccuracy(ROOT)

  const stalls: StallFigures[] = []
  for (const kind of INPUT_KINDS) {
    progress(`main-thread stall, ${kind}`)
    stalls.push(await stallFigures(kind, options.quick))
  }

  // Needs the embedding model: the turn is measured as a user meets it, model loaded.
  const turn = options.skipEmbedding ? null : await turnFigures(options.quick)

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
    '\nMessage lists as a build reads them: before issue #10 one query at k = 100; now the input and the conversation at k = 400 each'
  )
  console.log(
    table(
      ['vectors', 'one list, k=100 p50', 'p95', 'two lists, k=400 p50', 'p95'],
      vectorSearch.map((v) => [
        v.vectors,
        ms(v.recallLists.oneAt100.p50),
        ms(v.recallLists.oneAt100.p95),
        ms(v.recallLists.twoAt400.p50),
        ms(v.recallLists.twoAt400.p95)
      ])
    )
  )

  console.log(
    `\nToken counting, ${tokenizer[0]?.chars.toLocaleString('en-US')} characters (o200k cold; baseline: chars/4; error vs o200k)`
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

  console.log(
    `\nMain-thread stall on a huge paste (${stalls[0]?.chars.toLocaleString('en-US')} characters, real services and SQLite, gpt-4o; goal p99 <= 50 ms, preview <= 150 ms behind a keystroke; baseline: the old synchronous o200k count alone, on a smaller input)`
  )
  console.log(
    table(
      [
        'input',
        'send',
        'send stall p50/p99/max',
        'FTS index alone',
        'counted',
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
        `${ms(s.send.stall.p50)} / ${ms(s.send.stall.p99)} / ${ms(s.send.stall.max)}`,
        ms(s.send.ftsWriteMs),
        s.send.counted,
        `${ms(s.paste.ms)}, ${s.paste.counted}`,
        `${ms(s.preview.lagP50)} / ${ms(s.preview.lagMax)}`,
        `${ms(s.preview.stall.p99)} / ${ms(s.preview.stall.max)}`,
        s.preview.counted,
        s.baseline.chars,
        ms(s.baseline.countMs)
      ])
    )
  )

  if (turn) console.log(`\n${wholeTurnReport(turn, table)}`)

  const result = {
    node: process.version,
    cores: cpus().length,
    quick: options.quick,
    tookMs: Math.round(performance.now() - started),
    builder: { model: config.model, builds },
    embedding,
    vectorSearch,
    tokenizer,
    tokenizerAccuracy: accuracy,
    mainThreadStall: stalls,
    turn
  }
  writeResult(options.json, result)
}

function writeResult(path: string, result: { tookMs: number; [key: string]: unknown }): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwritten to ${path} (${(result.tookMs / 1000).toFixed(0)} s)`)
}

async function turnFigures(quick: boolean) {
  const { modelsRoot, workerPath } = await modelsAndWorker()
  return wholeTurnFigures({ quick, modelsRoot, workerPath, phrases: phrases() }, progress)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
