import { useCallback, useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useVirtualizer } from '@tanstack/react-virtual'
import { MessageView } from './MessageView'
import { ReplyTail } from './ReplyTail'
import { useChatStore } from './chatStore'

/** A typical short message; real heights are measured as rows render. */
const ESTIMATED_ROW_PX = 96
/** Rows rendered beyond the viewport so fast scrolling does not show blank space. */
const OVERSCAN_ROWS = 6
/** Older messages are asked for once the reader is this close to the top of what is loaded. */
const LOAD_OLDER_PX = 600

/**
 * The open thread's messages, virtualized: only rows near the viewport exist in the DOM (and
 * only they parse markdown). A thread opens at its newest page; scrolling near the top loads
 * the page before it, and the virtualizer (anchored at the end) keeps the reading position as
 * rows are prepended. Mounted once per thread (keyed by its id), so each thread starts with a
 * fresh scroll position.
 */
export function MessageList() {
  const { t } = useTranslation()
  const threadId = useChatStore((state) => state.threadId)
  const messages = useChatStore((state) => state.messages)
  const reveal = useChatStore((state) => state.reveal)
  const highlightedId = useChatStore((state) => state.highlightedId)
  const completeReveal = useChatStore((state) => state.completeReveal)
  const loadOlder = useChatStore((state) => state.loadOlder)
  const older = useChatStore((state) => state.older)
  const waiting = useChatStore((state) => state.status !== 'ready' || state.older === 'loading')
  const live = useChatStore((state) => (threadId ? state.streams[threadId] : undefined))
  const hasTail = useChatStore((state) =>
    threadId
      ? Boolean(
          state.streams[threadId] ||
          state.replyErrors[threadId] ||
          state.retries[threadId] !== undefined
        )
      : false
  )
  const busy = useChatStore((state) =>
    threadId ? Boolean(state.streams[threadId]) || state.sendingThreadId === threadId : false
  )
  // The reply "Regenerate" applies to: the last message, when it is a model's reply.
  const last = messages.at(-1)
  const lastReplyId = last?.role === 'assistant' && last.reply ? last.id : null
  const scrollRef = useRef<HTMLDivElement>(null)

  const getItemKey = useCallback((index: number) => messages[index]?.id ?? 'tail', [messages])

  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler, which is what this warns about
  const virtualizer = useVirtualizer({
    count: messages.length + (hasTail ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey,
    overscan: OVERSCAN_ROWS,
    paddingStart: 16,
    paddingEnd: 16,
    // A chat reads from the bottom: rows measured above the viewport must not push it around.
    anchorTo: 'end'
  })

  // Opening a thread lands on its last message, unless a search hit asked for a specific one.
  const positioned = useRef(false)
  const lastId = messages.at(-1)?.id
  const lastSeenId = useRef(lastId)

  useLayoutEffect(() => {
    if (reveal && reveal.threadId === threadId) {
      const index = messages.findIndex((message) => message.id === reveal.messageId)
      // A message not loaded yet is being fetched (chatStore): scroll once it is here.
      if (index < 0 && waiting) return
      if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' })
      completeReveal(index >= 0 ? reveal.messageId : null)
      positioned.current = true
    } else if (!positioned.current) {
      virtualizer.scrollToEnd()
      positioned.current = true
    }
  }, [reveal, threadId, messages, virtualizer, completeReveal, waiting])

  // A newly appended message (one just sent) is always brought into view.
  useLayoutEffect(() => {
    if (lastId === lastSeenId.current) return
    lastSeenId.current = lastId
    virtualizer.scrollToEnd()
  }, [lastId, virtualizer])

  // The reply streaming in stays in view as it grows.
  const liveLength = live?.text.length ?? -1
  useLayoutEffect(() => {
    if (hasTail) virtualizer.scrollToEnd()
  }, [hasTail, liveLength, virtualizer])

  return (
    <div className="message-list-frame">
      <div
        ref={scrollRef}
        className="message-list"
        data-testid="message-list"
        role="list"
        aria-label={t('chat.messagesLabel')}
        tabIndex={0}
        onScroll={(event) => {
          if (positioned.current && event.currentTarget.scrollTop < LOAD_OLDER_PX) void loadOlder()
        }}
      >
        <div className="message-list__canvas" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const message = messages[row.index]
            if (!message) {
              if (!threadId) return null
              return (
                <div
                  key={row.key}
                  ref={virtualizer.measureElement}
                  data-index={row.index}
                  className="message-row"
                  role="listitem"
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  <ReplyTail threadId={threadId} />
                </div>
              )
            }
            return (
              <div
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                className="message-row"
                role="listitem"
                aria-posinset={row.index + 1}
                aria-setsize={messages.length}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <MessageView
                  message={message}
                  highlighted={message.id === highlightedId}
                  isLastReply={message.id === lastReplyId}
                  busy={busy}
                />
              </div>
            )
          })}
        </div>
      </div>
      {older !== 'idle' && (
        <p className="message-list__older" role="status">
          {older === 'loading' ? t('chat.loadingOlder') : t('chat.olderFailed')}
        </p>
      )}
    </div>
  )
}
