import type { Services } from '../services/createServices'
import type { Handlers } from './registry'

/** Thin: each channel forwards its validated input to one service call. */
export function createHandlers(services: Services): Handlers {
  const { threads, chat, context, search, settings } = services
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
        threads.delete(id)
        return { deleted: true as const }
      }
    },
    messages: {
      list: ({ threadId }) => chat.list(threadId),
      send: ({ threadId, content }) => chat.send(threadId, content),
      setFlags: ({ id, ...flags }) => chat.setFlags(id, flags)
    },
    context: {
      preview: ({ threadId, draft, whatIf }) => context.preview(threadId, draft, whatIf),
      builds: ({ threadId }) => context.builds(threadId),
      getConfig: ({ threadId }) => context.getConfig(threadId),
      updateConfig: ({ scope, threadId, patch }) => context.updateConfig(scope, patch, threadId)
    },
    search: {
      query: ({ query, limit }) => search.query(query, limit)
    }
  }
}
