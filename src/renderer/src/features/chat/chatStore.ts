import { create } from 'zustand'
import type { Message, SendOutcome } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'

/** How long a message reached from search stays highlighted. */
export const HIGHLIGHT_MS = 2500

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

export type MessageFlags = Partial<Pick<Message, 'pinned' | 'excluded'>>

interface ChatState {
  threadId: string | null
  messages: Message[]
  status: LoadStatus
  loadError: string | null
  /** Unsent text per thread, so switching threads never loses a draft. */
  drafts: Record<string, string>
  /** The thread whose message is on its way; its composer is locked until main answers. */
  sendingThreadId: string | null
  sendError: string | null
  /** What main said about the last message sent in the open thread. */
  lastOutcome: SendOutcome['status'] | null
  /** Why no context could be built for that message (it is stored regardless). */
  buildError: string | null
  /** A message the list should scroll to once its thread is on screen (from a search hit). */
  reveal: { threadId: string; messageId: number } | null
  highlightedId: number | null
  /** A pin or exclude that main refused; the message keeps its previous flags. */
  flagError: string | null

  open(threadId: string | null): Promise<void>
  reload(): Promise<void>
  setDraft(threadId: string, text: string): void
  send(content: string): Promise<boolean>
  dismissSendError(): void
  /** Pins or excludes a message; the list (and so the inspector's next preview) follows. */
  setFlags(messageId: number, flags: MessageFlags): Promise<boolean>
  dismissFlagError(): void
  revealMessage(threadId: string, messageId: number): void
  /** Called by the list once it has scrolled: hands the reveal over to a brief highlight. */
  completeReveal(messageId: number | null): void
}

export const useChatStore = create<ChatState>()((set, get) => {
  let highlightTimer: ReturnType<typeof setTimeout> | undefined

  const fetchMessages = async (threadId: string): Promise<void> => {
    set({ status: 'loading', loadError: null })
    try {
      const messages = await call(window.api.messages.list({ threadId }))
      if (get().threadId === threadId) set({ messages, status: 'ready' })
    } catch (error) {
      if (get().threadId === threadId) set({ status: 'error', loadError: describeError(error) })
    }
  }

  return {
    threadId: null,
    messages: [],
    status: 'idle',
    loadError: null,
    drafts: {},
    sendingThreadId: null,
    sendError: null,
    lastOutcome: null,
    buildError: null,
    reveal: null,
    highlightedId: null,
    flagError: null,

    async open(threadId) {
      // Selecting the open thread again (or React re-running an effect) must not refetch.
      if (threadId === get().threadId) return
      clearTimeout(highlightTimer)
      set((state) => ({
        threadId,
        messages: [],
        status: threadId ? 'loading' : 'idle',
        loadError: null,
        sendError: null,
        lastOutcome: null,
        buildError: null,
        highlightedId: null,
        flagError: null,
        reveal: state.reveal?.threadId === threadId ? state.reveal : null
      }))
      if (threadId) await fetchMessages(threadId)
    },

    async reload() {
      const { threadId } = get()
      if (threadId) await fetchMessages(threadId)
    },

    setDraft(threadId, text) {
      set((state) => ({ drafts: { ...state.drafts, [threadId]: text } }))
    },

    async send(content) {
      const { threadId, sendingThreadId, status } = get()
      // Appending to a list that has not loaded would show a thread with its history missing.
      if (!threadId || sendingThreadId || status !== 'ready') return false
      set({ sendingThreadId: threadId, sendError: null })
      try {
        const outcome = await call(window.api.messages.send({ threadId, content }))
        set((state) => {
          const stillOpen = state.threadId === threadId
          return {
            sendingThreadId: null,
            drafts: { ...state.drafts, [threadId]: '' },
            ...(stillOpen && {
              messages: [...state.messages, outcome.message],
              lastOutcome: outcome.status,
              buildError: outcome.buildError
            })
          }
        })
        return true
      } catch (error) {
        // The draft is untouched, so the text stays in the composer for another try.
        set((state) => ({
          sendingThreadId: null,
          sendError: state.threadId === threadId ? describeError(error) : state.sendError
        }))
        return false
      }
    },

    dismissSendError: () => set({ sendError: null }),

    async setFlags(messageId, flags) {
      try {
        const updated = await call(window.api.messages.setFlags({ id: messageId, ...flags }))
        set((state) => ({
          flagError: null,
          messages: state.messages.map((message) => (message.id === updated.id ? updated : message))
        }))
        return true
      } catch (error) {
        set({ flagError: describeError(error) })
        return false
      }
    },

    dismissFlagError: () => set({ flagError: null }),

    revealMessage(threadId, messageId) {
      set({ reveal: { threadId, messageId } })
    },

    completeReveal(messageId) {
      clearTimeout(highlightTimer)
      set({ reveal: null, highlightedId: messageId })
      if (messageId === null) return
      highlightTimer = setTimeout(() => {
        if (get().highlightedId === messageId) set({ highlightedId: null })
      }, HIGHLIGHT_MS)
    }
  }
})
