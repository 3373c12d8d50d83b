/**
 * Turns a finished build into the one structure both the provider and the inspector read.
 * Message order: the stable prefix first (system prompt, summary, the recent messages oldest
 * first), which stays byte-identical from turn to turn while the chunked window holds its cut,
 * so provider prompt caches keep hitting; then what is chosen for this input (memories, the
 * pinning block); and the user's input last: the model answers the final user message, and
 * some providers require the conversation to end with one. The `sliding` policy keeps the
 * order from before the chunked window (memories before the history), for comparison.
 */
import type { ContextBuild } from './contextBuilder'
import { recalledByGroup, renderMemoriesBlock } from './sections/retrievedMemories'
import { toolCallProblems } from './toolCallGroups'
import type { BuiltContext, ContextMessage, ProviderMessage, TraceEntry } from '@shared/context'

function toProvider(message: ContextMessage): ProviderMessage {
  const out: ProviderMessage = { role: message.role, content: message.content }
  if (message.toolCalls && message.toolCalls.length > 0) out.toolCalls = [...message.toolCalls]
  if (message.toolCallId !== null) out.toolCallId = message.toolCallId
  return out
}

export function assembleContext(build: ContextBuild, engineName: string): BuiltContext {
  const { request, meter, tracker } = build
  const { window } = build.recent
  const memoryItems = build.memories.items
  const recentUnits = build.recent.units
  for (const unit of recentUnits) build.warnings.push(...toolCallProblems(unit))
  const recent = recentUnits.flat()

  const messages: ProviderMessage[] = []
  if (build.system.text !== null) messages.push({ role: 'system', content: build.system.text })
  if (build.summary.text !== null) messages.push({ role: 'system', content: build.summary.text })
  const memoriesBlock = renderMemoriesBlock(memoryItems)
  const memories: ProviderMessage[] =
    memoriesBlock === null ? [] : [{ role: 'system', content: memoriesBlock }]
  let stablePrefixMessages: number
  if (build.config.window.policy === 'sliding') {
    // Memories change every turn: only the system prompt and the summary stay put.
    stablePrefixMessages = messages.length
    messages.push(...memories, ...recent.map(toProvider))
  } else {
    messages.push(...recent.map(toProvider))
    stablePrefixMessages = messages.length
    messages.push(...memories)
  }
  const attachments = build.attachments.block
  if (attachments !== null) messages.push({ role: 'user', content: attachments })
  if (build.pinning.text !== null) messages.push({ role: 'system', content: build.pinning.text })
  messages.push({ role: 'user', content: request.input })

  const trace: TraceEntry[] = [
    ...build.system.entries(),
    ...build.summary.entries(),
    ...build.tools.entries(),
    ...build.memories.entries(),
    ...build.pinned
      .entries()
      .concat(window.entries, build.emptyReplies)
      .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)),
    ...build.input.entries(),
    ...build.attachments.entries(),
    ...build.pinning.entries()
  ]

  if (tracker.total > build.contextWindow) {
    build.warn(
      'context_window_exceeded',
      `The request needs ${tracker.total} tokens, more than the model's ${build.contextWindow}-token window.`
    )
  }

  return {
    messages,
    tools: build.tools.sent,
    tokenStats: {
      sections: tracker.stats(build.budget),
      total: tracker.total,
      budget: build.total,
      free: Math.max(0, build.total - tracker.total),
      contextWindow: build.contextWindow,
      outputReserve: build.outputReserve
    },
    metadata: {
      engine: engineName,
      model: build.config.model,
      encoding: meter.counter.encoding,
      includedMessageCount: recent.length,
      droppedMessageCount: window.droppedCount,
      summarizedMessageCount: window.coveredCount,
      usedSummary: build.summary.text !== null,
      retrievedMemoryCount: build.memories.placed,
      warnings: build.warnings
    },
    trace,
    collapsed: window.collapsed,
    window: {
      policy: build.config.window.policy,
      firstKeptSeq: window.units.at(-1)?.[0]?.seq ?? null,
      stablePrefixMessages
    },
    ...(request.recall && { recall: { ...request.recall, ...recalledByGroup(memoryItems) } })
  }
}
