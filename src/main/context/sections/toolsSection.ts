/**
 * The tools section: the tool schemas the thread exposes, each counted exactly as the provider
 * receives it (the JSON text of an OpenAI-style function definition). When they do not all fit,
 * the least relevant are left out and the trace says which. Those sent keep the order they came
 * in, so the definitions, which providers read before the messages, stay the same from turn to
 * turn and do not break the prompt cache.
 */
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import type { ToolInput, TraceEntry } from '@shared/context'
import type { Section } from './section'

/** The definition as an OpenAI-compatible provider receives it; what the section counts. */
export function toolDefinitionJson(tool: ToolInput): string {
  return JSON.stringify({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters }
  })
}

export interface ToolItem {
  tool: ToolInput
  tokens: number
  included: boolean
}

const toolsDemand = (items: readonly ToolItem[]): number =>
  items.reduce((sum, item) => sum + item.tokens, 0)

/**
 * Includes every tool when all fit; otherwise the most relevant first (ties and unranked tools
 * in their given order), skipping one that does not fit. Returns the tokens used.
 */
function fitTools(items: readonly ToolItem[], budget: number): number {
  if (toolsDemand(items) <= budget) {
    for (const item of items) item.included = true
    return toolsDemand(items)
  }
  const ranked = items
    .map((item, order) => ({ item, order }))
    .sort(
      (a, b) =>
        (b.item.tool.relevance ?? -Infinity) - (a.item.tool.relevance ?? -Infinity) ||
        a.order - b.order
    )
  let used = 0
  for (const { item } of ranked) {
    if (used + item.tokens > budget) continue
    item.included = true
    used += item.tokens
  }
  return used
}

function toolEntry(item: ToolItem): TraceEntry {
  const { tool } = item
  const entry: TraceEntry = {
    id: `tool:${tool.name}`,
    kind: 'tool',
    section: 'tools',
    tokens: item.tokens,
    decision: item.included ? 'included' : 'dropped_budget',
    preview:
      tool.description.length <= 120 ? tool.description : `${tool.description.slice(0, 119)}…`
  }
  if (tool.relevance !== undefined && tool.relevance !== null) entry.score = tool.relevance
  if (tool.source !== undefined) entry.toolSource = tool.source
  return entry
}

/** Placed before the window, so the window's steady budget sees what they hold. */
export class ToolsSection implements Section {
  readonly items: ToolItem[]

  constructor(tools: readonly ToolInput[], meter: TokenMeter) {
    this.items = tools.map((tool) => ({
      tool,
      tokens: meter.fragment(toolDefinitionJson(tool)),
      included: false
    }))
  }

  hold(build: ContextBuild): void {
    build.budget.hold('tools', toolsDemand(this.items))
  }

  place(build: ContextBuild): void {
    const { budget } = build
    budget.offerPool('tools')
    const used = fitTools(this.items, budget.holding('tools'))
    budget.release('tools', used)
    build.tracker.record('tools', used, this.sent.length)
    const left = this.items.filter((item) => !item.included).map((item) => item.tool.name)
    if (left.length > 0) {
      build.warn(
        'tools_dropped',
        `${left.length} tool${left.length === 1 ? '' : 's'} did not fit the tools budget and ${left.length === 1 ? 'was' : 'were'} left out: ${left.join(', ')}.`
      )
    }
  }

  /** The schemas sent, in the order they came in. */
  get sent(): ToolInput[] {
    return this.items.filter((item) => item.included).map((item) => item.tool)
  }

  entries(): TraceEntry[] {
    return this.items.map(toolEntry)
  }
}
