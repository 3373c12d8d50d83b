/**
 * One turn's tool loop: ask the model; while it asks for tools, store its calls, run each one
 * (after approval) and store the result as a tool message linked to the call, then ask again
 * with the exchange appended to the turn's build. It ends when the model answers in text, or
 * at `maxSteps` model requests: the last one is sent with tool choice "none", so the model has
 * to answer with what it has. Stop (the signal) ends it at any point, a running tool included.
 */
import type { ProviderMessage } from '@shared/context'
import type { ToolCall } from '@shared/domain'
import type { ChatFinishReason, ChatStreamEvent, ChatUsage } from '@shared/providers'
import { describeToolResult } from '../../context/compressor/toolPruning'
import { ProviderError } from '../providers/types'
import type { ToolRun } from './toolService'

export interface ToolLoopDeps {
  maxSteps: number
  signal: AbortSignal
  /** One model request: the turn's build with `exchange` appended; `final`: no more tools. */
  request: (exchange: ProviderMessage[], final: boolean) => AsyncIterable<ChatStreamEvent>
  onText: (delta: string) => void
  /** Stores the model's step that asked for tools; the text streamed so far belongs to it. */
  storeCalls: (
    text: string,
    calls: ToolCall[],
    usage: ChatUsage | null,
    finish: ChatFinishReason | null
  ) => void
  run: (call: ToolCall) => Promise<ToolRun>
  storeResult: (call: ToolCall, run: ToolRun) => Promise<unknown>
  /** Shrinks the exchange to what still fits beside the build (see fitExchange). */
  fit: (exchange: ProviderMessage[]) => ProviderMessage[]
}

export interface ToolLoopResult {
  text: string
  usage: ChatUsage | null
  finish: ChatFinishReason | null
  /** Model requests made. */
  steps: number
  /** Tool calls run (or denied) along the way. */
  calls: number
}

export const STOPPED_RESULT = 'Not run: the user stopped the reply.'
const STEP_LIMIT_RESULT = 'Not run: the step limit for one reply was reached.'

export async function runToolLoop(deps: ToolLoopDeps): Promise<ToolLoopResult> {
  const exchange: ProviderMessage[] = []
  let callCount = 0
  for (let step = 1; ; step++) {
    const final = step >= deps.maxSteps
    let text = ''
    let usage: ChatUsage | null = null
    let finish: ChatFinishReason | null = null
    const calls: ToolCall[] = []
    for await (const event of deps.request(deps.fit(exchange), final)) {
      if (event.type === 'text') {
        text += event.delta
        deps.onText(event.delta)
      } else if (event.type === 'usage') usage = event.usage
      else if (event.type === 'finish') finish = event.reason
      else calls.push(event.call)
    }
    if (calls.length === 0) return { text, usage, finish, steps: step, calls: callCount }

    deps.storeCalls(text, calls, usage, finish)
    exchange.push({ role: 'assistant', content: text, toolCalls: calls })
    // Every call gets a stored answer, even when it never ran, so the pair is never split.
    let index = 0
    try {
      for (; index < calls.length; index++) {
        const call = calls[index] as ToolCall
        const run: ToolRun = final
          ? { content: STEP_LIMIT_RESULT, isError: true, denied: false }
          : await deps.run(call)
        callCount++
        await deps.storeResult(call, run)
        exchange.push({ role: 'tool', content: run.content, toolCallId: call.id })
      }
    } catch (error) {
      for (; index < calls.length; index++) {
        await deps.storeResult(calls[index] as ToolCall, {
          content: STOPPED_RESULT,
          isError: true,
          denied: false
        })
      }
      // Stop reached the tool (the MCP request was cancelled): report it as the stop it is.
      if (deps.signal.aborted) {
        throw new ProviderError({ kind: 'aborted', message: 'The request was stopped.' })
      }
      throw error
    }
    if (final) return { text: '', usage, finish, steps: step, calls: callCount }
  }
}

/**
 * The exchange within `allowance` tokens: older tool results are replaced by the compressor's
 * one-line description first (the stored messages stay whole; the chat's "show full output"
 * reads them), then the newest results are cut to what is left, saying so.
 */
export function fitExchange(
  exchange: readonly ProviderMessage[],
  allowance: number,
  count: (text: string) => number
): ProviderMessage[] {
  const out = exchange.map((m) => ({ ...m }))
  const cost = () => out.reduce((sum, m) => sum + count(m.content) + 4, 0)
  if (cost() <= allowance) return out
  const calls = new Map<string, ToolCall>()
  for (const m of out) for (const c of m.toolCalls ?? []) calls.set(c.id, c)
  const results = out.filter((m) => m.role === 'tool')
  for (const result of results.slice(0, -1)) {
    result.content = describeToolResult(result.content, calls.get(result.toolCallId ?? ''))
    if (cost() <= allowance) return out
  }
  const last = results.at(-1)
  if (!last) return out
  const over = cost() - allowance
  const keepTokens = Math.max(0, count(last.content) - over - 40)
  // Tokens to characters by the text's own ratio; the note says what was left out.
  const ratio = last.content.length / Math.max(1, count(last.content))
  const keep = Math.floor(keepTokens * ratio)
  last.content = `${last.content.slice(0, keep)}\n[output cut here: ${last.content.length - keep} of ${last.content.length} characters did not fit the model's window]`
  return out
}
