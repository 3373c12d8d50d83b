/**
 * Builds one request: data in, `BuiltContext` out, no I/O. Each section (sections/, one module
 * each, `Section`) is measured first and holds what it needs of its share; budget then goes to
 * the mandatory items (input, pinned messages, system prompt, pinning block), then to the
 * flexible sections in REDISTRIBUTION_ORDER; the result is assembled in the order the provider
 * reads it (assembleContext.ts). docs/CONTEXT.md walks through an example.
 */
import { ActiveTaskTracker } from './sections/activeTaskTracker'
import { assembleContext } from './assembleContext'
import { BudgetAllocator, BudgetTracker } from './budget'
import type { ContextConfig } from '@shared/contextConfig'
import { TokenMeter } from './tokens/messageTokens'
import { defaultOutputReserve, describeModel } from './modelCatalog'
import { isEmptyReply, withoutEmptyReplies } from './emptyReplies'
import { tokenCounterFor } from './tokens/tokenCounter'
import { summaryCoveredEnd } from './toolCallGroups'
import { attachmentQuery, AttachmentsSection } from './sections/attachmentsSection'
import { InputSection } from './sections/inputSection'
import { PinnedMessages } from './sections/pinnedMessages'
import { PinningBlock } from './sections/pinningBlock'
import { RecentWindow } from './sections/recentWindow'
import { RetrievedMemories } from './sections/retrievedMemories'
import type { Section } from './sections/section'
import { SummarySection } from './sections/summarySection'
import { SystemPrompt } from './sections/systemPrompt'
import { ToolsSection } from './sections/toolsSection'
import {
  defaultTotalBudget,
  type BuildRequest,
  type BuildWarning,
  type BuiltContext,
  type TraceEntry,
  type WarningCode
} from '@shared/context'

/** The state of one build while its sections are placed; read by assembleContext. */
export class ContextBuild {
  readonly contextWindow: number
  readonly outputReserve: number
  readonly total: number
  readonly meter: TokenMeter
  readonly budget: BudgetAllocator
  readonly tracker = new BudgetTracker()
  readonly warnings: BuildWarning[]
  /** Trace entries for the empty model replies left out of the request. */
  readonly emptyReplies: TraceEntry[]
  readonly input: InputSection
  readonly system: SystemPrompt
  readonly summary: SummarySection
  readonly pinning: PinningBlock
  readonly pinned: PinnedMessages
  readonly memories: RetrievedMemories
  readonly recent: RecentWindow
  readonly tools: ToolsSection
  readonly attachments: AttachmentsSection

  constructor(
    readonly request: BuildRequest,
    readonly config: ContextConfig
  ) {
    const model = describeModel(config.model)
    this.contextWindow = config.contextWindow ?? model.contextWindow
    this.outputReserve = config.outputReserve ?? defaultOutputReserve(this.contextWindow)
    this.total = config.totalBudget ?? defaultTotalBudget(this.contextWindow, this.outputReserve)
    const correction = config.tokenCorrections[config.model] ?? 1
    this.meter = new TokenMeter(tokenCounterFor(config.model), correction)
    this.warnings = [...(request.warnings ?? [])]
    if (!model.known && config.contextWindow === undefined) {
      this.warn(
        'unknown_model',
        `Unknown model "${config.model}": assuming a ${this.contextWindow}-token window.`
      )
    }
    if (!this.meter.counter.exact) {
      this.warn(
        'estimated_tokens',
        `No tokenizer for "${config.model}": token counts are estimates.`
      )
    }

    // Measure everything whose size is known before anything is chosen.
    const meter = this.meter
    const tasks = new ActiveTaskTracker(request.taskState)
    tasks.observe(request.input)
    this.system = new SystemPrompt(request.systemPrompt || null, meter)
    this.summary = new SummarySection(request.summary, meter)
    this.pinning = new PinningBlock(config.pinning ? tasks.state : null, meter)
    this.input = new InputSection(request, meter)
    if (this.input.countingWarning) this.warnings.push(this.input.countingWarning)
    // The summary covers messages[..coveredEnd]; none of those are window candidates.
    const coveredEnd = request.summary
      ? summaryCoveredEnd(request.messages, request.summary.lastMessageSeq)
      : -1
    const { sendable: messages, entries: emptyReplies } = withoutEmptyReplies(
      request.messages,
      coveredEnd + 1,
      meter,
      request.emptyReplies
    )
    this.emptyReplies = emptyReplies
    const pinned = (request.pinned ?? messages.filter((m) => m.pinned)).filter(
      (m) => !isEmptyReply(m)
    )
    this.pinned = new PinnedMessages(messages, pinned, meter)
    this.memories = new RetrievedMemories(
      request.memories,
      meter,
      this.pinned.sent.flatMap((group) => group.members)
    )
    this.recent = new RecentWindow(messages, coveredEnd, this.pinned, meter)
    this.tools = new ToolsSection(request.tools ?? [], meter)
    this.attachments = new AttachmentsSection(request.attachments ?? [], meter, () =>
      attachmentQuery(request.input, messages.slice(coveredEnd + 1))
    )

    // Every section holds what it needs of its own share; the rest forms the pool.
    this.budget = new BudgetAllocator(this.total, config.percentages)
    for (const section of this.sections) section.hold(this)
  }

  /**
   * In the order they are placed: mandatory items first (they may reclaim budget from the
   * flexible sections), then the flexible sections, each offered what is still unused, in
   * REDISTRIBUTION_ORDER. Tools come before the window, so its steady budget sees what they hold.
   */
  get sections(): Section[] {
    return [
      this.input,
      this.pinned,
      this.system,
      this.pinning,
      this.tools,
      this.recent,
      this.attachments,
      this.memories,
      this.summary
    ]
  }

  warn(code: WarningCode, message: string): void {
    this.warnings.push({ code, message })
  }
}

export function buildContext(
  request: BuildRequest,
  config: ContextConfig,
  engineName = 'builder'
): BuiltContext {
  const build = new ContextBuild(request, config)
  for (const section of build.sections) section.place(build)
  return assembleContext(build, engineName)
}
