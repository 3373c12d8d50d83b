/**
 * Tools the model can call: MCP servers the user adds in Settings, the two built-in tools, a
 * thread's choice of tools, and the approval each call waits for. Plain data and the zod
 * schemas of the `tools.*` channels; main, preload and renderer all read them.
 */
import { z } from 'zod'

/** Steps of one turn's tool loop at most: each step is one model request. */
export const MAX_TOOL_STEPS = 8

export type BuiltinToolName = 'search_history' | 'open_message'

export type McpServerStatus = 'stopped' | 'starting' | 'running' | 'error'

export type McpServerConfig =
  | {
      kind: 'stdio'
      /** As the user typed it; resolved to an absolute path when the server starts. */
      command: string
      args: string[]
      /** The child's whole environment: nothing of the app's own is passed on. */
      env: Record<string, string>
      /** Working folder; null: the user's home folder. */
      cwd: string | null
    }
  | { kind: 'http'; url: string; headers: Record<string, string> }

/** A tool as the provider receives it, with where it comes from. */
export interface ToolDescriptor {
  /** Stable across restarts: `builtin:<name>` or `mcp:<serverId>:<name>`. */
  key: string
  name: string
  description: string
  /** The arguments' JSON Schema, as the server listed it. */
  parameters: Record<string, unknown>
  /** 'builtin' or the MCP server's id. */
  source: string
  /** The server's name (or "Built-in"), for the UI. */
  sourceName: string
}

export interface McpServerView {
  id: string
  name: string
  enabled: boolean
  config: McpServerConfig
  status: McpServerStatus
  /** Why it is not running (the spawn error, the server's exit, a failed handshake). */
  error: string | null
  tools: ToolDescriptor[]
  createdAt: number
}

/** One tool in a thread's picker. */
export interface ThreadToolView {
  tool: ToolDescriptor
  /** The thread exposes it to the model. */
  enabled: boolean
  /** Calls run without asking ("always for this tool"). */
  alwaysAllowed: boolean
}

export type ApprovalDecision = 'once' | 'always' | 'deny'

/** A call waiting for the user: shown with its arguments until approved or denied. */
export interface ToolApprovalRequest {
  threadId: string
  callId: string
  /** The name the model used. */
  toolName: string
  toolKey: string
  sourceName: string
  /** JSON text exactly as the model produced it. */
  arguments: string
  requestedAt: number
}

/** A stored message of the tool loop (the model's call, or a tool's result) for the chat. */
export interface ToolStepEvent {
  threadId: string
  streamId: string
  message: import('./domain').Message
}

const Name = z
  .string()
  .trim()
  .min(1, { message: 'Name is empty' })
  .max(100, { message: 'Name is longer than 100 characters' })

/** Environment names as POSIX shells accept them; values bounded, no NUL (spawn refuses it). */
const EnvMap = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'Not a valid variable name' }),
    z
      .string()
      .max(10_000)
      .refine((v) => !v.includes('\0'), { message: 'A value contains a NUL character' })
  )
  .refine((env) => Object.keys(env).length <= 100, { message: 'More than 100 variables' })

const HeaderMap = z
  .record(
    z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { message: 'Not a valid header name' }),
    z
      .string()
      .max(10_000)
      .refine((v) => !/[\r\n\0]/.test(v), { message: 'A header value contains a line break' })
  )
  .refine((headers) => Object.keys(headers).length <= 50, { message: 'More than 50 headers' })

const McpServerConfigSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('stdio'),
    command: z
      .string()
      .trim()
      .min(1, { message: 'Command is empty' })
      .max(4096)
      .refine((v) => !v.includes('\0'), { message: 'Command contains a NUL character' }),
    args: z
      .array(
        z
          .string()
          .max(10_000)
          .refine((v) => !v.includes('\0'), { message: 'An argument contains a NUL character' })
      )
      .max(100)
      .default([]),
    env: EnvMap.default({}),
    cwd: z.string().trim().min(1).max(4096).nullable().default(null)
  }),
  z.strictObject({
    kind: z.literal('http'),
    url: z
      .url({ protocol: /^https?$/, message: 'Not an http(s) URL' })
      .max(4096, { message: 'URL is too long' }),
    headers: HeaderMap.default({})
  })
])

export const McpServerInputSchema = z.strictObject({
  name: Name,
  enabled: z.boolean().default(false),
  config: McpServerConfigSchema
})
export type McpServerInput = z.input<typeof McpServerInputSchema>

export const McpServerPatchSchema = z
  .strictObject({
    name: Name.optional(),
    enabled: z.boolean().optional(),
    config: McpServerConfigSchema.optional()
  })
  .refine((p) => p.name !== undefined || p.enabled !== undefined || p.config !== undefined, {
    message: 'Nothing to change'
  })
export type McpServerPatch = z.input<typeof McpServerPatchSchema>

/** A tool key (`builtin:<name>` or `mcp:<server>:<name>`); the service checks the prefix. */
export const ToolKeySchema = z.string().min(1).max(400)

export const isToolKey = (key: string): boolean => /^(builtin|mcp):/.test(key)
