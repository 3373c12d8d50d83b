/**
 * `npm run bench -- --only indexing` (issue #21): indexing throughput at 1 and 2 workers beside
 * the previous release's single worker and the model's ceiling on this CPU, and a chat turn's
 * latency idle vs while indexing runs.
 */
import { loadavg } from 'node:os'
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { EmbeddingPool } from '../../src/main/workers/embedding/embeddingPool'
import { indexingThroughputFigures, type IndexingFigures } from './indexingThroughput'
import { PAUSE_MS, turnDuringIndexing, type TurnDuringIndexing } from './indexingTurn'

type Table = (headers: string[], rows: (string | number)[][]) => string

export interface IndexingBenchFigures {
  throughput: IndexingFigures
  turn: TurnDuringIndexing[]
  /** One-minute load average at the start and the end of the turn runs. */
  turnLoad: { before: number; after: number }
}

export async function indexingFigures(
  options: { workerPath: string; modelsRoot: string; phrases: readonly string[]; quick: boolean },
  progress: (message: string) => void
): Promise<IndexingBenchFigures> {
  const throughput = await indexingThroughputFigures(options, progress)
  const spec = modelSpec(E5_MODEL_ID)
  const source = { kind: 'folder' as const, root: options.modelsRoot, name: E5_MODEL_ID }
  const client = (lowPriority: boolean) =>
    new EmbeddingClient({ workerPath: options.workerPath, spec, source, threads: 1, lowPriority })
  const pool = (workers: number) => () =>
    new EmbeddingPool({ indexingThreads: workers, lane: (lane) => client(lane === 'indexing') })
  const configs = [
    { label: 'before: one worker', embedder: () => client(false) },
    { label: 'pool, 1 worker', embedder: pool(1) },
    { label: 'pool, 2 workers', embedder: pool(2) }
  ]
  const turnLoad = { before: loadavg()[0] ?? 0, after: 0 }
  const turn: TurnDuringIndexing[] = []
  for (const config of configs) {
    turn.push(
      await turnDuringIndexing(
        { ...config, phrases: options.phrases, quick: options.quick },
        progress
      )
    )
  }
  turnLoad.after = loadavg()[0] ?? 0
  return { throughput, turn, turnLoad }
}

export function indexingReport(figures: IndexingBenchFigures, table: Table): string {
  const t = figures.throughput
  const one = t.rows.find((row) => row.label === 'pool, 1 worker')
  const ceiling = (threads: number) => threads * t.ceiling.tokensPerSecondPerThread
  const ms = (n: number) => `${n.toFixed(0)} ms`
  return [
    `Indexing (multilingual-e5-small, int8; ${t.messages} messages of 200-500 o200k tokens, ${t.tokens.toLocaleString('en-US')} o200k / ${t.modelTokens.toLocaleString('en-US')} model tokens; median of ${t.rows[0]?.rounds.length} alternating rounds; load average ${t.load.before.toFixed(1)} → ${t.load.after.toFixed(1)})`,
    `ceiling: one 512-token window per pass on one thread, ${t.ceiling.passMs.toFixed(0)} ms a pass = ${Math.round(t.ceiling.tokensPerSecondPerThread).toLocaleString('en-US')} model tokens/s per thread (${(t.ceiling.tokensPerSecondPerThread / (t.modelTokens / t.messages)).toFixed(1)} of these messages/s); two threads side by side: ${Math.round(t.ceiling.twoThreads.tokensPerSecond).toLocaleString('en-US')} model tokens/s, ${Math.round(100 * t.ceiling.twoThreads.ofTwiceOne)} % of twice one thread (this CPU's own scaling)`,
    table(
      [
        'configuration',
        'workers × threads',
        'messages/s',
        'o200k tokens/s',
        'model tokens/s',
        'of the ceiling',
        'vs pool, 1 worker'
      ],
      t.rows.map((row) => [
        row.label,
        `${row.workers} × ${row.onnxThreads}`,
        row.messagesPerSecond.toFixed(2),
        Math.round(row.tokensPerSecond).toLocaleString('en-US'),
        Math.round(row.modelTokensPerSecond).toLocaleString('en-US'),
        `${Math.round((100 * row.modelTokensPerSecond) / ceiling(row.workers * row.onnxThreads))} %`,
        one ? `${(row.messagesPerSecond / one.messagesPerSecond).toFixed(2)}×` : ''
      ])
    ),
    '',
    `A chat turn while indexing runs (send → request received, pasted, short thread, p50 / p95 over ${figures.turn[0]?.idle.runs} sends each; ${PAUSE_MS} ms between sends, a quick reader's pace; idle: the same sends once the backlog is indexed; load average ${figures.turnLoad.before.toFixed(1)} → ${figures.turnLoad.after.toFixed(1)})`,
    table(
      [
        'embedder',
        'idle',
        'while indexing',
        'p50 vs idle',
        'indexed meanwhile',
        'backlog left after'
      ],
      figures.turn.map((row) => [
        row.label,
        `${ms(row.idle.p50)} / ${ms(row.idle.p95)}`,
        `${ms(row.indexing.p50)} / ${ms(row.indexing.p95)}`,
        `${row.indexing.p50 >= row.idle.p50 ? '+' : ''}${Math.round((100 * row.indexing.p50) / row.idle.p50 - 100)} %`,
        `${row.itemsPerSecond.toFixed(1)} items/s`,
        row.pendingAfter
      ])
    )
  ].join('\n')
}
