import { create } from 'zustand'
import type { StoredBuild } from '@shared/context'
import type { Message, MessagePage, SendOutcome } from '@shared/domain'
import type { ProviderErrorInfo } from '@shared/providers'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'
import { anchorErrors, errorsBeforeLastTurn } from './replyErrors'
import { withMessage } from './threadMessages'

/** How long a message reached from search stays highlighted. */
export const HIGHLIGHT_MS = 2500

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

/** A reply on its way: the text that has streamed in so far. */
export interface LiveStream {
  streamId: string
  text: string
}

/** A `chat:error` to show under the reply (or where it would have been). */
export interface ReplyError {
  streamId: string
  error: ProviderErrorInfo
  /** The partial reply stored before the error, if any. */
  messageId: number | null
  /**
   * The message the card follows: the partial reply, or the last message of the failed turn.
   * Null while the send that failed has not answered yet (the card then ends the list).
   */
  afterId: number | null
}

type MessageFlags = Partial<Pick<Message, 'pinned' | 'excluded' | 'summaryExempt'>>

interface ChatState {
  threadId: string | null
  /** The thread's newest messages, oldest first: a thread opens at its end, in pages. */
  messages: Message[]
  /** Whether the thread has messages before the first one loaded. */
  hasOlder: boolean
  /** Loading older messages (scrolling up, or a jump to a message not loaded yet). */
  older: 'idle' | 'loading' | 'error'
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
  /** What the 85 % safety net did to that message's request (shrunk it, trimmed the input). */
  safetyNet: SafetyNetCode[]
  /** A message the list should scroll to once its thread is on screen (from a search hit). */
  reveal: { threadId: string; messageId: number } | null
  highlightedId: number | null
  /** A pin or exclude that main refused; the message keeps its previous flags. */
  flagError: string | null
  /** Streaming replies per thread (one at a time per thread). */
  streams: Record<string, LiveStream>
  /**
   * Failed replies per thread, oldest first. Each stays with the turn that failed; only a
   * retry of that turn (regenerate) replaces it.
   */
  replyErrors: Record<string, ReplyError[]>
  /** A context-length retry per thread: the budget the rebuilt request got. */
  retries: Record<string, number>

