/**
 * An in-memory stand-in for the main process, implementing the same `Api` type the preload
 * exposes. It keeps real state (threads, messages, settings) so tests observe behaviour, and
 * records every call so tests can assert what was (or was not) sent.
 */
import { pageOf, type PageQuery } from '@shared/messagePages'
import type { Api } from '@shared/api'
import type { StoredBuild } from '@shared/context'
import {
  mergeConfigPatches,
  resolveContextConfig,
  type ContextConfigPatch
} from '@shared/contextConfig'
import type { EventName, EventPayload } from '@shared/contract'
import type {
  AppSettings,
  Message,
  SearchHit,
  SendOutcome,
  Thread,
  ThreadSummaryView,
  ThreadListItem,
  SalvageReport
} from '@shared/domain'
import { createFakeMemoryApi, type FakeMemoryApi } from './fakeMemoryApi'
import type { z } from 'zod'
import type { ProviderInputSchema } from '@shared/providers'
import type {
  ConnectionTestResult,
  OllamaDetection,
  ProviderPatch,
  ProviderView,
  UsageTotals
} from '@shared/providers'
import { adoptedDefaultModel } from '@shared/defaultModel'
import { fail, ok, type IpcError, type IpcResult } from '@shared/result'
import type { SummaryAutomationStatus, SummaryCompressResult } from '@shared/summaryCompression'
import { pollUntil } from '../../support/poll'
import { fakeBuild, fakeTokens } from './fakeBuild'

export interface FakeBackend {
  api: Api
  /** Every call as `domain:method` with its input, in order. */
  calls: { channel: string; input: unknown }[]
  /** How many calls on `channel` main has handled (an answer held late counts once handled). */
  handled(channel: string): number
  /** How many calls on `channel` have had their answer delivered to the renderer. */
  answered(channel: string): number
  settings: AppSettings
  /** What app.info reports about a damaged database the user chose to start over from. */
  recoveredFromBackup: string | null
  /** What app.info reports salvage copied and could not read from that file. */
  salvage: SalvageReport | null
  /** Makes the next call on `channel` fail with `error`. */
  failNext(channel: string, error: IpcError): void
  /** Holds the next call on `channel` until the returned function is called. */
  hold(channel: string): () => void
  /**
   * Answers the next call on `channel` late: main handles it at once (the answer reflects the
   * state then), but the answer only arrives when the returned function is called, so later
   * calls can overtake it.
   */
  holdAnswer(channel: string): () => void
  addThread(title: string, options?: { updatedAt?: number }): Thread
  addMessages(threadId: string, contents: string[]): Message[]
  messagesOf(threadId: string): Message[]
  /** The context configuration as stored: the global patch and each thread's. */
  contextConfig: { global: ContextConfigPatch; threads: Map<string, ContextConfigPatch> }
  /** Sent builds per thread, oldest first. */
  buildsOf(threadId: string): StoredBuild[]
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  /** The memory domain's state (memories, status, semantic matches), for setup and assertions. */
  memory: FakeMemoryApi
  /** Configured providers (never with keys); `apiKeys` keeps what the renderer sent. */
  providers: ProviderView[]
  apiKeys: Map<string, string>
  encryptionAvailable: boolean
  ollama: OllamaDetection
  /** What `providers.test` answers. */
  testResult: ConnectionTestResult
  /** When set, sends answer `streaming` with ids `stream-1`, `stream-2`…; tests emit the rest. */
  streaming: boolean
  /** The stream ids handed out, in order. */
  streamIds: string[]
  usageTotals: UsageTotals
  /** Adds a stored assistant reply to a thread (as chat:done would carry it). */
  addReply(
    threadId: string,
    content: string,
    reply?: Partial<NonNullable<Message['reply']>>
  ): Message
  summaries: Map<string, ThreadSummaryView>
}

const BASE_TIME = Date.UTC(2025, 0, 15, 9, 0, 0)

