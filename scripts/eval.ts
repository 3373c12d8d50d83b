/**
 * `npm run eval`: context quality on external data, no LLM in the loop (docs/EVALUATION.md).
 *
 *   npm run eval -- convert locomo <locomo10.json> --layout single-thread|thread-per-session --out <file>
 *   npm run eval -- convert longmemeval <longmemeval_oracle.json.gz> --out <file>
 *   npm run eval -- convert devset test/fixtures/devset --out <folder>
 *   npm run eval -- convert haystack <dataset.json> --threads 50 [--questions N] [--in-conversation] --out <file>
 *   npm run eval -- convert control <dataset.json> --mode without-evidence|other-history [--memories-from <dataset.json>] --out <file>
 *   npm run eval -- chart --out docs/recall-vs-tokens.svg "<label>=<summary.json>"...
 *   npm run eval -- --dataset <file or folder of files> [--budgets default,2000,4000,8000] [--strategies builder,window]
 *                   [--limit N] [--speaker-prefix] [--recall-limit N] [--config <json>]
 *                   [--json-out <file>] [--cache-dir <dir>] [--threads N] [--diagnose] [--model e5|bge]
                  [--dump-candidates <file.jsonl>]
 *
 * `--recall-limit` and `--config` (e.g. `{"recall":{"minRelevance":0.55}}`, another gate) exist to measure proposed changes; the
 * app's defaults are what runs without them.
 * Progress goes to stderr; the tables, then one JSON object as the last line, to stdout.
 * Exit codes: 0 done, 1 bad input or failure, 2 bad command line.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { ContextConfigPatch } from '@shared/contextConfig'
import { parseConfigPatch } from './configPatchFlag'
import { EmbeddingClient } from '../src/main/workers/embedding/embeddingClient'
import { DEFAULT_MODEL_ID, modelSpec } from '../src/main/workers/embedding/embeddingModels'
import { MODEL_NAMES, modelByName, preparedModel } from './preparedModels'
import { CachedEmbedder, EmbeddingCache, weightsHash } from './eval/embeddingCache'
import { readDataset, readJsonFile } from './eval/format'
import {
  convertLocomo,
  LOCOMO_LAYOUTS,
  type ConversionReport,
  type LocomoLayout
} from './eval/locomo'
import { convertLongMemEval } from './eval/longmemeval'
import { convertDevset } from './eval/devset'
import { CONTROL_MODES, controlSet, type ControlMode } from './eval/control'
import { haystackLayout } from './eval/haystack'
import type { CandidateRow } from './eval/candidates'
import { recallChart, seriesFrom } from './eval/chart'
import { formatFunnel } from './eval/diagnose'
import { formatReport } from './eval/report'
import type { Budget } from './eval/metrics'
import { evaluate, mergeResults, type ProgressEvent } from './eval/runner'
import { STRATEGIES, type Strategy } from './eval/strategies'

const USAGE = `usage:
  npm run eval -- convert locomo <locomo10.json> --layout ${LOCOMO_LAYOUTS.join('|')} --out <file>
  npm run eval -- convert longmemeval <longmemeval_oracle.json.gz> --out <file>
  npm run eval -- convert devset test/fixtures/devset --out <folder>
  npm run eval -- convert haystack <dataset.json> --threads 50 [--questions N] [--in-conversation] --out <file>
  npm run eval -- convert control <dataset.json> --mode ${CONTROL_MODES.join('|')} [--memories-from <dataset.json>] --out <file>
  npm run eval -- chart --out <file.svg> "<label>=<summary.json>"...
  npm run eval -- --dataset <file or folder of files> [--budgets default,2000,4000,8000] [--strategies ${STRATEGIES.join(',')}]
                  [--limit N] [--speaker-prefix] [--recall-limit N] [--config <json>]
                  [--json-out <file>] [--cache-dir <dir>] [--threads N] [--diagnose] [--model e5|bge]
                  [--dump-candidates <file.jsonl>]`

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number
  ) {
    super(message)
  }
}

const ROOT = process.cwd()

/** `--name value` pairs and bare `--flag`s after the positional arguments. */
function parseArgs(args: string[]): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = []
  const flags = new Map<string, string | true>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const next = args[i + 1]
    if (inline !== undefined) flags.set(name, inline)
    else if (next !== undefined && !next.startsWith('--')) {
      flags.set(name, next)
      i++
    } else flags.set(name, true)
  }
  return { positional, flags }
}

