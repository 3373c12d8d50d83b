/**
 * `npm run ctx -- simulate`: replays a thread turn by turn, each user message in turn being the
 * input and everything before it the stored thread, built exactly as `ctx build` builds it, and
 * measures how much of each request a provider's prompt cache could serve: the byte-identical
 * whole-message prefix shared with the previous request (tool definitions first, since
 * providers read them before the messages), over the request's size.
 */
import type { ContextConfigPatch } from '@shared/contextConfig'
import type { BuiltContext } from '@shared/context'
import { ActiveTaskTracker } from '../sections/activeTaskTracker'
import { totalBudgetOf } from '../budget'
import { prepareBuild } from './buildInput'
import { EngineRegistry } from '../engine/engineRegistry'

export interface SimulationOptions {
  /** Overrides the document's total budget. */
  budget?: number
  /** Overrides the document's window policy. */
  policy?: 'chunked' | 'sliding'
}

interface SimulatedTurn {
  /** The input message's seq. */
  seq: number
  /** Bytes of the payload: the JSON of the tool definitions and of every message. */
  payloadBytes: number
  /** Bytes of the leading messages identical to the previous request's. */
  sharedBytes: number
  firstKeptSeq: number | null
  droppedMessages: number
}

interface WindowCutEvent {
  /** The turn (input seq) whose request started the history later than the one before. */
  seq: number
  fromSeq: number | null
  toSeq: number | null
}

interface SimulationReport {
  policy: 'chunked' | 'sliding'
  budget: number
  turns: number
  /** The first turn whose window left history out; shares are measured after it. */
  firstFullSeq: number | null
  measuredTurns: number
  /** Shared bytes over payload bytes, summed over the measured turns. */
  cacheablePrefixShare: number
  /** The same per turn, averaged. */
  meanTurnShare: number
  sharedBytes: number
  payloadBytes: number
  cuts: WindowCutEvent[]
  perTurn: SimulatedTurn[]
}

/** The payload as a provider reads it, one JSON text per element, tools first. */
function payloadParts(built: BuiltContext): string[] {
  const parts = built.tools.length > 0 ? [JSON.stringify(built.tools)] : []
  return parts.concat(built.messages.map((message) => JSON.stringify(message)))
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

function sharedPrefixBytes(previous: readonly string[], current: readonly string[]): number {
  let shared = 0
  for (let i = 0; i < current.length && current[i] === previous[i]; i++) {
    shared += bytes(current[i] as string)
  }
  return shared
}

const ratio = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000

export type SimulateResult =
  { ok: true; report: SimulationReport } | { ok: false; issues: string[] }

export function runSimulation(json: unknown, options: SimulationOptions = {}): SimulateResult {
  // A thread to replay is a `ctx build` document whose `input` is not needed.
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, issues: ['document: must be an object'] }
  }
  const document = json as { input?: unknown; config?: ContextConfigPatch }
  const config: ContextConfigPatch = {
    ...document.config,
    ...(options.budget !== undefined && { totalBudget: options.budget }),
    ...(options.policy !== undefined && { window: { policy: options.policy } })
  }
  const prepared = prepareBuild({ ...document, input: document.input ?? '', config })
  if (!prepared.ok) return prepared

  const engines = new EngineRegistry()
  const { request } = prepared
  const thread = request.messages
  const tasks = new ActiveTaskTracker()
  const perTurn: SimulatedTurn[] = []
  const cuts: WindowCutEvent[] = []
  let previous: string[] = []
  let previousFirstKept: number | null = null
  thread.forEach((message, index) => {
    if (message.role === 'user' && index > 0) {
      const built = engines.build(
        {
          ...request,
          messages: thread.slice(0, index),
          input: message.content,
          taskState: structuredClone(tasks.state)
        },
        prepared.config
      )
      const parts = payloadParts(built)
      const firstKept = built.window.firstKeptSeq
      if (perTurn.length > 0 && firstKept !== previousFirstKept && previousFirstKept !== null) {
        cuts.push({ seq: message.seq, fromSeq: previousFirstKept, toSeq: firstKept })
      }
      perTurn.push({
        seq: message.seq,
        payloadBytes: parts.reduce((sum, part) => sum + bytes(part), 0),
        sharedBytes: sharedPrefixBytes(previous, parts),
        firstKeptSeq: firstKept,
        droppedMessages: built.metadata.droppedMessageCount
      })
      previous = parts
      previousFirstKept = firstKept
    }
    if (message.role === 'user') tasks.observe(message.content, message.seq)
  })

  const firstFull = perTurn.findIndex((turn) => turn.droppedMessages > 0)
  const measured = firstFull === -1 ? [] : perTurn.slice(firstFull + 1)
  const sharedBytes = measured.reduce((sum, turn) => sum + turn.sharedBytes, 0)
  const payloadBytes = measured.reduce((sum, turn) => sum + turn.payloadBytes, 0)
  const meanTurnShare =
    measured.reduce((sum, turn) => sum + turn.sharedBytes / turn.payloadBytes, 0) /
    Math.max(1, measured.length)
  return {
    ok: true,
    report: {
      policy: prepared.config.window.policy,
      budget: totalBudgetOf(prepared.config),
      turns: perTurn.length,
      firstFullSeq: firstFull === -1 ? null : (perTurn[firstFull]?.seq ?? null),
      measuredTurns: measured.length,
      cacheablePrefixShare: ratio(sharedBytes, payloadBytes),
      meanTurnShare: Math.round(meanTurnShare * 1000) / 1000,
      sharedBytes,
      payloadBytes,
      cuts,
      perTurn
    }
  }
}
