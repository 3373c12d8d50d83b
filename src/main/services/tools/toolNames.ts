/**
 * Tool keys (stable, stored) and the names sent to the model. Providers accept names of
 * `[A-Za-z0-9_-]{1,64}`, and two servers may list the same name, so the name sent is the
 * tool's own when it is valid and unique in the thread, else made so with its server's name.
 */
import type { ToolDescriptor } from '@shared/tools'

export const builtinToolKey = (name: string): string => `builtin:${name}`
export const mcpToolKey = (serverId: string, name: string): string => `mcp:${serverId}:${name}`

const clean = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_')

/** Sent name -> tool, in the order given (earlier tools keep their own names). */
export function assignSentNames(tools: readonly ToolDescriptor[]): Map<string, ToolDescriptor> {
  const byName = new Map<string, ToolDescriptor>()
  for (const tool of tools) {
    let name = clean(tool.name).slice(0, 64) || 'tool'
    if (byName.has(name)) name = `${clean(tool.sourceName)}_${clean(tool.name)}`.slice(0, 64)
    let n = 2
    const base = name.slice(0, 60)
    while (byName.has(name)) name = `${base}_${n++}`
    byName.set(name, tool)
  }
  return byName
}
