import type { Services } from '../services/serviceTypes'
import type { Handlers } from './registry'

/** Thin: each channel forwards its validated input to one service call. */
export function createHandlers(services: Services): Handlers {
  const {
    threads,
    chat,
    messages,
    context,
    contextConfig,
    search,
    settings,
    memory,
    memoryModel,
    providers,
    summaries
  } = services
  /** A handler for an existing thread: an unknown id answers not_found before anything runs. */
  const inThread =
    <Input extends { threadId: string }, Output>(handle: (input: Input) => Output) =>
    (input: Input): Output => {
      threads.get(input.threadId)
      return handle(input)
    }
  return {
    app: {
      info: () => services.info
    },
    settings: {
      get: () => settings.get(),
      update: (patch) => settings.update(patch)
    },
    threads: {
      list: () => threads.list(),
      create: (input) => threads.create(input?.title),
      rename: ({ id, title }) => threads.rename(id, title),
      delete: ({ id }) => {
        chat.stop(id)
        threads.delete(id)
        return { deleted: true as const }
      },
      setModel: ({ threadId, providerId, modelId }) =>
        threads.setModel(
          threadId,
          providerId !== null && modelId !== null ? { providerId, modelId } : null
        ),
      fork: ({ messageId }) => services.forks.fork(messageId)
    },
    tools: {
      listServers: () => services.tools.listServers(),
      addServer: (input) => services.tools.addServer(input),
      updateServer: ({ id, patch }) => services.tools.updateServer(id, patch),
      removeServer: async ({ id }) => {
        await services.tools.removeServer(id)
        return { removed: true as const }
      },
      restartServer: ({ id }) => services.tools.restartServer(id),
      threadTools: ({ threadId }) => services.tools.threadTools(threadId),
      setThreadTools: ({ threadId, keys }) => services.tools.setThreadTools(threadId, keys),
      setAlwaysAllowed: ({ key, allowed }) => {
        services.tools.setAlwaysAllowed(key, allowed)
        return { ok: true as const }
      },
      pending: ({ threadId }) => services.tools.approvals.pending(threadId),
      approve: ({ threadId, callId, decision }) =>
        services.tools.answer(threadId, callId, decision),
      output: ({ messageId }) => services.tools.output(messageId)
    },
    providers: {
      list: () => providers.list(),
      catalog: () => providers.catalog(),
      create: (input) => providers.create(input),
      update: ({ id, patch }) => providers.update(id, patch),
      remove: ({ id }) => {
        providers.remove(id)
        return { removed: true as const }
      },
      test: ({ modelId, ...target }) => providers.test(target, modelId),
      listRemoteModels: ({ id }) => providers.listRemoteModels(id),
      encryptionStatus: () => ({ available: providers.encryptionAvailable() }),
      detectOllama: () => providers.detectOllama()
    },
    summary: {
      get: inThread(({ threadId }) => summaries.get(threadId)),
      update: inThread(({ threadId, content }) => summaries.update(threadId, content)),
      // The tail is sized by the build the thread would get now (ContextBuildService.currentBuild).
      compress: inThread(async ({ threadId, focusTopic }) =>
        summaries.compress(threadId, {
          focusTopic: focusTopic ?? null,
          build: await context.currentBuild(threadId),
          target: services.models.targetFor(threadId)
        })
      ),
      versions: inThread(({ threadId }) => summaries.versions(threadId)),
      compare: inThread(({ threadId, version }) => summaries.compare(threadId, version)),
      restore: inThread(({ threadId, version }) => summaries.restore(threadId, version)),
      status: inThread(({ threadId }) => summaries.status(threadId)),
      retry: inThread(async ({ threadId }) =>
        summaries.retry(
          threadId,
          await context.currentBuild(threadId),
          services.models.targetFor(threadId)
        )
      )
    },
    chat: {
      usage: ({ threadId }) => messages.usage(threadId),
      stop: ({ threadId }) => chat.stop(threadId),
      regenerate: ({ threadId }) => chat.regenerate(threadId),
      costReport: ({ threadId, whatIf }) => services.costs.report(threadId, whatIf ?? false)
    },
    messages: {
      list: ({ threadId, ...query }) => messages.page(threadId, query),
      send: ({ threadId, content }) => chat.send(threadId, content),
      editResend: ({ id, content }) => chat.editResend(id, content),
      setFlags: ({ id, ...flags }) => messages.setFlags(id, flags),
      remember: ({ id, category }) => memory.rememberMessage(id, category),
      locate: ({ id }) => messages.locate(id)
    },
    memory: {
      list: (input) => memory.list(input ?? {}),
      create: ({ content, category, sourceMessageId }) =>
        sourceMessageId === undefined
          ? memory.create({ content, category })
          : memory.createFromMessage(sourceMessageId, { content, category }),
      update: ({ id, ...change }) => memory.update(id, change),
      delete: ({ id }) => memory.delete(id),
      restore: ({ id }) => memory.restore(id),
      origin: ({ id }) => memory.origin(id),
      search: ({ query, ...options }) => memory.search(query, options),
      status: () => memory.status(),
      getSettings: () => memoryModel.settings(),
      updateSettings: (patch) => memoryModel.updateSettings(patch)
    },
    context: {
      preview: ({ threadId, draft, whatIf }) => context.preview(threadId, draft, whatIf),
      builds: ({ threadId }) => context.builds(threadId),
      getConfig: ({ threadId }) => contextConfig.get(threadId),
      updateConfig: ({ scope, threadId, patch }) => contextConfig.update(scope, patch, threadId)
    },
    files: {
      attach: ({ threadId, scope, name, mime, data }) =>
        services.files.attach(threadId, scope, {
          name,
          mime: mime ?? null,
          bytes: Buffer.from(data, 'base64')
        }),
      pick: ({ threadId, scope }) => services.files.pick(threadId, scope),
      list: ({ threadId }) => services.files.list(threadId),
      remove: ({ id }) => services.files.remove(id)
    },
    history: {
      import: (input) => services.history.startImport({ withBranches: !!input?.withBranches }),
      cancelImport: ({ importId }) => services.history.cancelImport(importId),
      export: ({ format, threadId, withRequests }) =>
        services.history.export({
          format,
          withRequests: !!withRequests,
          ...(threadId && { threadId })
        })
    },
    backup: {
      list: () => services.backup.list(),
      create: () => services.backup.backupNow('manual'),
      restore: ({ name }) => services.backup.restore(name),
      restoreFile: () => services.backup.restoreFile()
    },
    search: {
      query: ({ query, limit }) => search.query(query, limit)
    }
  }
}
