import { create } from 'zustand'
import type {
  ApprovalDecision,
  McpServerInput,
  McpServerView,
  ThreadToolView,
  ToolApprovalRequest
} from '@shared/tools'
import { call, describeError } from '@renderer/lib/call'

interface ToolsState {
  servers: McpServerView[]
  serverError: string | null
  /** The open thread's tool picker. */
  threadId: string | null
  threadTools: ThreadToolView[]
  /** Calls waiting for consent, per thread, oldest first. */
  approvals: Record<string, ToolApprovalRequest[]>
  /** Subscribes to server and approval events; returns the unsubscribe. */
  watch(): () => void
  loadServers(): Promise<void>
  addServer(input: McpServerInput): Promise<boolean>
  setEnabled(id: string, enabled: boolean): Promise<void>
  restart(id: string): Promise<void>
  remove(id: string): Promise<void>
  loadThreadTools(threadId: string): Promise<void>
  toggleTool(key: string, enabled: boolean): Promise<void>
  revokeAlways(key: string): Promise<void>
  loadPending(threadId: string): Promise<void>
  answer(request: ToolApprovalRequest, decision: ApprovalDecision): Promise<void>
}

const without = (list: ToolApprovalRequest[] | undefined, callId: string) =>
  (list ?? []).filter((r) => r.callId !== callId)

export const useToolsStore = create<ToolsState>()((set, get) => {
  const guard = async (work: () => Promise<void>) => {
    try {
      await work()
      set({ serverError: null })
    } catch (error) {
      set({ serverError: describeError(error) })
    }
  }
  return {
    servers: [],
    serverError: null,
    threadId: null,
    threadTools: [],
    approvals: {},

    watch() {
      const stops = [
        window.api.on('tools:changed', () => {
          void get().loadServers()
          const { threadId } = get()
          if (threadId) void get().loadThreadTools(threadId)
        }),
        window.api.on('tools:approval', (request) =>
          set((state) => ({
            approvals: {
              ...state.approvals,
              [request.threadId]: [
                ...without(state.approvals[request.threadId], request.callId),
                request
              ]
            }
          }))
        ),
        window.api.on('tools:approvalSettled', ({ threadId, callId }) =>
          set((state) => ({
            approvals: {
              ...state.approvals,
              [threadId]: without(state.approvals[threadId], callId)
            }
          }))
        )
      ]
      return () => stops.forEach((stop) => stop())
    },

    loadServers: () =>
      guard(async () => {
        set({ servers: await call(window.api.tools.listServers()) })
      }),

    async addServer(input) {
      try {
        await call(window.api.tools.addServer(input))
        await get().loadServers()
        return true
      } catch (error) {
        set({ serverError: describeError(error) })
        return false
      }
    },

    setEnabled: (id, enabled) =>
      guard(async () => {
        await call(window.api.tools.updateServer({ id, patch: { enabled } }))
        await get().loadServers()
      }),

    restart: (id) =>
      guard(async () => {
        await call(window.api.tools.restartServer({ id }))
        await get().loadServers()
      }),

    remove: (id) =>
      guard(async () => {
        await call(window.api.tools.removeServer({ id }))
        await get().loadServers()
      }),

    async loadThreadTools(threadId) {
      set({ threadId })
      const tools = await call(window.api.tools.threadTools({ threadId })).catch(() => null)
      if (tools && get().threadId === threadId) set({ threadTools: tools })
    },

    async toggleTool(key, enabled) {
      const { threadId, threadTools } = get()
      if (!threadId) return
      const keys = threadTools
        .filter((t) => (t.tool.key === key ? enabled : t.enabled))
        .map((t) => t.tool.key)
      // The box follows the click at once (a controlled checkbox would otherwise spring back
      // until main answers); main's answer, or a reload after a failure, has the last word.
      set({
        threadTools: threadTools.map((t) => (t.tool.key === key ? { ...t, enabled } : t))
      })
      await guard(async () => {
        const tools = await call(window.api.tools.setThreadTools({ threadId, keys }))
        if (get().threadId === threadId) set({ threadTools: tools })
      })
      if (get().serverError !== null && get().threadId === threadId) {
        await get().loadThreadTools(threadId)
      }
    },

    revokeAlways: (key) =>
      guard(async () => {
        await call(window.api.tools.setAlwaysAllowed({ key, allowed: false }))
        const { threadId } = get()
        if (threadId) await get().loadThreadTools(threadId)
      }),

    async loadPending(threadId) {
      const pending = await call(window.api.tools.pending({ threadId })).catch(() => null)
      if (!pending) return
      // An approval event may have arrived while this was on its way: keep it too. (A stale
      // card that was answered meanwhile is cleared by its answer, which says settled: false.)
      set((state) => {
        const known = state.approvals[threadId] ?? []
        const added = pending.filter((p) => !known.some((k) => k.callId === p.callId))
        return { approvals: { ...state.approvals, [threadId]: [...known, ...added] } }
      })
    },

    answer: (request, decision) =>
      guard(async () => {
        await call(
          window.api.tools.approve({ threadId: request.threadId, callId: request.callId, decision })
        )
        set((state) => ({
          approvals: {
            ...state.approvals,
            [request.threadId]: without(state.approvals[request.threadId], request.callId)
          }
        }))
        if (decision === 'always') await get().loadThreadTools(request.threadId)
      })
  }
})
