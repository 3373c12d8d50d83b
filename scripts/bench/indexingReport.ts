/**
 * `npm run bench -- --only indexing` (issue #25): indexing throughput at 1 and 2 workers beside
 * the previous release's single worker and the model's ceiling on this CPU, and a chat turn's
 * latency idle vs while indexing runs.
 */
import { indexingThroughputFigures, type IndexingFigures } from './indexingThroughput'

type Table = (headers: string[], rows: (string | number)[][]) => string

export interface IndexingBenchFigures {
  throughput: IndexingFigures
}

export async function indexingFigures(
  options: { workerPath: string; modelsRoot: string; phrases: readonly string[]; quick: boolean },
  progress: (message: string) => void
): Promise<IndexingBenchFigures> {
  return { throughput: await indexingThroughputFigures(options, progress) }
}

export function indexingReport(figures: IndexingBenchFigures, table: Table): string {
  const t = figures.throughput
  const one = t.rows.find((row) => row.label === 'pool, 1 worker')
  const ceiling = (workers: number) => workers * t.ceiling.tokensPerSecondPerThread
  const lines = [
    `Indexing (multilingual-e5-small, int8; ${t.messages} messages of 200-500 o200k tokens, ${t.tokens.toLocaleString('en-US')} o200k / ${t.modelTokens.toLocaleString('en-US')} model tokens; median of ${t.rows[0]?.rounds.length} alternating rounds; load average ${t.load.before.toFixed(1)} → ${t.load.after.toFixed(1)})`,
    `ceiling: one 512-token window per pass on one thread, ${t.ceiling.passMs.toFixed(0)} ms a pass = ${Math.round(t.ceiling.tokensPerSecondPerThread).toLocaleString('en-US')} model tokens/s per thread (${(t.ceiling.tokensPerSecondPerThread / (t.modelTokens / t.messages)).toFixed(1)} messages/s)`,
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
    )
  ]
  return lines.join('\n')
}
