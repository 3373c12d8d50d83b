/**
 * The tools section: the tool schemas the thread exposes, each counted exactly as the provider
 * receives it (the JSON text of an OpenAI-style function definition). When they do not all fit,
 * the least relevant are left out and the trace says which. Those sent keep the order they came
 * in, so the definitions, which providers read before the messages, stay the same from turn to
 * turn and do not break the prompt cache.
 */
import type { TokenMeter } from '../tokens/messageTokens'
import type { ToolInput, TraceEntry } from '@shared/context'

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

export function measureTools(tools: readonly ToolInput[], meter: TokenMeter): ToolItem[] {
  return tools.map((tool) => ({
    tool,
    tokens: meter.fragment(toolDefinitionJson(tool)),
    included: false
  }))
}

export const toolsDemand = (items: readonly ToolItem[]): number =>
  items.reduce((sum, item) => sum + item.tokens, 0)

/**
 * Includes every tool when all fit; otherwise the most relevant first (ties and unranked tools
 * in their given order), skipping one that does not fit. Returns the tokens used.
 */
export function placeTools(items: readonly ToolItem[], budget: number): number {
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

export function toolEntry(item: ToolItem): TraceEntry {
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
