/**
 * The tools domain: MCP servers (Settings), which tools each thread exposes, "always allow",
 * the schemas a build gets, and running one call after the user's consent.
 */
import { randomUUID } from 'node:crypto'
import type { ToolInput } from '@shared/context'
import type { Message, ToolCall } from '@shared/domain'
import { withDeadline } from '@shared/deadline'
import { AppError } from '@shared/result'
import {
  McpServerInputSchema,
  isToolKey,
  type ApprovalDecision,
  type BuiltinToolName,
  type McpServerInput,
  type McpServerPatch,
  type McpServerView,
  type ThreadToolView,
  type ToolApprovalRequest,
  type ToolDescriptor
} from '@shared/tools'
import type { ActiveModel } from '../memory/memoryIndexer'
import { similarity, spaceKeyed, type QueryRanker } from '../memory/queryRanker'
import type { McpServerRecord, McpServerRepository } from '../../store/mcpServerRepository'
import type { SettingsRepository } from '../../store/settingsRepository'
import type { ThreadRepository } from '../../store/threadRepository'
import type { Publish } from '../events'
import { ApprovalGate } from './approvalGate'
import { BUILTIN_TOOLS, runBuiltinTool, type BuiltinToolDeps } from './builtinTools'
import { McpConnection } from './mcpConnection'
import { assignSentNames } from './toolNames'

/** Settings key: tool keys whose calls run without asking. */
const ALWAYS_KEY = 'toolsAlwaysAllowed'
/** Relevance is best effort: a build does not wait longer for the embedding. */
const RELEVANCE_TIMEOUT_MS = 300

export interface ToolServiceDeps {
  servers: McpServerRepository
  settings: SettingsRepository
  threads: ThreadRepository
  builtins: BuiltinToolDeps
  publish: Publish
  now: () => number
  log: (message: string, error: unknown) => void
  /** The memory model when it is loaded, for tool relevance; null: relevance is null. */
  model?: () => ActiveModel | null
  /** Embeds the query, cached per vector space (shared with memory search and files). */
  ranker?: QueryRanker
  newId?: () => string
  /** Where stdio servers' commands are found and what PATH they get (null: the app's). */
  loginShellPath?: Promise<string | null>
}

/** What running one call produced: stored as the tool message that answers it. */
export interface ToolRun {
  content: string
  /** The tool failed, was denied, or could not run: the model reads why. */
  isError: boolean
  denied: boolean
}

export class ToolService {
  readonly approvals: ApprovalGate
  private readonly connections = new Map<string, McpConnection>()
  private readonly vectors = new Map<string, Float32Array>()

  constructor(private readonly deps: ToolServiceDeps) {
    this.approvals = new ApprovalGate(deps.publish)
  }

  // ---- servers --------------------------------------------------------------------------------

  listServers(): McpServerView[] {
    return this.deps.servers.list().map((record) => this.view(record))
  }

  async addServer(input: McpServerInput): Promise<McpServerView> {
    const parsed = McpServerInputSchema.parse(input)
    const record: McpServerRecord = {
      id: (this.deps.newId ?? randomUUID)(),
      name: parsed.name,
      enabled: parsed.enabled,
      config: parsed.config,
      createdAt: this.deps.now()
    }
    this.deps.servers.insert(record)
    this.changed(record.id)
    if (record.enabled) await this.connectionFor(record).start()
    return this.view(record)
  }

