/**
 * Builds one request: data in, `BuiltContext` out, no I/O. Sections are measured first; budget
 * then goes to the mandatory items (input, pinned messages, system prompt, pinning block), then
 * to the flexible sections in REDISTRIBUTION_ORDER; the result is assembled in the order the
 * provider reads it (assembleContext.ts). docs/CONTEXT.md walks through an example.
 */
import { ActiveTaskTracker } from './activeTaskTracker'
import { assembleContext } from './assembleContext'
import { BudgetAllocator, BudgetTracker } from './budget'
import type { ContextConfig } from '@shared/contextConfig'
import { REPLY_PRIMING_TOKENS, TokenMeter } from './tokens/messageTokens'
import { defaultOutputReserve, describeModel } from './modelCatalog'
import { renderPinningBlock } from './sections/pinningBlock'
import {
  markSentDuplicates,
  memoriesDemand,
  placeMemories,
  rankMemories,
  type MemoryItem
} from './sections/retrievedMemories'
import { isEmptyReply, withoutEmptyReplies } from './emptyReplies'
import { pinnedGroups, SlidingWindow, type PinnedGroup } from './sections/slidingWindow'
import { inputCountingReport } from './tokens/inputCounting'
import { runSteps } from './steps'
import { chunkTokens } from './sections/windowCut'
import { attachmentQuery, AttachmentsSection } from './sections/attachmentsSection'
import { measureTools, placeTools, toolsDemand, type ToolItem } from './sections/toolsSection'
import { tokenCounterFor } from './tokens/tokenCounter'
import { summaryCoveredEnd } from './toolCallGroups'
import type {
  BuildRequest,
  BuildWarning,
  BuiltContext,
  CountMethod,
  ThreadSummary,
  TraceEntry,
  WarningCode
} from '@shared/context'

/**
 * Sections whose size changes from turn to turn with the input. The chunked window's cut
 * assumes each uses exactly its share, so their ups and downs do not move it.
 */
const PER_TURN_SECTIONS = ['input', 'retrieved', 'attachments'] as const

function renderSummary(summary: ThreadSummary): string {
  return `[Summary of the conversation up to message #${summary.lastMessageSeq}]\n${summary.content}`
}

/** A text section's outcome: what is sent (null: nothing) and what it costs. */
export interface PlacedText {
  text: string | null
  tokens: number
  /** What the full text would cost. */
  demand: number
  truncated: boolean
}

/** The state of one build while its sections are placed; read by assembleContext. */
export class ContextBuild {
  readonly contextWindow: number
  readonly outputReserve: number
  readonly total: number
  readonly meter: TokenMeter
  readonly budget: BudgetAllocator
  readonly tracker = new BudgetTracker()
  readonly warnings: BuildWarning[]
  readonly memories: MemoryItem[]
  readonly pinned: PinnedGroup[]
  readonly window: SlidingWindow
  readonly tools: ToolItem[]
  readonly attachments: AttachmentsSection
  /** Trace entries for the empty model replies left out of the request. */
  readonly emptyReplies: TraceEntry[]
  readonly system: PlacedText
  readonly summary: PlacedText
  readonly pinning: PlacedText
  readonly inputTokens: number
  /** How the input was counted, when not exactly: its trace entry's note. */
  readonly inputNote: string | undefined
  readonly inputCounting: CountMethod
  private readonly sentPinned: PinnedGroup[]
  private readonly pinnedTokens: number