function stringFlag(flags: Map<string, string | true>, name: string): string | undefined {
  const value = flags.get(name)
  if (value === true) throw new CliError(`--${name} needs a value\n${USAGE}`, 2)
  return value
}

function intFlag(flags: Map<string, string | true>, name: string): number | undefined {
  const value = stringFlag(flags, name)
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`--${name} must be a positive integer`, 2)
  return n
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(resolve(path)), { recursive: true })
  writeFileSync(path, `${JSON.stringify(value)}\n`)
}

function printConversion(
  out: string,
  report: ConversionReport & { abstention?: number; askedAtOmitted?: number }
): void {
  const err = (line: string) => process.stderr.write(`${line}\n`)
  err(
    `wrote ${out}: ${report.threads} threads, ${report.messages} messages, ${report.questions} questions, ${report.evidenceIds} evidence ids`
  )
  if (report.repaired.length > 0) {
    err(`repaired ${report.repaired.length} malformed evidence string(s):`)
    for (const r of report.repaired) err(`  ${r.questionId}: "${r.raw}" → ${r.ids.join(', ')}`)
  }
  err(`dropped ${report.dropped.length} evidence id(s) that name no turn:`)
  for (const d of report.dropped) err(`  ${d.questionId}: "${d.id}"`)
  err(`${report.emptyEvidence} question(s) have no evidence (skipped by recall metrics)`)
  if (typeof report.abstention === 'number') {
    err(`skipped ${report.abstention} abstention (_abs) question(s)`)
  }
  if (typeof report.askedAtOmitted === 'number') {
    err(
      `${report.askedAtOmitted} question(s) have a session dated after the question (same day upstream); asked_at left out`
    )
  }
  process.stdout.write(
    `${JSON.stringify({
      out,
      threads: report.threads,
      messages: report.messages,
      questions: report.questions,
      evidence_ids: report.evidenceIds,
      repaired: report.repaired.length,
      dropped: report.dropped.length,
      empty_evidence: report.emptyEvidence,
      ...(typeof report.abstention === 'number' ? { abstention_skipped: report.abstention } : {}),
      ...(typeof report.askedAtOmitted === 'number'
        ? { asked_at_omitted: report.askedAtOmitted }
        : {})
    })}\n`
  )
}

function convert(positional: string[], flags: Map<string, string | true>): void {
  const [, source, input] = positional
  const out = stringFlag(flags, 'out')
  if (!input || !out) throw new CliError(`convert needs an input file and --out\n${USAGE}`, 2)
  if (!existsSync(input)) throw new CliError(`cannot read ${input}: no such file`, 1)
  if (source === 'devset') {
    // One file per person: a person's memories are not another's history.
    for (const dataset of convertDevset(input)) {
      const file = join(out, `${dataset.name.replace(/^devset\//, '')}.json`)
      writeJson(file, dataset)
      process.stderr.write(
        `wrote ${file}: ${dataset.memories?.length ?? 0} memories, ${dataset.threads.length} dialogues, ${dataset.questions.length} questions\n`
      )
    }
  } else if (source === 'locomo') {
    const layout = stringFlag(flags, 'layout') as LocomoLayout | undefined
    if (!layout || !LOCOMO_LAYOUTS.includes(layout)) {
      throw new CliError(`--layout must be one of ${LOCOMO_LAYOUTS.join(', ')}\n${USAGE}`, 2)
    }
    const { dataset, report } = convertLocomo(readJsonFile(input), layout)
    writeJson(out, dataset)
    printConversion(out, report)
  } else if (source === 'haystack') {
    const threads = intFlag(flags, 'threads') ?? 50
    const dataset = haystackLayout(readDataset(input), {
      threads,
      questions: intFlag(flags, 'questions'),
      inConversation: flags.has('in-conversation')
    })
    writeJson(out, dataset)
    process.stderr.write(
      `wrote ${out}: ${dataset.questions.length} questions, each over ${threads} threads (${dataset.threads.length} distinct)\n`
    )
  } else if (source === 'control') {
    const mode = stringFlag(flags, 'mode') as ControlMode | undefined
    if (!mode || !CONTROL_MODES.includes(mode)) {
      throw new CliError(`--mode must be one of ${CONTROL_MODES.join(', ')}\n${USAGE}`, 2)
    }
    const from = stringFlag(flags, 'memories-from')
    const dataset = controlSet(readDataset(input), mode, from ? readDataset(from) : undefined)
    writeJson(out, dataset)
    process.stderr.write(
      `wrote ${out}: ${dataset.questions.length} control questions, ${dataset.threads.length} threads, ${dataset.memories?.length ?? 0} memories\n`
    )
  } else if (source === 'longmemeval') {
    const { dataset, report } = convertLongMemEval(readJsonFile(input))
    writeJson(out, dataset)
    printConversion(out, report)
  } else {
    throw new CliError(`unknown source "${source ?? ''}"\n${USAGE}`, 2)
  }
}

/** Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise. */
function progressPrinter(): (event: ProgressEvent) => void {
  const tty = process.stderr.isTTY === true
  let last = 0
  const started = performance.now()
  const say = (text: string, force = false) => {
    const now = performance.now()
    if (!force && now - last < (tty ? 200 : 5_000)) return
    last = now
    const elapsed = `${((now - started) / 1000).toFixed(0)} s`
    process.stderr.write(tty ? `\r\x1b[2K[eval ${elapsed}] ${text}` : `[eval ${elapsed}] ${text}\n`)
  }
  return (event) => {
    switch (event.kind) {
      case 'warm':
        say(`embedding ${event.done}/${event.total} new texts`, event.done === event.total)
        return
      case 'group':
        if (event.groups <= 20 || event.index % 50 === 0) {
          say(
            `store ${event.index + 1}/${event.groups}: ${event.messages} messages, ${event.questions} questions`,
            event.groups <= 20
          )
        }
        return
      case 'indexed':
        return
      case 'question':
        say(`questions ${event.done}/${event.total}`, event.done === event.total)
        if (tty && event.done === event.total) process.stderr.write('\n')
    }
  }
}

async function run(flags: Map<string, string | true>): Promise<void> {
  const path = stringFlag(flags, 'dataset')
  if (!path) throw new CliError(`missing --dataset <file>\n${USAGE}`, 2)
  if (!existsSync(path)) throw new CliError(`cannot read ${path}: no such file`, 1)
  const budgets = (stringFlag(flags, 'budgets') ?? '2000,4000,8000')
    .split(',')
    .map((b): Budget => (b === 'default' ? b : Number(b)))
  if (budgets.some((b) => b !== 'default' && (!Number.isInteger(b) || b <= 0))) {
    throw new CliError(
      '--budgets takes positive integers or "default" (the model\'s window less the reply), e.g. default,2000,4000',
      2
    )
  }
  const strategies = (stringFlag(flags, 'strategies') ?? 'builder,window').split(',') as Strategy[]
  const unknown = strategies.filter((s) => !STRATEGIES.includes(s))
  if (unknown.length > 0) {
    throw new CliError(`unknown strategy ${unknown.join(', ')} (${STRATEGIES.join(', ')})`, 2)
  }
  let configPatch: ContextConfigPatch | undefined
  const config = stringFlag(flags, 'config')
  if (config !== undefined) {
    try {
      configPatch = parseConfigPatch(config)
    } catch (error) {
      throw new CliError((error as Error).message, 2)
    }
  }

  // A folder holds several datasets (the dev set: one per person), evaluated apart, reported together.
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
    : [path]
  if (files.length === 0) throw new CliError(`${path} holds no .json dataset`, 1)
  const datasets = files.map((file) => {
    try {
      return readDataset(file)
    } catch (error) {
      throw new CliError(`${file}: ${(error as Error).message}`, 1)
    }
  })

  // The real model, as the tests get it: prepared into .cache/models, never from the hub.
  const modelName = stringFlag(flags, 'model')
  const modelId = modelName ? modelByName(modelName) : DEFAULT_MODEL_ID
  if (!modelId)
    throw new CliError(`--model must be one of ${Object.keys(MODEL_NAMES).join(', ')}`, 2)
  const modelFolder = await preparedModel(ROOT, modelId)
  const workerPath = [
    join(dirname(process.argv[1] ?? ''), 'eval/embeddingWorker.cjs'),
    join(ROOT, 'out/cli/eval/embeddingWorker.cjs')
  ].find((candidate) => existsSync(candidate))
  if (!workerPath) throw new CliError('the worker bundle is missing: run `npm run eval`', 1)
  const spec = modelSpec(modelId)
  const client = new EmbeddingClient({
    workerPath,
    spec,
    source: { kind: 'folder', root: join(modelFolder, '../..'), name: modelId },
    threads: intFlag(flags, 'threads') ?? cpus().length,
    maxBatch: 32
  })
  const { dimension } = await client.ready()
  const cache = new EmbeddingCache(
    stringFlag(flags, 'cache-dir') ?? join(ROOT, '.cache/eval-embeddings'),
    { spec, dimension, weights: weightsHash(modelFolder, spec) }
  )
  const embedder = new CachedEmbedder(client, cache)
  const dumpFile = stringFlag(flags, 'dump-candidates')
  if (dumpFile) writeFileSync(dumpFile, '')
  try {
    const parts = []
    for (const dataset of datasets) {
      parts.push(
        await evaluate(dataset, {
          budgets,
          strategies,
          limit: intFlag(flags, 'limit'),
          speakerPrefix: flags.has('speaker-prefix'),
          recallLimit: intFlag(flags, 'recall-limit'),
          configPatch,
          diagnose: flags.has('diagnose'),
          ...(dumpFile && {
            dumpCandidates: (rows: CandidateRow[]) =>
              appendFileSync(dumpFile, rows.map((r) => `${JSON.stringify(r)}\n`).join(''))
          }),
          embedder: { embedder, spec },
          progress: progressPrinter()
        })
      )
    }
    const result = mergeResults(parts)
    const summary = {
      dataset: result.dataset,
      questions: result.questions,
      options: {
        budgets,
        strategies,
        limit: intFlag(flags, 'limit') ?? null,
        speaker_prefix: flags.has('speaker-prefix'),
        recall_limit: intFlag(flags, 'recall-limit') ?? null,
        config: configPatch ?? null,
        model: spec.id
      },
      stores: result.stores,
      unknown_evidence: result.unknownEvidence,
      unreachable_evidence: result.unreachableEvidence,
      timings_ms: Object.fromEntries(
        Object.entries(result.timings).map(([k, v]) => [k, Math.round(v)])
      ),
      embedding: result.embedding,
      results: result.results
    }
    const jsonOut = stringFlag(flags, 'json-out')
    if (jsonOut) writeJson(jsonOut, summary)
    process.stdout.write(`${formatReport(result)}\n\n`)
    if (flags.has('diagnose')) process.stdout.write(`${formatFunnel(result.funnels)}\n\n`)
    process.stdout.write(`${JSON.stringify(summary)}\n`)
  } finally {
    cache.close()
    await client.close()
  }
}

