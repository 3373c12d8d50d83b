/**
 * `npm run bench`: build latency over synthetic threads of 1k, 10k and 100k messages, beside a
 * naive baseline that recounts every message's tokens per build (measured in the same run),
 * and tokenizer throughput. Prints a table and writes bench-results/bench.json.
 */
import { clearMergeCache } from 'gpt-tokenizer/encoding/o200k_base'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { resolve } from 'node:path'
import { DEFAULT_CONTEXT_CONFIG } from '@shared/contextConfig'
import { buildContext } from '../src/main/context/contextBuilder'
import { countMessageTokens } from '../src/main/context/messageTokens'
import { estimateCounter, o200kCounter, tokenCounterFor } from '../src/main/context/tokenCounter'
import type { BuildRequest } from '@shared/context'
import { syntheticMemories, syntheticText, syntheticThread } from './bench/syntheticThread'
import { vectorSearchFigures } from './bench/vectorSearch'

const SIZES = [1_000, 10_000, 100_000]
/** Enough samples for a stable p95; the baseline gets fewer where one build takes seconds. */
const RUNS = {
  builder: 200,
  baseline: { 1_000: 30, 10_000: 8, 100_000: 3 } as Record<number, number>
}
const WARMUP = 20

const SYSTEM_PROMPT =
  'You are Context Lens, a careful desktop assistant. Answer in the language of the user. '.repeat(
    12
  )
const SUMMARY = {
  content: 'The user is building a CSV import for a budgeting app. They chose papaparse. '.repeat(
    20
  ),
  lastMessageSeq: 0
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

function time(runs: number, fn: (run: number) => void): { p50: number; p95: number; runs: number } {
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    fn(run)
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), runs }
}

const config = DEFAULT_CONTEXT_CONFIG
const counter = tokenCounterFor(config.model)
const memories = syntheticMemories(8)

const builds = SIZES.map((size) => {
  const thread = syntheticThread(size, counter)
  // A summary covering all but the newest 5 %: the usual state of a long thread.
  const summary = { ...SUMMARY, lastMessageSeq: Math.floor(size * 0.95) }
  const requestFor = (run: number): BuildRequest => ({
    systemPrompt: SYSTEM_PROMPT,
    summary,
    memories,
    messages: thread.messages,
    pinned: thread.pinned,
    // The draft changes on every keystroke: never the same input twice.
    input: `Please check why the totals differ (draft ${run})`,
    taskState: thread.taskState
  })
  for (let i = 0; i < WARMUP; i++) buildContext(requestFor(i), config)
  const builder = time(RUNS.builder, (run) => buildContext(requestFor(run), config))
  const sample = buildContext(requestFor(0), config)
  const baseline = time(RUNS.baseline[size] ?? 3, (run) => {
    const recounted = thread.messages.map((m) => ({
      ...m,
      tokenCount: countMessageTokens(counter, m)
    }))
    buildContext({ ...requestFor(run), messages: recounted }, config)
  })
  return {
    messages: size,
    builder,
    baseline,
    speedup: baseline.p50 / builder.p50,
    sent: sample.metadata.includedMessageCount,
    promptTokens: sample.tokenStats.total
  }
})

const TEXT_CHARS = 200_000
// Cold counts, as at insert: gpt-tokenizer's merge cache is cleared before every run.
const throughput = (['english', 'chinese'] as const).flatMap((language) => {
  const text = syntheticText(language, TEXT_CHARS)
  return [o200kCounter, estimateCounter].map((c) => {
    const { p50 } = time(5, () => {
      clearMergeCache()
      c.count(text)
    })
    return {
      language,
      counter: c.encoding,
      chars: TEXT_CHARS,
      ms: p50,
      charsPerSecond: Math.round(TEXT_CHARS / (p50 / 1000))
    }
  })
})

const ms = (n: number): string => n.toFixed(2).padStart(9)
console.log(
  `ContextBuilder benchmark (${cpus().length} cores, Node ${process.version}, model ${config.model})\n`
)
console.log(
  'messages | sent | prompt tokens | builder p50 | builder p95 | naive p50 | naive p95 | speed-up'
)
for (const b of builds) {
  console.log(
    `${String(b.messages).padStart(8)} | ${String(b.sent).padStart(4)} | ${String(b.promptTokens).padStart(13)} |` +
      `${ms(b.builder.p50)} ms |${ms(b.builder.p95)} ms |${ms(b.baseline.p50)} ms |${ms(b.baseline.p95)} ms | ${b.speedup.toFixed(0)}x`
  )
}
console.log(
  `\n(builder: ${RUNS.builder} builds each; naive baseline recounts every message per build: ${SIZES.map((s) => RUNS.baseline[s]).join('/')} builds)\n`
)
console.log('tokenizer  | language | ms per 200k chars | chars/s')
for (const t of throughput) {
  console.log(
    `${t.counter.padEnd(10)} | ${t.language.padEnd(8)} | ${t.ms.toFixed(1).padStart(17)} | ${String(t.charsPerSecond).padStart(11)}`
  )
}

const vectorSearch = [10_000, 100_000].map(vectorSearchFigures)
console.log(
  '\nmessage vector search, k = 10 | two-stage p50 | p95 | exact sqlite-vec p50 | p95 | recall@10'
)
for (const v of vectorSearch) {
  console.log(
    `${String(v.vectors).padStart(7)} x ${v.dimension}-d vectors |${ms(v.twoStage.p50)} ms |${ms(v.twoStage.p95)} ms |${ms(v.exact.p50)} ms |${ms(v.exact.p95)} ms | ${v.recallAt10.toFixed(3)}`
  )
}
console.log(
  '(two-stage: Hamming scan of binary codes in memory, exact re-scoring of 400 candidates)'
)

const out = resolve(process.cwd(), 'bench-results')
mkdirSync(out, { recursive: true })
writeFileSync(
  resolve(out, 'bench.json'),
  `${JSON.stringify({ node: process.version, cores: cpus().length, model: config.model, builds, throughput, vectorSearch }, null, 2)}\n`
)
console.log(`\nwritten to ${resolve(out, 'bench.json')}`)
