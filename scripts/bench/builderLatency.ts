/**
 * ContextBuilder latency over synthetic threads of 1k, 10k and 100k messages, beside a naive
 * baseline measured in the same run: recounting every message's tokens on every build (what
 * the builder avoids by counting each message once, at insert).
 */
import { DEFAULT_CONTEXT_CONFIG } from '@shared/contextConfig'
import type { BuildRequest } from '@shared/context'
import { buildContext } from '../../src/main/context/contextBuilder'
import { countMessageTokens } from '../../src/main/context/tokens/messageTokens'
import { tokenCounterFor } from '../../src/main/context/tokens/tokenCounter'
import { syntheticMemories, syntheticThread } from './syntheticThread'
import { time, type Timing } from './timing'

export const BUILDER_SIZES = [1_000, 10_000, 100_000]

const SYSTEM_PROMPT =
  'You are Context Lens, a careful desktop assistant. Answer in the language of the user. '.repeat(
    12
  )
const SUMMARY_TEXT =
  'The user is building a CSV import for a budgeting app. They chose papaparse. '.repeat(20)

export interface BuilderFigures {
  messages: number
  builder: Timing
  baseline: Timing
  speedup: number
  sent: number
  promptTokens: number
}

/** Builds per size: the builder's, and the recount baseline's (one build takes seconds at 100k). */
export function builderRuns(quick: boolean): {
  builder: number
  baseline: Record<number, number>
  warmup: number
} {
  return quick
    ? { builder: 50, baseline: { 1_000: 10, 10_000: 3, 100_000: 1 }, warmup: 5 }
    : { builder: 200, baseline: { 1_000: 30, 10_000: 8, 100_000: 3 }, warmup: 20 }
}

export function builderFigures(size: number, quick: boolean): BuilderFigures {
  const runs = builderRuns(quick)
  const config = DEFAULT_CONTEXT_CONFIG
  const counter = tokenCounterFor(config.model)
  const memories = syntheticMemories(8)
  const thread = syntheticThread(size, counter)
  // A summary covering all but the newest 5 %: the usual state of a long thread.
  const summary = { content: SUMMARY_TEXT, lastMessageSeq: Math.floor(size * 0.95) }
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
  for (let i = 0; i < runs.warmup; i++) buildContext(requestFor(i), config)
  const builder = time(runs.builder, (run) => buildContext(requestFor(run), config))
  const sample = buildContext(requestFor(0), config)
  const baseline = time(runs.baseline[size] ?? 1, (run) => {
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
}