  constructor(
    readonly request: BuildRequest,
    readonly config: ContextConfig
  ) {
    const model = describeModel(config.model)
    this.contextWindow = config.contextWindow ?? model.contextWindow
    this.outputReserve = config.outputReserve ?? defaultOutputReserve(this.contextWindow)
    this.total = config.totalBudget ?? Math.max(0, this.contextWindow - this.outputReserve)
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
    const pinningText = config.pinning ? renderPinningBlock(tasks.state) : null
    const summaryText = request.summary ? renderSummary(request.summary) : null
    this.system = measured(request.systemPrompt || null, meter)
    this.summary = measured(summaryText, meter)
    this.pinning = measured(pinningText, meter)
    const inputCount = request.inputCount ?? runSteps(meter.counter.countSteps(request.input))
    this.inputTokens = meter.stored(inputCount.tokens) + REPLY_PRIMING_TOKENS
    const counting = inputCountingReport(inputCount, meter.counter.exact)
    if (counting.warning) this.warnings.push(counting.warning)
    this.inputNote = counting.note
    this.inputCounting = inputCount.method
    // The summary covers messages[..coveredEnd]; none of those are window candidates.
    const coveredEnd = request.summary
      ? summaryCoveredEnd(request.messages, request.summary.lastMessageSeq)
      : -1
    const { sendable: messages, entries: emptyReplies } = withoutEmptyReplies(
      request.messages,
      coveredEnd + 1,
      meter
    )
    this.emptyReplies = emptyReplies
    const pinned = (request.pinned ?? messages.filter((m) => m.pinned)).filter(
      (m) => !isEmptyReply(m)
    )
    this.pinned = pinnedGroups(messages, pinned, meter)
    this.sentPinned = this.pinned.filter((group) => !group.excluded)
    this.pinnedTokens = this.sentPinned.reduce((sum, group) => sum + group.tokens, 0)
    this.memories = rankMemories(request.memories, meter)
    markSentDuplicates(
      this.memories,
      this.sentPinned.flatMap((group) => group.members)
    )
    this.window = new SlidingWindow(messages, coveredEnd, this.pinned, meter)
    this.tools = measureTools(request.tools ?? [], meter)
    this.attachments = new AttachmentsSection(request.attachments ?? [], meter, () =>
      attachmentQuery(request.input, messages.slice(coveredEnd + 1))
    )

    // Every section holds what it needs of its own share; the rest forms the pool.
    this.budget = new BudgetAllocator(this.total, config.percentages)
    this.budget.hold('input', this.inputTokens)
    this.budget.hold('system', this.system.demand)
    this.budget.hold('summary', this.summary.demand)
    this.budget.hold('retrieved', memoriesDemand(this.memories, meter))
    this.budget.hold('recent', Infinity)
    this.budget.hold('tools', toolsDemand(this.tools))
    this.budget.hold('attachments', this.attachments.demand)
  }

  warn(code: WarningCode, message: string): void {
    this.warnings.push({ code, message })
  }

  /** Units sent in the recent section: pinned groups and the window, oldest first. */
  get recentUnits(): PinnedGroup['members'][] {
    return [...this.sentPinned.map((group) => group.members), ...this.window.units].sort(
      (a, b) => (a[0]?.seq ?? 0) - (b[0]?.seq ?? 0)
    )
  }

  /** The user's words go out whole, whatever they cost; the build says when that is too much. */
  placeInput(): void {
    const short = this.inputTokens - this.budget.holding('input')
    if (short > 0 && this.budget.obtain('input', short) < short) {
      this.warn(
        'input_over_budget',
        `The input needs ${this.inputTokens} tokens, ${this.inputTokens - this.budget.holding('input')} more than the budget has left; it is sent whole.`
      )
    }
    this.tracker.record('input', this.inputTokens)
  }

  /** Pinned messages (with their tool-call groups) are sent whatever they cost. */
  placePinnedMessages(): void {
    const short = this.pinnedTokens - this.budget.holding('recent')
    if (short > 0 && this.budget.obtain('recent', short) < short) {
      this.warn(
        'pinned_over_budget',
        `Pinned messages need ${this.pinnedTokens} tokens, more than the budget allows; they are sent anyway.`
      )
    }
    this.budget.protect('recent', Math.min(this.pinnedTokens, this.budget.holding('recent')))
    const pinnedCount = this.sentPinned.reduce((sum, group) => sum + group.members.length, 0)
    this.tracker.record('recent', this.pinnedTokens, pinnedCount)
  }

  /** Truncated only when even reclaiming every flexible section leaves too little. */
  placeSystemPrompt(): void {
    const system = this.system
    const short = system.demand - this.budget.holding('system')
    if (short > 0) this.budget.obtain('system', short)
    const held = this.budget.holding('system')
    if (system.text !== null && system.demand > held) {
      system.text = this.meter.truncateMessage(system.text, held) || null
      system.truncated = true
      system.tokens = system.text === null ? 0 : this.meter.message(system.text)
      this.warn(
        'system_truncated',
        `The system prompt needs ${system.demand} tokens; it was cut to ${system.tokens} to fit the budget.`
      )
    }
    if (system.text !== null) this.tracker.record('system', system.tokens)
  }

  /** All or nothing: half a goal statement would mislead more than none. */
  placePinningBlock(): void {
    const pinning = this.pinning
    if (pinning.text === null) return
    if (this.budget.available('pinning') < pinning.demand) {
      pinning.text = null
      pinning.tokens = 0
      this.warn('pinning_dropped', 'No budget was left for the current-goal block.')
      return
    }
    this.budget.obtain('pinning', pinning.demand)
    this.tracker.record('pinning', pinning.tokens)
  }

