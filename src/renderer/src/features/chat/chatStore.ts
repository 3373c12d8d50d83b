import { create } from 'zustand'
import type { Message, SendOutcome } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'

/** How long a message reached from search stays highlighted. */
export const HIGHLIGHT_MS = 2500

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

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
  /** A message the list should scroll to once its thread is on screen (from a search hit). */
  reveal: { threadId: string; messageId: number } | null
  highlightedId: number | null

  open(threadId: string | null): Promise<void>
  reload(): Promise<void>
  setDraft(threadId: string, text: string): void
  send(content: string): Promise<boolean>
  dismissSendError(): void
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
    reveal: null,
    highlightedId: null,

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
        highlightedId: null,
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
              lastOutcome: outcome.status
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