function createFakeBackend(): FakeBackend {
  const threads = new Map<string, Thread>()
  const messages = new Map<string, Message[]>()
  const listeners = new Map<string, Set<(payload: never) => void>>()
  const failures = new Map<string, IpcError>()
  const holds = new Map<string, Promise<void>>()
  const answerHolds = new Map<string, Promise<void>>()
  const calls: FakeBackend['calls'] = []
  const handledCounts = new Map<string, number>()
  const answeredCounts = new Map<string, number>()
  const count = (counts: Map<string, number>, channel: string) =>
    counts.set(channel, (counts.get(channel) ?? 0) + 1)
  const builds = new Map<string, StoredBuild[]>()
  let clock = BASE_TIME
  let nextId = 1
  const now = () => (clock += 1000)
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

  const backend: FakeBackend = {
    api: undefined as unknown as Api,
    calls,
    handled: (channel) => handledCounts.get(channel) ?? 0,
    answered: (channel) => answeredCounts.get(channel) ?? 0,
    settings: {
      locale: 'en',
      inspectorOpen: true,
      systemPrompt: 'You are a test assistant.',
      defaultModel: null,
      promptCacheTtl: '5m',
      theme: 'system'
    },
    recoveredFromBackup: null,
    salvage: null,
    failNext: (channel, error) => void failures.set(channel, error),
    hold(channel) {
      let release!: () => void
      holds.set(channel, new Promise<void>((resolve) => (release = resolve)))
      return release
    },
    holdAnswer(channel) {
      let release!: () => void
      answerHolds.set(channel, new Promise<void>((resolve) => (release = resolve)))
      return release
    },
    addThread(title, options = {}) {
      const time = options.updatedAt ?? now()
      const thread: Thread = {
        id: uuid(nextId++),
        title,
        createdAt: time,
        updatedAt: time,
        settings: {}
      }
      threads.set(thread.id, thread)
      messages.set(thread.id, [])
      return thread
    },
    addMessages(threadId, contents) {
      const list = messages.get(threadId) ?? []
      const added = contents.map((content) => {
        const message: Message = {
          id: nextId++,
          threadId,
          seq: list.length + 1,
          role: 'user',
          content,
          toolCalls: null,
          toolCallId: null,
          tokenCount: fakeTokens(content),
          createdAt: now(),
          pinned: false,
          excluded: false
        }
        list.push(message)
        return message
      })
      messages.set(threadId, list)
      const thread = threads.get(threadId)
      if (thread && added.length > 0) thread.updatedAt = added.at(-1)!.createdAt
      return added
    },
    messagesOf: (threadId) => messages.get(threadId) ?? [],
    contextConfig: { global: {}, threads: new Map() },
    buildsOf: (threadId) => builds.get(threadId) ?? [],
    memory: undefined as unknown as FakeMemoryApi,
    providers: [],
    apiKeys: new Map(),
    encryptionAvailable: true,
    ollama: { found: false, baseUrl: 'http://127.0.0.1:11434', reason: 'not_running' },
    testResult: { ok: true, latencyMs: 42, method: 'completion', modelId: null, models: null },
    streaming: false,
    streamIds: [],
    usageTotals: {
      promptTokens: 0,
      completionTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      replies: 0,
      cost: null,
      unpricedReplies: 0
    },
    summaries: new Map(),
    addReply(threadId, content, reply = {}) {
      const list = messages.get(threadId) ?? []
      const message: Message = {
        id: nextId++,
        threadId,
        seq: list.length + 1,
        role: 'assistant',
        content,
        toolCalls: null,
        toolCallId: null,
        tokenCount: fakeTokens(content),
        createdAt: now(),
        pinned: false,
        excluded: false,
        reply: {
          providerId: 'p1',
          modelId: 'scripted-model',
          status: 'complete',
          usage: null,
          cost: null,
          estimatedPromptTokens: null,
          finishReason: 'stop',
          supersededBy: null,
          ...reply
        }
      }
      list.push(message)
      messages.set(threadId, list)
      return message
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload as never)
    }
  }

  /** As main: the default model stays on a listed model before the renderer hears of the change. */
  const providersChanged = (providerId: string) => {
    backend.settings.defaultModel = adoptedDefaultModel(
      backend.settings.defaultModel,
      backend.providers
    )
    backend.emit('providers:changed', { providerId })
  }

  /** Wraps a handler the way IPC does: async, recorded, and able to fail on request. */
  const handle =
    <I, O>(channel: string, handler: (input: I) => IpcResult<O> | Promise<IpcResult<O>>) =>
    async (input: I): Promise<IpcResult<O>> => {
      calls.push({ channel, input })
      const gate = holds.get(channel)
      holds.delete(channel)
      await gate
      const late = answerHolds.get(channel)
      answerHolds.delete(channel)
      const failure = failures.get(channel)
      failures.delete(channel)
      const answer = await (failure ? fail(failure) : handler(input))
      count(handledCounts, channel)
      if (!late) {
        count(answeredCounts, channel)
        return answer
      }
      // Copied, so the late answer is main's state when it handled the call.
      const copy = structuredClone(answer)
      await late
      count(answeredCounts, channel)
      return copy
    }

  const invalid = (path: string, message: string) =>
    fail({ code: 'invalid_input', message: 'Invalid input', issues: [{ path, message }] })
  const notFound = () => fail({ code: 'not_found', message: 'Thread not found' })
  const noServers = () =>
    fail({ code: 'storage_error', message: 'The fake backend runs no MCP servers.' })
  const changed = (threadId: string) => backend.emit('threads:changed', { threadId })

  /** Like main: defaults, global, thread, then the what-if, validated as a whole. */
  const configFor = (threadId: string, whatIf: ContextConfigPatch = {}) =>
    resolveContextConfig(
      backend.contextConfig.global,
      backend.contextConfig.threads.get(threadId) ?? {},
      whatIf
    )
  const invalidConfig = (issues: string[]) =>
    fail({ code: 'invalid_input', message: issues.join('; ') })
  const configView = (threadId?: string) => {
    const resolved = configFor(threadId ?? '')
    if (!resolved.ok) throw new Error('The fake backend holds an invalid configuration')
    return {
      global: backend.contextConfig.global,
      thread: threadId === undefined ? null : (backend.contextConfig.threads.get(threadId) ?? {}),
      effective: resolved.config
    }
  }

  const listItem = (thread: Thread): ThreadListItem => {
    const list = messages.get(thread.id) ?? []
    // Like main's one query: the newest stored build's tokenStats, the replies' known costs.
    const last = builds.get(thread.id)?.at(-1)
    const costs = list.flatMap((m) => (m.reply?.usage ? [m.reply.cost] : []))
    const priced = costs.filter((cost): cost is number => cost !== null)
    return {
      ...thread,
      messageCount: list.length,
      lastMessagePreview: list.at(-1)?.content.slice(0, 80) ?? null,
      stats: {
        lastBuild: last
          ? { buildId: last.id, createdAt: last.createdAt, tokenStats: last.context.tokenStats }
          : null,
        cost: priced.length > 0 ? priced.reduce((sum, cost) => sum + cost, 0) : null,
        unpricedReplies: costs.length - priced.length,
        summaryUpdatedAt: backend.summaries.get(thread.id)?.updatedAt ?? null
      }
    }
  }

  const unavailable = () =>
    fail({ code: 'storage_error', message: 'The fake backend stores no providers.' })

  const findMessage = (id: number): Message | undefined => {
    for (const list of messages.values()) {
      const found = list.find((message) => message.id === id)
      if (found) return found
    }
    return undefined
  }

  const memoryFake = createFakeMemoryApi({
    message: (id) => {
      const found = findMessage(id)
      return found && { ...found, threadTitle: threads.get(found.threadId)?.title ?? '' }
    },
    changed: (memoryId) => backend.emit('memory:changed', { memoryId })
  })
  backend.memory = memoryFake
  // Every memory channel is recorded and can be failed or held like the others.
  const memoryApi = Object.fromEntries(
    Object.entries(memoryFake.memory).map(([method, handler]) => [
      method,
      handle(`memory:${method}`, handler as (input: unknown) => Promise<IpcResult<unknown>>)
    ])
  ) as Api['memory']

  backend.api = {
    // No MCP servers here (test/integration and test/e2e run real ones); built-ins only.
    tools: {
      listServers: handle('tools:listServers', () => ok([])),
      addServer: handle('tools:addServer', () => noServers()),
      updateServer: handle('tools:updateServer', () => noServers()),
      removeServer: handle('tools:removeServer', () => noServers()),
      restartServer: handle('tools:restartServer', () => noServers()),
      threadTools: handle('tools:threadTools', () => ok([])),
      setThreadTools: handle('tools:setThreadTools', () => ok([])),
      setAlwaysAllowed: handle('tools:setAlwaysAllowed', () => ok({ ok: true as const })),
      pending: handle('tools:pending', () => ok([])),
      approve: handle('tools:approve', () => ok({ settled: false })),
      output: handle('tools:output', () => notFound())
    },
    app: {
      info: handle('app:info', () =>
        ok({
          version: '0.0.0',
          systemLocale: 'en',
          databasePath: ':memory:',
          recoveredFromBackup: backend.recoveredFromBackup,
          salvage: backend.salvage
        })
      )
    },
    settings: {
      get: handle('settings:get', () => ok({ ...backend.settings })),
      update: handle('settings:update', (patch: Partial<AppSettings>) => {
        backend.settings = { ...backend.settings, ...patch }
        return ok({ ...backend.settings })
      })
    },
    threads: {
      list: handle('threads:list', () =>
        ok([...threads.values()].sort((a, b) => b.updatedAt - a.updatedAt).map(listItem))
      ),
      create: handle('threads:create', (input?: { title?: string }) => {
        // Like the main process: without a title a thread is untitled until its first message.
        const thread = backend.addThread(input?.title ?? '')
        changed(thread.id)
        return ok({ ...thread })
      }),
      rename: handle('threads:rename', ({ id, title }: { id: string; title: string }) => {
        const thread = threads.get(id)
        if (!thread) return notFound()
        if (title.trim() === '') return invalid('title', 'Title cannot be empty')
        thread.title = title.trim()
        thread.updatedAt = now()
        changed(id)
        return ok({ ...thread })
      }),
      delete: handle('threads:delete', ({ id }: { id: string }) => {
        if (!threads.delete(id)) return notFound()
        messages.delete(id)
        changed(id)
        return ok({ deleted: true as const })
      }),
      setModel: handle(
        'threads:setModel',
        (input: { threadId: string; providerId: string | null; modelId: string | null }) => {
          const thread = threads.get(input.threadId)
          if (!thread) return notFound()
          const model =
            input.providerId !== null && input.modelId !== null
              ? { providerId: input.providerId, modelId: input.modelId }
              : null
          thread.settings = { ...thread.settings, model }
          changed(thread.id)
          return ok({ ...thread })
        }
      ),
      // Like the main process: a new thread with copies of the messages up to this one.
      fork: handle('threads:fork', ({ messageId }: { messageId: number }) => {
        for (const [threadId, list] of messages) {
          const at = list.find((m) => m.id === messageId)
          if (!at) continue
          const fork = backend.addThread(threads.get(threadId)?.title ?? '')
          messages.set(
            fork.id,
            list.filter((m) => m.seq <= at.seq).map((m) => ({ ...m, threadId: fork.id }))
          )
          changed(fork.id)
          return ok({ ...fork })
        }
        return notFound()
      })
    },
    providers: {
      list: handle('providers:list', () => ok(backend.providers.map((p) => ({ ...p })))),
      catalog: handle('providers:catalog', () =>
        ok({
          date: '2026-01-01',
          models: {
            openai: [{ id: 'gpt-4o-mini', contextWindow: 128_000, maxOutput: 16_384 }],
            'openai-compatible': [],
            anthropic: [],
            ollama: []
          }
        })
      ),
      create: handle('providers:create', (input: z.input<typeof ProviderInputSchema>) => {
        if (input.apiKey && !backend.encryptionAvailable) return unavailable()
        const id = `provider-${nextId++}`
        const view: ProviderView = {
          id,
          kind: input.kind,
          name: input.name,
          ...(input.baseUrl !== undefined && { baseUrl: input.baseUrl }),
          models: (input.models ?? []).map((model) => ({
            contextWindow: 8192,
            maxOutput: 1024,
            ...model
          })),
          hasApiKey: Boolean(input.apiKey),
          apiKeyHint: input.apiKey ? `…${input.apiKey.slice(-4)}` : null
        }
        if (input.apiKey) backend.apiKeys.set(id, input.apiKey)
        backend.providers.push(view)
        providersChanged(id)
        return ok({ ...view })
      }),
      update: handle('providers:update', ({ id, patch }: { id: string; patch: ProviderPatch }) => {
        const view = backend.providers.find((p) => p.id === id)
        if (!view) return notFound()
        if (patch.name !== undefined) view.name = patch.name
        if (patch.baseUrl === null) delete view.baseUrl
        else if (patch.baseUrl !== undefined) view.baseUrl = patch.baseUrl
        if (patch.apiKey) {
          backend.apiKeys.set(id, patch.apiKey)
          view.hasApiKey = true
          view.apiKeyHint = `…${patch.apiKey.slice(-4)}`
        }
        if (patch.models) {
          view.models = patch.models.map((model) => ({
            contextWindow: 8192,
            maxOutput: 1024,
            ...model
          }))
        }
        providersChanged(id)
        return ok({ ...view })
      }),
      remove: handle('providers:remove', ({ id }: { id: string }) => {
        const index = backend.providers.findIndex((p) => p.id === id)
        if (index < 0) return notFound()
        backend.providers.splice(index, 1)
        providersChanged(id)
        return ok({ removed: true as const })
      }),
      test: handle('providers:test', () => ok(backend.testResult)),
      listRemoteModels: handle('providers:listRemoteModels', () => ok([])),
      encryptionStatus: handle('providers:encryptionStatus', () =>
        ok({ available: backend.encryptionAvailable })
      ),
      detectOllama: handle('providers:detectOllama', () => ok(backend.ollama))
    },
    summary: {
      get: handle('summary:get', ({ threadId }: { threadId: string }) =>
        ok(backend.summaries.get(threadId) ?? null)
      ),
      update: handle(
        'summary:update',
        ({ threadId, content }: { threadId: string; content: string }) => {
          const previous = backend.summaries.get(threadId)
          const next: ThreadSummaryView = {
            threadId,
            content,
            lastMessageSeq: previous?.lastMessageSeq ?? 0,
            version: (previous?.version ?? 0) + 1,
            source: 'user' as const,
            updatedAt: now()
          }
          backend.summaries.set(threadId, next)
          return ok(next)
        }
      ),
      // Folds every message but the last two into the summary (the real tail rule is main's).
      compress: handle(
        'summary:compress',
        ({
          threadId,
          focusTopic
        }: {
          threadId: string
          focusTopic?: string
        }): IpcResult<SummaryCompressResult> => {
          const list = messages.get(threadId) ?? []
          const previous = backend.summaries.get(threadId)
          const folded = list.filter(
            (m) => m.seq > (previous?.lastMessageSeq ?? 0) && m.seq <= list.length - 2
          )
          if (folded.length === 0) {
            return ok({
              status: 'nothing_to_compress' as const,
              reason: list.length === 0 ? ('empty' as const) : ('all_in_tail' as const),
              tailMessages: Math.min(list.length, 2)
            })
          }
          const summary: ThreadSummaryView = {
            threadId,
            content: `Summary of ${folded.length} messages${focusTopic ? ` about ${focusTopic}` : ''}`,
            lastMessageSeq: folded.at(-1)!.seq,
            version: (previous?.version ?? 0) + 1,
            source: 'fallback',
            updatedAt: now()
          }
          backend.summaries.set(threadId, summary)
          backend.emit('summary:changed', summary)
          return ok({
            status: 'compressed' as const,
            summary,
            compressedMessages: folded.length,
            compressedTokens: folded.reduce((sum, m) => sum + m.tokenCount, 0),
            tailMessages: 2,
            focusTopic: focusTopic ?? null,
            modelError: null
          })
        }
      ),
      versions: handle('summary:versions', () => ok([])),
      compare: handle('summary:compare', () => notFound()),
      restore: handle('summary:restore', () => notFound()),
      status: handle('summary:status', ({ threadId }: { threadId: string }) =>
        ok(summaryStatus(threadId))
      ),
      retry: handle('summary:retry', ({ threadId }: { threadId: string }) =>
        ok(summaryStatus(threadId))
      )
    },
    chat: {
      usage: handle('chat:usage', () => ok(backend.usageTotals)),
      costReport: handle('chat:costReport', () =>
        ok({
          replies: [],
          totals: {
            promptTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            uncachedTokens: 0,
            cost: null,
            savings: null,
            unpricedReplies: 0
          },
          whatIf: null
        })
      ),
      stop: handle('chat:stop', () => ok({ stopped: backend.streaming })),
      regenerate: handle('chat:regenerate', ({ threadId }: { threadId: string }) => {
        if (!backend.streaming) {
          return fail({ code: 'invalid_input', message: 'No model is configured.' })
        }
        const config = configFor(threadId)
        if (!config.ok) return invalidConfig(config.issues)
        const streamId = `stream-${backend.streamIds.length + 1}`
        backend.streamIds.push(streamId)
        const build: StoredBuild = {
          id: nextId++,
          threadId,
          messageId: null,
          createdAt: now(),
          context: fakeBuild(backend.settings.systemPrompt, [], '', config.config)
        }
        return ok({ streamId, build })
      })
    },
    messages: {
      list: handle('messages:list', ({ threadId, ...query }: { threadId: string } & PageQuery) =>
        threads.has(threadId) ? ok(pageOf(messages.get(threadId) ?? [], query)) : notFound()
      ),
      send: handle(
        'messages:send',
        ({ threadId, content }: { threadId: string; content: string }): IpcResult<SendOutcome> => {
          if (!threads.has(threadId)) return notFound()
          if (content.trim() === '') return invalid('content', 'Message is empty')
          const history = [...(messages.get(threadId) ?? [])]
          const [message] = backend.addMessages(threadId, [content])
          changed(threadId)
          const config = configFor(threadId)
          if (!config.ok) {
            return ok({
              message: message!,
              status: 'no_model_configured' as const,
              build: null,
              buildError: config.issues.join('; ')
            })
          }
          const list = builds.get(threadId) ?? []
          const build: StoredBuild = {
            id: nextId++,
            threadId,
            messageId: message!.id,
            createdAt: now(),
            context: fakeBuild(backend.settings.systemPrompt, history, content, config.config)
          }
          builds.set(threadId, [...list, build])
          backend.emit('context:built', build)
          if (backend.streaming) {
            const streamId = `stream-${backend.streamIds.length + 1}`
            backend.streamIds.push(streamId)
            return ok({
              message: message!,
              status: 'streaming' as const,
              streamId,
              model: { providerId: 'p1', modelId: 'scripted-model' },
              build,
              buildError: null
            })
          }
          return ok({
            message: message!,
            status: 'no_model_configured' as const,
            build,
            buildError: null
          })
        }
      ),
      setFlags: handle(
        'messages:setFlags',
        ({ id, ...flags }: { id: number; pinned?: boolean; excluded?: boolean }) => {
          for (const list of messages.values()) {
            const message = list.find((candidate) => candidate.id === id)
            if (message) {
              Object.assign(message, flags)
              return ok({ ...message })
            }
          }
          return fail({ code: 'not_found', message: 'Message not found' })
        }
      ),
      // As main does: the original and what followed are excluded, its answer points at the
      // edit; no model providers in the fake, so nothing answers the edit.
      editResend: handle(
        'messages:editResend',
        ({ id, content }: { id: number; content: string }): IpcResult<SendOutcome> => {
          const original = findMessage(id)
          if (!original) return fail({ code: 'not_found', message: 'Message not found' })
          const later = (messages.get(original.threadId) ?? []).filter((m) => m.seq >= original.seq)
          const answer = later.find(
            (m, i) =>
              m.role === 'assistant' &&
              m.reply &&
              !m.reply.supersededBy &&
              !later.slice(1, i).some((between) => between.role === 'user')
          )
          for (const m of later) m.excluded = true
          const [message] = backend.addMessages(original.threadId, [content])
          if (answer?.reply) answer.reply.supersededBy = message!.id
          changed(original.threadId)
          return ok({
            message: message!,
            status: 'no_model_configured' as const,
            build: null,
            buildError: null
          })
        }
      ),
      remember: handle('messages:remember', memoryFake.remember),
      locate: handle('messages:locate', ({ id }: { id: number }) => {
        const found = findMessage(id)
        return found
          ? ok({ threadId: found.threadId, seq: found.seq })
          : fail({ code: 'not_found', message: 'This message no longer exists.' })
      })
    },
    context: {
      preview: handle(
        'context:preview',
        (input: { threadId: string; draft: string; whatIf?: ContextConfigPatch }) => {
          if (!threads.has(input.threadId)) return notFound()
          const config = configFor(input.threadId, input.whatIf)
          if (!config.ok) return invalidConfig(config.issues)
          const history = messages.get(input.threadId) ?? []
          return ok(fakeBuild(backend.settings.systemPrompt, history, input.draft, config.config))
        }
      ),
      builds: handle('context:builds', ({ threadId }: { threadId: string }) =>
        ok([...(builds.get(threadId) ?? [])].reverse())
      ),
      getConfig: handle('context:getConfig', ({ threadId }: { threadId?: string }) =>
        ok(configView(threadId))
      ),
      updateConfig: handle(
        'context:updateConfig',
        (input: { scope: 'global' | 'thread'; threadId?: string; patch: ContextConfigPatch }) => {
          const { global, threads: perThread } = backend.contextConfig
          const thread = input.threadId === undefined ? {} : (perThread.get(input.threadId) ?? {})
          const nextGlobal =
            input.scope === 'global' ? mergeConfigPatches(global, input.patch) : global
          const nextThread =
            input.scope === 'thread' ? mergeConfigPatches(thread, input.patch) : thread
          const resolved = resolveContextConfig(nextGlobal, nextThread)
          if (!resolved.ok) return invalidConfig(resolved.issues)
          backend.contextConfig.global = nextGlobal
          if (input.threadId !== undefined) perThread.set(input.threadId, nextThread)
          return ok(configView(input.threadId))
        }
      )
    },
    memory: memoryApi,
    // No file store in the fake: every thread has no files, and attaching is unavailable.
    files: {
      attach: handle('files:attach', unavailable),
      pick: handle('files:pick', unavailable),
      list: handle('files:list', () => ok([])),
      remove: handle('files:remove', unavailable)
    },
    // The file dialogs live in main: the fake answers as if the user closed them.
    history: {
      import: handle('history:import', () => ok({ started: false as const })),
      cancelImport: handle('history:cancelImport', () => ok({ cancelled: false })),
      export: handle('history:export', () => ok({ saved: false as const }))
    },
    backup: {
      list: handle('backup:list', () => ok([])),
      create: handle('backup:create', () =>
        ok({
          name: 'context-lens-fake-manual.sqlite',
          reason: 'manual' as const,
          createdAt: now(),
          bytes: 0
        })
      ),
      restore: handle('backup:restore', () => notFound()),
      restoreFile: handle('backup:restoreFile', () => ok(null))
    },
    search: {
      query: handle('search:query', ({ query }: { query: string; limit?: number }) => {
        const needle = query.trim().toLowerCase()
        const hits: SearchHit[] = []
        for (const thread of threads.values()) {
          if (thread.title.toLowerCase().includes(needle)) {
            hits.push({
              kind: 'thread',
              threadId: thread.id,
              threadTitle: thread.title,
              messageId: null,
              seq: null,
              role: null,
              snippet: thread.title,
              createdAt: thread.createdAt
            })
          }
          for (const message of messages.get(thread.id) ?? []) {
            if (!message.content.toLowerCase().includes(needle)) continue
            hits.push({
              kind: 'message',
              threadId: thread.id,
              threadTitle: thread.title,
              messageId: message.id,
              seq: message.seq,
              role: message.role,
              snippet: message.content.slice(0, 120),
              createdAt: message.createdAt
            })
          }
        }
        return ok(hits)
      })
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: never) => void)
      listeners.set(event, set)
      return () => void set.delete(listener as (payload: never) => void)
    }
  }

  return backend
}

/** Installs a fresh fake backend as `window.api`. */
/** A thread's automatic-summary status with nothing scheduled, running or failed; `change` on top. */
export function summaryStatus(
  threadId: string,
  change: Partial<SummaryAutomationStatus> = {}
): SummaryAutomationStatus {
  return {
    threadId,
    failures: 0,
    paused: false,
    lastError: null,
    stale: false,
    scheduled: false,
    running: false,
    ...change
  }
}

export function installFakeBackend(): FakeBackend {
  const backend = createFakeBackend()
  window.api = backend.api
  return backend
}

/**
 * Waits until every call made on `channel` so far has been answered, the late ones included,
 * so a test can then check that a stale answer changed nothing: the renderer handles an answer
 * in the microtasks that follow it, which all run before the next poll.
 */
export function allAnswered(backend: FakeBackend, channel: string): Promise<true> {
  return pollUntil(
    () => {
      const made = backend.calls.filter((call) => call.channel === channel).length
      return made > 0 && backend.answered(channel) === made
    },
    { what: `every ${channel} call to be answered` }
  )
}