  /**
   * The window gets the recent share plus the whole pool. Memories that repeat a message it
   * took are duplicates; the tokens they held are offered back to the window, which may then
   * take more (and so find more duplicates), until nothing changes.
   */
  placeRecentWindow(): void {
    const window = this.window
    let cut = false
    if (this.config.window.policy === 'chunked') {
      const steady = this.budget.steadyBudget('recent', PER_TURN_SECTIONS) - this.pinnedTokens
      // A mandatory item (a huge paste) squeezed the steady budget below a chunk: this request
      // shares no history prefix with the last one anyway, so it slides rather than sending
      // no history while budget is left for some.
      if (steady >= chunkTokens(this.total, Infinity)) {
        window.cutInChunks(steady, chunkTokens(this.total, steady))
        cut = true
      }
    }
    // A cut window goes before recall's claim beyond its share: its cut bounds what it takes,
    // and a window that stopped short of its cut whenever recall found more would slide a
    // message or two every turn and break the prompt cache (issue #17).
    window.fill(this.budget.offerPool('recent', cut ? ['retrieved'] : []) - this.pinnedTokens)
    let checked = 0
    while (checked < window.units.length) {
      markSentDuplicates(this.memories, window.units.slice(checked).flat())
      checked = window.units.length
      const stillNeeded = memoriesDemand(this.memories, this.meter)
      if (this.budget.holding('retrieved') <= stillNeeded) break
      this.budget.release('retrieved', stillNeeded)
      const before = this.budget.holding('recent')
      window.fill(this.budget.offerPool('recent', cut ? ['retrieved'] : []) - before)
    }
    window.close()
    this.budget.release('recent', this.pinnedTokens + window.used)
    this.tracker.record('recent', window.used, window.units.flat().length)
  }

  /** Placed before the window, so the window's steady budget sees what they hold. */
  placeTools(): void {
    this.budget.offerPool('tools')
    const used = placeTools(this.tools, this.budget.holding('tools'))
    this.budget.release('tools', used)
    const placed = this.tools.filter((item) => item.included).length
    this.tracker.record('tools', used, placed)
    const left = this.tools.filter((item) => !item.included).map((item) => item.tool.name)
    if (left.length > 0) {
      this.warn(
        'tools_dropped',
        `${left.length} tool${left.length === 1 ? '' : 's'} did not fit the tools budget and ${left.length === 1 ? 'was' : 'were'} left out: ${left.join(', ')}.`
      )
    }
  }

  placeAttachments(): void {
    this.budget.offerPool('attachments')
    const used = this.attachments.place(this.budget.holding('attachments'))
    this.budget.release('attachments', used)
    this.tracker.record('attachments', used, this.attachments.includedCount)
    const dropped = this.attachments.droppedCount
    if (dropped > 0) {
      this.warn(
        'attachments_dropped',
        `${dropped} part${dropped === 1 ? '' : 's'} of the attached files did not fit the budget and ${dropped === 1 ? 'was' : 'were'} not sent; the trace lists every part.`
      )
    }
  }

  placeMemories(): void {
    this.budget.offerPool('retrieved')
    const used = placeMemories(this.memories, this.budget.holding('retrieved'), this.meter)
    this.budget.release('retrieved', used)
    const placed = this.memories.filter((m) => m.decision === 'included').length
    this.tracker.record('retrieved', used, placed)
  }

  /**
   * Gets its share plus whatever is still unused. Over both, its beginning is kept if at
   * least half fits; a summary cut shorter than that is dropped, since a stub misleads more
   * than it tells.
   */
  placeSummary(): void {
    const summary = this.summary
    this.budget.offerPool('summary')
    const held = this.budget.holding('summary')
    if (summary.text !== null && summary.demand > held) {
      const cut = held * 2 >= summary.demand ? this.meter.truncateMessage(summary.text, held) : ''
      summary.text = cut || null
      summary.truncated = true
      summary.tokens = summary.text === null ? 0 : this.meter.message(summary.text)
      this.warn(
        'summary_truncated',
        summary.text === null
          ? `The summary needs ${summary.demand} tokens but only ${held} are left; it was left out.`
          : `The summary needs ${summary.demand} tokens; it was cut to ${summary.tokens}.`
      )
    }
    this.budget.release('summary', summary.tokens)
    if (summary.text !== null) this.tracker.record('summary', summary.tokens)
  }
}

function measured(text: string | null, meter: TokenMeter): PlacedText {
  const tokens = text === null ? 0 : meter.message(text)
  return { text, tokens, demand: tokens, truncated: false }
}

export function buildContext(
  request: BuildRequest,
  config: ContextConfig,
  engineName = 'builder'
): BuiltContext {
  const build = new ContextBuild(request, config)
  // Mandatory items first: they may reclaim budget from the flexible sections.
  build.placeInput()
  build.placePinnedMessages()
  build.placeSystemPrompt()
  build.placePinningBlock()
  // Then the flexible sections, each offered what is still unused, in REDISTRIBUTION_ORDER.
  build.placeTools()
  build.placeRecentWindow()
  build.placeAttachments()
  build.placeMemories()
  build.placeSummary()
  return assembleContext(build, engineName)
}