  /** Subscribes to the streaming events; returns the unsubscribe. */
  watch(): () => void
  stop(): Promise<void>
  regenerate(): Promise<boolean>
  editResend(messageId: number, content: string): Promise<boolean>
  open(threadId: string | null): Promise<void>
  reload(): Promise<void>
  /** Loads the page before the first loaded message (the list calls it near the top). */
  loadOlder(): Promise<void>
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

const SAFETY_NET_CODES = ['request_shrunk', 'input_trimmed'] as const
export type SafetyNetCode = (typeof SAFETY_NET_CODES)[number]

const isSafetyNetCode = (code: string): code is SafetyNetCode =>
  (SAFETY_NET_CODES as readonly string[]).includes(code)

function safetyNetCodes(build: StoredBuild | null): SafetyNetCode[] {
  return (build?.context.metadata.warnings ?? []).map((w) => w.code).filter(isSafetyNetCode)
}

/** Messages loaded before the one asked for, when jumping to a message not loaded yet. */
const REVEAL_CONTEXT = 50
/**
 * Older pages are larger than the first (100): a long scroll up then takes few round trips,
 * and only the rows on screen are rendered anyway.
 */
const OLDER_PAGE_SIZE = 500

/** A refresh from `fromSeq` on replaces that part of the list and keeps what is older. */
function mergeFrom(
  state: Pick<ChatState, 'messages' | 'hasOlder'>,
  page: MessagePage,
  fromSeq: number
): Pick<ChatState, 'messages' | 'hasOlder'> {
  const kept = state.messages.filter((message) => message.seq < fromSeq)
  return {
    messages: [...kept, ...page.messages],
    hasOlder: kept.length > 0 ? state.hasOlder : page.hasOlder
  }
}

function withoutThread<T>(record: Record<string, T>, threadId: string): Record<string, T> {
  if (!(threadId in record)) return record
  const next = { ...record }
  delete next[threadId]
  return next
}

export const useChatStore = create<ChatState>()((set, get) => {
  let highlightTimer: ReturnType<typeof setTimeout> | undefined
  // Opening a thread, a reply ending and an edit all refetch the list; an older answer (the
  // list before the reply, or another visit to the thread) must not replace a newer one.
  const listing = latestRequest()

  /**
   * Opening fetches the newest page; a background refresh (a reply ended, an edit) fetches
   * everything from the first loaded message on, so flags changed anywhere on screen show.
   */
  const fetchMessages = async (threadId: string, quiet = false): Promise<void> => {
    const ticket = listing.start()
    if (!quiet) set({ status: 'loading', loadError: null })
    const fromSeq = quiet ? get().messages[0]?.seq : undefined
    try {
      const page = await call(
        window.api.messages.list(fromSeq === undefined ? { threadId } : { threadId, fromSeq })
      )
      if (!ticket.isLatest() || get().threadId !== threadId) return
      set((state) =>
        fromSeq === undefined
          ? { messages: page.messages, hasOlder: page.hasOlder, older: 'idle', status: 'ready' }
          : { ...mergeFrom(state, page, fromSeq), status: 'ready' }
      )
      if (!quiet) void loadRevealed()
    } catch (error) {
      if (!ticket.isLatest() || get().threadId !== threadId) return
      // A background refresh keeps what is on screen; the next one may succeed. It may also
      // have superseded the first load, which then still has to say it failed.
      if (quiet && get().status === 'ready') return
      set({ status: 'error', loadError: describeError(error) })
    }
  }

  /**
   * Older messages, prepended: `beforeSeq` pages back, `fromSeq` reaches a given message. The
   * caller has set `older: 'loading'`.
   */
  const fetchOlder = async (
    threadId: string,
    query: { beforeSeq: number; limit: number } | { fromSeq: number }
  ): Promise<void> => {
    try {
      const page = await call(window.api.messages.list({ threadId, ...query }))
      if (get().threadId !== threadId) return
      set((state) => {
        const oldest = state.messages[0]?.seq ?? Infinity
        const before = page.messages.filter((message) => message.seq < oldest)
        return { messages: [...before, ...state.messages], hasOlder: page.hasOlder, older: 'idle' }
      })
    } catch {
      if (get().threadId === threadId) set({ older: 'error' })
    }
  }

  /** A message asked for by a search hit or the inspector, older than what is loaded. */
  const loadRevealed = async (): Promise<void> => {
    const { reveal, threadId, messages, hasOlder, status, older } = get()
    if (!reveal || reveal.threadId !== threadId || status !== 'ready') return
    if (!hasOlder || older === 'loading') return
    if (messages.some((message) => message.id === reveal.messageId)) return
    set({ older: 'loading' })
    try {
      const { seq } = await call(window.api.messages.locate({ id: reveal.messageId }))
      // A few messages before it, so it does not sit at the very top of what is loaded.
      await fetchOlder(threadId, { fromSeq: Math.max(1, seq - REVEAL_CONTEXT) })
    } catch {
      if (get().threadId === threadId) set({ older: 'error' })
    }
  }

  // The answer to send/regenerate and the stream's events travel separately: the first deltas,
  // or the whole of a fast reply, can arrive before the streamId is known. Deltas are kept
  // until it is, and a stream that already ended is never shown as streaming.
  const early = new Map<string, string>()
  const ended = new Set<string>()

  const withStream = (
    streams: Record<string, LiveStream>,
    threadId: string,
    streamId: string
  ): Record<string, LiveStream> => {
    const text = early.get(streamId) ?? ''
    early.delete(streamId)
    if (ended.delete(streamId)) return streams
    return { ...streams, [threadId]: { streamId, text } }
  }

  const streamEnded = (streamId: string): void => {
    early.delete(streamId)
    ended.add(streamId)
  }

  /**
   * A new turn is on its way: lock the composer and forget the last turn's retry notice. A
   * retry of the last turn also replaces its error; earlier turns keep theirs.
   */
  const beginTurn = (threadId: string, retry: boolean): void =>
    set((state) => {
      const errors = anchorErrors(state.replyErrors[threadId], state.messages)
      return {
        sendingThreadId: threadId,
        sendError: null,
        replyErrors: {
          ...state.replyErrors,
          [threadId]: retry ? errorsBeforeLastTurn(errors, state.messages) : errors
        },
        retries: withoutThread(state.retries, threadId)
      }
    })

  /** The send (or retry) answered: an error that came first now knows where it belongs. */
  const anchorPending = (state: ChatState, threadId: string): Partial<ChatState> =>
    state.threadId === threadId && state.replyErrors[threadId]
      ? {
          replyErrors: {
            ...state.replyErrors,
            [threadId]: anchorErrors(state.replyErrors[threadId], state.messages)
          }
        }
      : {}

  const applyOutcome = (threadId: string, outcome: SendOutcome) => {
    set((state) => {
      const stillOpen = state.threadId === threadId
      return {
        sendingThreadId: null,
        streams:
          outcome.status === 'streaming'
            ? withStream(state.streams, threadId, outcome.streamId)
            : state.streams,
        ...(stillOpen && {
          messages: withMessage(state.messages, outcome.message),
          lastOutcome: outcome.status,
          buildError: outcome.buildError,
          safetyNet: safetyNetCodes(outcome.build)
        })
      }
    })
    set((state) => anchorPending(state, threadId))
  }

  return {
    threadId: null,
    messages: [],
    hasOlder: false,
    older: 'idle',
    status: 'idle',
    loadError: null,
    drafts: {},
    sendingThreadId: null,
    sendError: null,
    lastOutcome: null,
    buildError: null,
    safetyNet: [],
    reveal: null,
    highlightedId: null,
    flagError: null,
    streams: {},
    replyErrors: {},
    retries: {},

    watch() {
      const upsert = (threadId: string, message: Message) =>
        set((state) =>
          state.threadId === threadId ? { messages: withMessage(state.messages, message) } : {}
        )
      const stops = [
        window.api.on('chat:delta', ({ threadId, messageId, delta }) =>
          set((state) => {
            const live = state.streams[threadId]
            if (!live) {
              if (!ended.has(messageId)) early.set(messageId, (early.get(messageId) ?? '') + delta)
              return {}
            }
            if (live.streamId !== messageId) return {}
            return {
              streams: { ...state.streams, [threadId]: { ...live, text: live.text + delta } }
            }
          })
        ),
        window.api.on('chat:done', ({ threadId, streamId, message }) => {
          upsert(threadId, message)
          set((state) => {
            if (state.streams[threadId]?.streamId === streamId) {
              return { streams: withoutThread(state.streams, threadId) }
            }
            streamEnded(streamId)
            return {}
          })
          // A regenerate marks earlier replies superseded; the list shows them dimmed.
          if (get().threadId === threadId) void fetchMessages(threadId, true)
        }),
        window.api.on('chat:error', ({ threadId, streamId, error, message }) => {
          if (message) upsert(threadId, message)
          if (get().streams[threadId]?.streamId !== streamId) streamEnded(streamId)
          set((state) => {
            // Before the send answers, the list may not hold the turn's message yet.
            const settled = state.threadId === threadId && state.sendingThreadId !== threadId
            const afterId = message?.id ?? (settled ? (state.messages.at(-1)?.id ?? null) : null)
            return {
              streams:
                state.streams[threadId]?.streamId === streamId
                  ? withoutThread(state.streams, threadId)
                  : state.streams,
              ...(!(error.kind === 'aborted' && !message) && {
                replyErrors: {
                  ...state.replyErrors,
                  [threadId]: [
                    ...(state.replyErrors[threadId] ?? []),
                    { streamId, error, messageId: message?.id ?? null, afterId }
                  ]
                }
              })
            }
          })
        }),
        // A tool-loop step was stored: the text streamed so far belongs to it, not to the reply.
        window.api.on('tools:step', ({ threadId, streamId, message }) => {
          upsert(threadId, message)
          if (message.role !== 'assistant') return
          set((state) =>
            state.streams[threadId]?.streamId === streamId
              ? { streams: { ...state.streams, [threadId]: { streamId, text: '' } } }
              : {}
          )
        }),
        window.api.on('chat:retry', ({ threadId, streamId, budget }) =>
          set((state) => ({
            retries: { ...state.retries, [threadId]: budget },
            streams: state.streams[threadId]
              ? { ...state.streams, [threadId]: { streamId, text: '' } }
              : state.streams
          }))
        )
      ]
      return () => stops.forEach((stop) => stop())
    },

    async stop() {
      const { threadId } = get()
      if (!threadId) return
      try {
        await call(window.api.chat.stop({ threadId }))
      } catch (error) {
        set({ sendError: describeError(error) })
      }
    },

    async regenerate() {
      const { threadId, streams, sendingThreadId } = get()
      if (!threadId || streams[threadId] || sendingThreadId) return false
      beginTurn(threadId, true)
      try {
        const { streamId } = await call(window.api.chat.regenerate({ threadId }))
        set((state) => ({
          sendingThreadId: null,
          streams: withStream(state.streams, threadId, streamId),
          ...anchorPending(state, threadId)
        }))
        return true
      } catch (error) {
        set({ sendingThreadId: null, sendError: describeError(error) })
        return false
      }
    },

    async editResend(messageId, content) {
      const { threadId, streams, sendingThreadId } = get()
      if (!threadId || streams[threadId] || sendingThreadId) return false
      beginTurn(threadId, false)
      try {
        const outcome = await call(window.api.messages.editResend({ id: messageId, content }))
        applyOutcome(threadId, outcome)
        await fetchMessages(threadId, true)
        return true
      } catch (error) {
        set({ sendingThreadId: null, sendError: describeError(error) })
        return false
      }
    },

    async open(threadId) {
      // Selecting the open thread again (or React re-running an effect) must not refetch.
      if (threadId === get().threadId) return
      clearTimeout(highlightTimer)
      set((state) => ({
        threadId,
        messages: [],
        hasOlder: false,
        older: 'idle',
        status: threadId ? 'loading' : 'idle',
        loadError: null,
        sendError: null,
        lastOutcome: null,
        buildError: null,
        safetyNet: [],
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

    async loadOlder() {
      const { threadId, hasOlder, messages, status, older } = get()
      const first = messages[0]
      if (!threadId || !hasOlder || !first || status !== 'ready' || older === 'loading') return
      set({ older: 'loading' })
      await fetchOlder(threadId, { beforeSeq: first.seq, limit: OLDER_PAGE_SIZE })
    },

    setDraft(threadId, text) {
      set((state) => ({ drafts: { ...state.drafts, [threadId]: text } }))
    },

    async send(content) {
      const { threadId, sendingThreadId, status } = get()
      // Appending to a list that has not loaded would show a thread with its history missing.
      if (!threadId || sendingThreadId || status !== 'ready') return false
      if (get().streams[threadId]) return false
      beginTurn(threadId, false)
      try {
        const outcome = await call(window.api.messages.send({ threadId, content }))
        set((state) => ({ drafts: { ...state.drafts, [threadId]: '' } }))
        applyOutcome(threadId, outcome)
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
      void loadRevealed()
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