/** Recall against budget from `--json-out` summaries: "label=file" per series. */
function chart(positional: string[], flags: Map<string, string | true>): void {
  const out = stringFlag(flags, 'out')
  const specs = positional.slice(1)
  if (!out || specs.length === 0) throw new CliError(`chart needs --out and series\n${USAGE}`, 2)
  const series = specs.map((spec) => {
    const at = spec.lastIndexOf('=')
    if (at <= 0) throw new CliError(`"${spec}" is not label=summary.json`, 2)
    const file = spec.slice(at + 1)
    if (!existsSync(file)) throw new CliError(`cannot read ${file}: no such file`, 1)
    return seriesFrom(spec.slice(0, at), readJsonFile(file))
  })
  const title = stringFlag(flags, 'title') ?? 'Evidence recall of the builder by token budget'
  mkdirSync(dirname(resolve(out)), { recursive: true })
  writeFileSync(out, recallChart(series, title))
  process.stderr.write(`wrote ${out}: ${series.length} series\n`)
}

async function main(): Promise<void> {
  const { positional, flags } = parseArgs(process.argv.slice(2))
  if (positional[0] === 'convert') convert(positional, flags)
  else if (positional[0] === 'chart') chart(positional, flags)
  else if (positional.length === 0) await run(flags)
  else throw new CliError(`unknown command "${positional[0]}"\n${USAGE}`, 2)
}

main().catch((error: unknown) => {
  if (error instanceof CliError) {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = error.exitCode
  } else {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    )
    process.exitCode = 1
  }
})