  async updateServer(id: string, patch: McpServerPatch): Promise<McpServerView> {
    const current = this.server(id)
    const next: McpServerRecord = {
      ...current,
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.enabled !== undefined && { enabled: patch.enabled }),
      ...(patch.config !== undefined && {
        config: McpServerInputSchema.shape.config.parse(patch.config)
      })
    }
    this.deps.servers.update(next)
    // A changed launch or name takes effect on a fresh start; disabling stops it.
    await this.connections.get(id)?.stop()
    this.connections.delete(id)
    this.changed(id)
    if (next.enabled) await this.connectionFor(next).start()
    return this.view(next)
  }

  async removeServer(id: string): Promise<void> {
    this.server(id)
    await this.connections.get(id)?.stop()
    this.connections.delete(id)
    this.deps.servers.remove(id)
    this.changed(id)
  }

  async restartServer(id: string): Promise<McpServerView> {
    const record = this.server(id)
    if (!record.enabled) throw new AppError('invalid_input', 'Enable the server to start it.')
    await this.connections.get(id)?.stop()
    this.connections.delete(id)
    await this.connectionFor(record).start()
    return this.view(record)
  }

  /** At app start: every enabled server, in parallel; failures show on the server. */
  async startEnabled(): Promise<void> {
    const enabled = this.deps.servers.list().filter((s) => s.enabled)
    await Promise.all(enabled.map((s) => this.connectionFor(s).start()))
  }

  async stopAll(): Promise<void> {
    const all = [...this.connections.values()]
    this.connections.clear()
    await Promise.all(all.map((c) => c.stop()))
  }

  /** Synchronous, for process exit: every child is killed. */
  killAll(): void {
    for (const connection of this.connections.values()) connection.killNow()
  }

  /** The child's pid (tests kill it to simulate a crash). */
  pidOf(id: string): number | null {
    return this.connections.get(id)?.pid ?? null
  }

  // ---- a thread's tools -----------------------------------------------------------------------

  threadTools(threadId: string): ThreadToolView[] {
    const enabled = new Set(this.enabledKeys(threadId))
    const always = new Set(this.alwaysKeys())
    return this.available().map((tool) => ({
      tool,
      enabled: enabled.has(tool.key),
      alwaysAllowed: always.has(tool.key)
    }))
  }

  /** Keys of tools that are not available now (server stopped) are kept for when they are. */
  setThreadTools(threadId: string, keys: readonly string[]): ThreadToolView[] {
    this.thread(threadId)
    const unknown = keys.find((key) => !isToolKey(key))
    if (unknown !== undefined) {
      throw new AppError('not_found', `No tool has the key "${unknown}".`)
    }
    this.deps.threads.updateSettings(threadId, { tools: [...new Set(keys)] })
    return this.threadTools(threadId)
  }

  setAlwaysAllowed(key: string, allowed: boolean): void {
    if (!isToolKey(key)) throw new AppError('not_found', `No tool has the key "${key}".`)
    const keys = new Set(this.alwaysKeys())
    if (allowed) keys.add(key)
    else keys.delete(key)
    this.deps.settings.set(ALWAYS_KEY, [...keys])
  }

  /**
   * The schemas a build of this thread may send (the builder decides which fit), each with its
   * relevance to `query` when the memory model is loaded.
   */
  async forBuild(threadId: string, query: string): Promise<ToolInput[]> {
    const exposed = this.exposed(threadId)
    if (exposed.size === 0) return []
    const relevance = await this.relevance([...exposed.values()], query)
    return [...exposed].map(([name, tool]) => ({
      name,
      description: tool.description,
      parameters: tool.parameters,
      relevance: relevance?.get(tool.key) ?? null,
      source: tool.source
    }))
  }

  // ---- calls ----------------------------------------------------------------------------------

  /**
   * Asks for consent (unless always allowed), then runs the call. A denial, a bad argument, an
   * unknown tool or a failing server become a result the model reads; only Stop throws.
   */
  async execute(threadId: string, call: ToolCall, signal: AbortSignal): Promise<ToolRun> {
    const tool = this.exposed(threadId).get(call.name)
    if (!tool) {
      return {
        content: `Error: no tool named "${call.name}" is available.`,
        isError: true,
        denied: false
      }
    }
    let args: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(call.arguments || '{}')
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error()
      args = parsed as Record<string, unknown>
    } catch {
      return {
        content: 'Error: the arguments are not a JSON object.',
        isError: true,
        denied: false
      }
    }
    if (!this.alwaysKeys().includes(tool.key)) {
      const request: ToolApprovalRequest = {
        threadId,
        callId: call.id,
        toolName: call.name,
        toolKey: tool.key,
        sourceName: tool.sourceName,
        arguments: call.arguments,
        requestedAt: this.deps.now()
      }
      const decision = await this.approvals.ask(request, signal)
      if (decision === 'deny') {
        return { content: 'The user denied this tool call.', isError: true, denied: true }
      }
      if (decision === 'always') this.setAlwaysAllowed(tool.key, true)
    }
    try {
      if (tool.source === 'builtin') {
        const content = await runBuiltinTool(this.deps.builtins, tool.name as BuiltinToolName, args)
        return { content, isError: false, denied: false }
      }
      const connection = this.connections.get(tool.source)
      if (!connection) throw new Error(`The server "${tool.sourceName}" is not running.`)
      const outcome = await connection.call(tool.name, args, signal)
      return { content: outcome.text, isError: outcome.isError, denied: false }
    } catch (error) {
      if (signal.aborted) throw error
      const reason = error instanceof Error ? error.message : String(error)
      const gone =
        tool.source !== 'builtin' && this.connections.get(tool.source)?.status !== 'running'
      const content = gone
        ? `Error: the server "${tool.sourceName}" stopped during this call (${reason}).`
        : `Error: ${reason}`
      return { content, isError: true, denied: false }
    }
  }

  /** A stored tool result exactly as the tool returned it (the store never rewrites it). */
  output(messageId: number): Message {
    const message = this.deps.builtins.messages.get(messageId)
    if (!message || message.role !== 'tool') {
      throw new AppError('not_found', 'This tool result no longer exists.')
    }
    return message
  }

  answer(threadId: string, callId: string, decision: ApprovalDecision): { settled: boolean } {
    return { settled: this.approvals.answer(threadId, callId, decision) }
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Built-ins first, then each running server's tools in the order it listed them. */
  private available(): ToolDescriptor[] {
    const running = this.deps.servers.list().flatMap((s) => this.connections.get(s.id)?.tools ?? [])
    return [...BUILTIN_TOOLS, ...running]
  }

  private exposed(threadId: string): Map<string, ToolDescriptor> {
    const enabled = new Set(this.enabledKeys(threadId))
    return assignSentNames(this.available().filter((t) => enabled.has(t.key)))
  }

  private enabledKeys(threadId: string): string[] {
    const value: unknown = this.thread(threadId).settings.tools
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : []
  }

  private alwaysKeys(): string[] {
    const value = this.deps.settings.get(ALWAYS_KEY)
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : []
  }

  private async relevance(
    tools: ToolDescriptor[],
    query: string
  ): Promise<Map<string, number> | null> {
    const model = this.deps.model?.()
    const ranker = this.deps.ranker
    if (!model || !ranker || model.embedder.status().state !== 'ready' || !query.trim()) {
      return null
    }
    try {
      const work = (async () => {
        // A description's vector is kept per vector space: after a model switch the tools
        // are embedded again, never compared across two models.
        const key = (t: ToolDescriptor) => spaceKeyed(model, t.key)
        const missing = tools.filter((t) => !this.vectors.has(key(t)))
        if (missing.length > 0) {
          const vectors = await model.embedder.embed(
            missing.map((t) => `${t.name}: ${t.description}`),
            { priority: 'query' }
          )
          missing.forEach((t, i) => {
            const v = vectors[i]
            if (v) this.vectors.set(key(t), v)
          })
        }
        const q = await ranker.embed(model, query.slice(0, 2000))
        const scores = new Map<string, number>()
        for (const t of tools) {
          const v = this.vectors.get(key(t))
          if (v) scores.set(t.key, similarity(q, v))
        }
        return scores
      })()
      // The work may outlive the wait (its vectors are kept); a failure is logged here, once.
      work.catch((error: unknown) => this.deps.log('tool relevance failed', error))
      return await withDeadline(work, RELEVANCE_TIMEOUT_MS)
    } catch {
      return null // a failure is logged above; past the deadline the builder goes on without
    }
  }

  private connectionFor(record: McpServerRecord): McpConnection {
    const existing = this.connections.get(record.id)
    if (existing) return existing
    const connection = new McpConnection(
      record,
      () => this.changed(record.id),
      this.deps.loginShellPath
    )
    this.connections.set(record.id, connection)
    return connection
  }

  private view(record: McpServerRecord): McpServerView {
    const connection = this.connections.get(record.id)
    return {
      id: record.id,
      name: record.name,
      enabled: record.enabled,
      config: record.config,
      status: connection?.status ?? 'stopped',
      error: connection?.error ?? null,
      tools: connection?.tools ?? [],
      createdAt: record.createdAt
    }
  }

  private server(id: string): McpServerRecord {
    const record = this.deps.servers.get(id)
    if (!record) throw new AppError('not_found', 'This server no longer exists.')
    return record
  }

  private thread(threadId: string) {
    const thread = this.deps.threads.get(threadId)
    if (!thread) throw new AppError('not_found', 'This conversation no longer exists.')
    return thread
  }

  private changed(serverId: string): void {
    this.deps.publish('tools:changed', { serverId })
  }
}
