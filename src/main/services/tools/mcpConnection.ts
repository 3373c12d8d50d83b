/**
 * One MCP server's life: start (spawn or connect, handshake, list tools), calls, and the end
 * (stopped by the user, or the server went away). Every state change is reported, so Settings
 * shows status, errors and tools as they are.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { McpServerStatus, ToolDescriptor } from '@shared/tools'
import type { McpServerRecord } from '../../store/mcpServerRepository'
import { IsolatedStdioTransport } from './stdioTransport'
import { mcpToolKey } from './toolNames'

/** A handshake or tool listing longer than this fails the start. */
const START_TIMEOUT_MS = 30_000
/** A single call may run this long; Stop ends it sooner. */
const CALL_TIMEOUT_MS = 10 * 60_000

export interface CallOutcome {
  text: string
  isError: boolean
}

export class McpConnection {
  status: McpServerStatus = 'stopped'
  error: string | null = null
  tools: ToolDescriptor[] = []
  private client: Client | null = null
  private transport: IsolatedStdioTransport | StreamableHTTPClientTransport | null = null
  private stopping = false

  constructor(
    readonly server: McpServerRecord,
    private readonly changed: () => void,
    private readonly loginShellPath?: Promise<string | null>
  ) {}

  get pid(): number | null {
    return this.transport instanceof IsolatedStdioTransport ? this.transport.pid : null
  }

  async start(): Promise<void> {
    if (this.status === 'running' || this.status === 'starting') return
    this.set('starting', null)
    this.stopping = false
    const { config } = this.server
    const transport =
      config.kind === 'stdio'
        ? new IsolatedStdioTransport(config, this.loginShellPath)
        : new StreamableHTTPClientTransport(new URL(config.url), {
            requestInit: { headers: config.headers }
          })
    const client = new Client({ name: 'context-lens', version: '1.0.0' })
    this.transport = transport
    this.client = client
    // The server went away (crash, exit, dropped connection): pending calls fail with a
    // "connection closed" error from the SDK, and the server shows as stopped.
    client.onclose = () => {
      if (this.client !== client) return
      this.client = null
      this.transport = null
      this.tools = []
      if (this.stopping) this.set('stopped', null)
      else this.set('stopped', this.exitMessage(transport))
    }
    try {
      await client.connect(transport, { timeout: START_TIMEOUT_MS })
      const listed = await client.listTools(undefined, { timeout: START_TIMEOUT_MS })
      this.tools = listed.tools.map((t) => ({
        key: mcpToolKey(this.server.id, t.name),
        name: t.name,
        description: t.description ?? t.title ?? '',
        parameters: t.inputSchema as Record<string, unknown>,
        source: this.server.id,
        sourceName: this.server.name
      }))
      this.set('running', null)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      const detail = transport instanceof IsolatedStdioTransport ? transport.stderr : ''
      this.client = null
      this.transport = null
      await transport.close().catch(() => {})
      this.tools = []
      this.set('error', detail ? `${reason}\n${detail}` : reason)
    }
  }

  async stop(): Promise<void> {
    this.stopping = true
    const client = this.client
    const transport = this.transport
    this.client = null
    this.transport = null
    this.tools = []
    if (client) await client.close().catch(() => {})
    else if (transport) await transport.close().catch(() => {})
    this.set('stopped', null)
  }

  /** At quit, synchronously: no server process outlives the app. */
  killNow(): void {
    if (this.transport instanceof IsolatedStdioTransport) this.transport.killNow()
  }

  /** Runs one tool; aborting `signal` cancels the request (the SDK tells the server too). */
  async call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal
  ): Promise<CallOutcome> {
    const client = this.client
    if (!client || this.status !== 'running') {
      throw new Error(`The server "${this.server.name}" is not running.`)
    }
    const result = await client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: CALL_TIMEOUT_MS,
      resetTimeoutOnProgress: true
    })
    return { text: resultText(result), isError: result.isError === true }
  }

  private exitMessage(transport: unknown): string {
    const stderr = transport instanceof IsolatedStdioTransport ? transport.stderr : ''
    const base = `The server "${this.server.name}" stopped unexpectedly.`
    return stderr ? `${base}\n${stderr}` : base
  }

  private set(status: McpServerStatus, error: string | null): void {
    this.status = status
    this.error = error
    this.changed()
  }
}

/** Text parts as they are; other parts (images, resources) named, never decoded into text. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : []
  const parts = content.map((part) => {
    if (part.type === 'text' && typeof part.text === 'string') return part.text
    if (part.type === 'resource' && part.resource && typeof part.resource === 'object') {
      const resource = part.resource as Record<string, unknown>
      if (typeof resource.text === 'string') return resource.text
      return `[resource ${String(resource.uri ?? '')}]`
    }
    if (part.type === 'resource_link') return `[resource link ${String(part.uri ?? '')}]`
    return `[${String(part.type)} content, ${String(part.mimeType ?? 'unknown type')}]`
  })
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2)
  }
  if (parts.length === 0 && 'toolResult' in result) return JSON.stringify(result.toolResult)
  return parts.join('\n')
}
