import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { Message } from '@shared/domain'
import { MessageView } from './MessageView'
import { ReplyErrorView, ReplyTail } from './ReplyTail'
import { placeErrors } from './replyErrors'
import { VersionSwitcher } from './VersionSwitcher'
import { useChatStore, type ReplyError } from './chatStore'
import { rowsOf, shownTurn, type MessageRow } from './replyVersions'

const NO_ERRORS: ReplyError[] = []

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
  const errors = useChatStore((state) => (threadId && state.replyErrors[threadId]) || NO_ERRORS)
  const busy = useChatStore((state) =>
    threadId ? Boolean(state.streams[threadId]) || state.sendingThreadId === threadId : false
  )
  // The reply "Regenerate" applies to: the last message, when it is a model's reply.
  const last = messages.at(-1)
  const lastReplyId = last?.role === 'assistant' && last.reply ? last.id : null
  const scrollRef = useRef<HTMLDivElement>(null)
  // Regenerated replies and edited turns share one row, with a switcher between versions.
  const allRows = useMemo(() => rowsOf(messages), [messages])
  // Each error card stays with its turn; one whose message is not loaded yet ends the list.
  const placed = useMemo(() => placeErrors(allRows, errors, messages), [allRows, errors, messages])
  const hasTail = useChatStore((state) =>
    threadId
      ? Boolean(state.streams[threadId]) ||
        placed.tail.length > 0 ||
        state.retries[threadId] !== undefined
      : false
  )
  // The version a reader picked per row (by its current message); absent: the current one.
  const [picked, setPicked] = useState<Record<number, number>>({})
  // An earlier version of an edited turn stands for the conversation from there on: what
  // followed the edit is not part of it.
  const rows = useMemo(() => {
    const cut = allRows.findIndex(
      (row) => row.kind === 'turn' && (picked[row.message.id] ?? Infinity) < row.versions.length - 1
    )
    return cut < 0 ? allRows : allRows.slice(0, cut + 1)
  }, [allRows, picked])

  const getItemKey = useCallback((index: number) => rows[index]?.message.id ?? 'tail', [rows])

  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler, which is what this warns about
  const virtualizer = useVirtualizer({
    count: rows.length + (hasTail ? 1 : 0),
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
  const lastId = rows.at(-1)?.message.id
  const lastSeenId = useRef(lastId)

  useLayoutEffect(() => {
    if (reveal && reveal.threadId === threadId) {
      const holds = (version: Message[]) => version.some((m) => m.id === reveal.messageId)
      const index = rows.findIndex((row) => row.versions.some(holds))
      const row = rows[index]
      // A hit in an earlier version opens that version.
      if (row && !holds(row.versions.at(-1)!)) {
        setPicked((current) => ({ ...current, [row.message.id]: row.versions.findIndex(holds) }))
      }
      // A message not loaded yet is being fetched (chatStore): scroll once it is here.
      if (index < 0 && waiting) return
      if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' })
      completeReveal(index >= 0 ? reveal.messageId : null)
      positioned.current = true
    } else if (!positioned.current) {
      virtualizer.scrollToEnd()
      positioned.current = true
    }
  }, [reveal, threadId, rows, virtualizer, completeReveal, waiting])

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
            const entry = rows[row.index]
            if (!entry) {
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
                  <ReplyTail threadId={threadId} errors={placed.tail} current={placed.current} />
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
                aria-setsize={rows.length}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <VersionedMessage
                  row={entry}
                  shown={picked[entry.message.id] ?? entry.versions.length - 1}
                  onPick={(version) =>
                    setPicked((current) => ({ ...current, [entry.message.id]: version }))
                  }
                  highlightedId={highlightedId}
                  lastReplyId={lastReplyId}
                  busy={busy}
                />
                {placed.byRow.get(entry.message.id)?.map((error) => (
                  <ReplyErrorView
                    key={error.streamId}
                    error={error}
                    current={error === placed.current}
                  />
                ))}
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

interface VersionedMessageProps {
  row: MessageRow
  shown: number
  onPick: (version: number) => void
  highlightedId: number | null
  lastReplyId: number | null
  busy: boolean
}

/** A row's message: the version picked (the current one by default), with ‹ n/m › when there are several. */
function VersionedMessage({
  row,
  shown,
  onPick,
  highlightedId,
  lastReplyId,
  busy
}: VersionedMessageProps) {
  const index = Math.min(shown, row.versions.length - 1)
  const earlierTurn = row.kind === 'turn' && index < row.versions.length - 1
  const version = row.versions[index] ?? [row.message]
  return (
    <>
      {(earlierTurn ? shownTurn(version) : version).map((message) => (
        <MessageView
          key={message.id}
          message={message}
          highlighted={message.id === highlightedId}
          isLastReply={message.id === lastReplyId}
          busy={busy}
          earlierVersion={earlierTurn}
        />
      ))}
      {row.versions.length > 1 && (
        <VersionSwitcher
          of={row.kind}
          index={index}
          count={row.versions.length}
          onChange={onPick}
        />
      )}
    </>
  )
}
